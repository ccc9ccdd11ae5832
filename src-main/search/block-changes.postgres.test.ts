import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ForgeFS } from '../fs';
import type { Store } from '../store';
import { PostgresConnection } from '../store/postgres/connection';
import { openDeskStore } from '../store/postgres/desk-store';
import { SEARCH_BLOCK_CHANGES_KEPT } from '../store/postgres/schema';
import { skipWithoutPostgres } from '../store/postgres/test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from '../store/postgres/test-workspaces';
import { HashNgramEmbedder } from './hash-embedder';
import { SearchIndex } from './search-index';

const pm = { actor: 'pm' as const };
const view = (id: string, title: string, body: string) => `# ${id} — ${title}\nstatus: active\nconfidence: 0.6\n---\n## SUMMARY\n${body}\n`;
const NOTES: [string, string][] = [
  ['V-001', view('V-001', 'Curve steepener into Fed cuts', 'The Fed cuts twice; 2s10s steepens as front-end yields fall.')],
  ['V-002', view('V-002', 'Long copper on China stimulus', 'LME inventories falling while Chinese credit impulse turns up.')],
  ['V-003', view('V-003', 'Short zloty on rate cuts', 'NBP cuts faster than priced; zloty weakens against the euro.')],
];

/** Runs `fn` on a connection of its own (a third party on the desk: an admin, another process). */
function withConnection<T>(url: string, fn: (c: PostgresConnection) => T): T {
  const c = PostgresConnection.open(url);
  try {
    return fn(c);
  } finally {
    c.close();
  }
}

/** One desk server: its own connection, store, search index and file system over the shared desk database. */
interface Server {
  store: Store;
  index: SearchIndex;
  fs: ForgeFS;
}

/**
 * Two servers on one desk: what one saves, changes or deletes, the other's next search sees by
 * meaning — and a commit that touches no vector (an audit row, a session) costs the other's next
 * search no block read (before the desk's change log, it reread every block: ~400 MB at a million notes).
 */
describe.skipIf(skipWithoutPostgres())('vector blocks kept current across the servers of a desk', { timeout: 120_000 }, () => {
  let workspaces: PostgresWorkspaces;
  let dir: string;
  let url: string;
  let a: Server;
  let b: Server;
  const embedder = new HashNgramEmbedder();
  let clock = 0;
  const now = () => new Date(Date.UTC(2026, 0, 1) + clock++ * 86_400_000).toISOString();
  const server = (store: Store): Server => {
    const index = new SearchIndex(store.db, embedder);
    return { store, index, fs: new ForgeFS({ store, skillsDir: join(dir, 'skills'), indexer: index, now }) };
  };
  const ridOf = (s: Server, id: string) => (s.store.db.prepare('SELECT rid FROM memory_records WHERE id = ?').get(id) as { rid: number } | undefined)?.rid;
  /** The notes nearest in meaning to `text` on server `s`, best first, by id (the vector scan alone: no keywords). */
  const nearest = async (s: Server, text: string): Promise<string[]> => {
    const q = embedder.embedOne(text);
    const slots = s.index.blocks.nearest(s.index.quantizer.encode(q), 10, {
      category: null,
      status: null,
      sinceDay: null,
      allowed: null,
      embedder: embedder.id,
    });
    const scored = s.index.blocks.scoreSlots(q, slots).sort((x, y) => y[1] - x[1]);
    return scored.map(([rid]) => (s.store.db.prepare('SELECT id FROM memory_records WHERE rid = ?').get(rid) as { id: string }).id);
  };

  beforeAll(async () => {
    workspaces = await startPostgresWorkspaces();
  }, 120_000);
  afterAll(async () => {
    await workspaces?.stop();
  });
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'forge-block-changes-'));
    url = workspaces.freshUrl();
    a = server(openDeskStore(url));
    b = server(openDeskStore(url));
    for (const [id, content] of NOTES) await a.fs.writeFile(`/memory/views/${id}.md`, content, pm);
    // Both servers hold the vectors before the changes under test.
    expect((await nearest(a, 'copper China credit'))[0]).toBe('V-002');
    expect((await nearest(b, 'copper China credit'))[0]).toBe('V-002');
  });
  afterEach(() => {
    a.store.close();
    b.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // If this failed, a note an analyst saves on one server would be missing from a PM's meaning search on the other.
  it('finds by meaning a note saved through the other server, re-ranks it when changed, and drops it when deleted', async () => {
    await a.fs.writeFile('/memory/views/V-004.md', view('V-004', 'Long gilts', 'Gilts rally as the BoE cuts; sterling duration bid.'), pm);
    expect((await nearest(b, 'gilts rally BoE sterling duration'))[0]).toBe('V-004');

    await a.fs.writeFile('/memory/views/V-004.md', view('V-004', 'Long yen', 'BoJ hikes; yen carry positioning unwinds.'), pm);
    const afterEdit = await nearest(b, 'gilts rally BoE sterling duration');
    expect(afterEdit[0]).not.toBe('V-004');
    expect((await nearest(b, 'BoJ hikes yen carry unwinds'))[0]).toBe('V-004');

    const rid = ridOf(a, 'V-004');
    expect(rid).toBeDefined();
    await a.fs.deleteFile('/memory/views/V-004.md', pm);
    expect(await nearest(b, 'BoJ hikes yen carry unwinds')).not.toContain('V-004');
    expect(b.index.blocks.codeOf(rid as number)).toBeNull();
  });

  // If this failed, every search on a busy desk would reread every vector after any commit anywhere (a saved session, an audit row).
  it("reads no block for the other server's commits that change no vector, and only the changed block for one that does", async () => {
    await nearest(b, 'Fed cuts');
    const before = b.index.blocks.rowsRead;
    a.store.audit.append({
      at: '2026-05-01',
      actor: 'pm',
      operation: 'create',
      path: '/memory/views/V-001.md',
      session_id: null,
      task_id: null,
      content_hash: 'x',
    });
    withConnection(url, (c) => c.run("INSERT INTO workspace_meta (key, value) VALUES ('unrelated', 'commit')"));
    expect((await nearest(b, 'copper China credit'))[0]).toBe('V-002');
    expect(b.index.blocks.rowsRead - before).toBe(0);

    // A note saved elsewhere: its one patch row is read, not the block (nor every block).
    await a.fs.writeFile('/memory/views/V-005.md', view('V-005', 'Long gilts', 'Gilts rally as the BoE cuts; sterling duration bid.'), pm);
    expect((await nearest(b, 'gilts rally BoE sterling duration'))[0]).toBe('V-005');
    expect(b.index.blocks.rowsRead - before).toBeLessThanOrEqual(1);
  });

  // If this failed, a server that fell far behind would miss the changes the log's trim removed and keep searching stale vectors.
  it('reads everything again when the changes it missed may have been trimmed from the log', async () => {
    await nearest(b, 'Fed cuts');
    const before = b.index.blocks.rowsRead;
    // As if SEARCH_BLOCK_CHANGES_KEPT changes had been logged since b last looked: the next change is that far on.
    withConnection(url, (c) => c.run(`ALTER TABLE search_block_changes ALTER COLUMN seq RESTART WITH ${SEARCH_BLOCK_CHANGES_KEPT + 1000}`));
    await a.fs.writeFile('/memory/views/V-004.md', view('V-004', 'Long gilts', 'Gilts rally as the BoE cuts; sterling duration bid.'), pm);
    expect((await nearest(b, 'gilts rally BoE sterling duration'))[0]).toBe('V-004');
    // Every note's vector was read again (four notes, as patches), not only the one changed.
    expect(b.index.blocks.rowsRead - before).toBeGreaterThanOrEqual(4);
  });

  // If this failed, the desk's log of vector changes would grow by a row per note saved, forever.
  it('keeps the change log to its last SEARCH_BLOCK_CHANGES_KEPT changes', async () => {
    const seqs = () => withConnection(url, (c) => c.query<{ seq: string }>('SELECT seq FROM search_block_changes ORDER BY seq').map((r) => Number(r.seq)));
    const logged = seqs();
    expect(logged.length).toBeGreaterThanOrEqual(3);
    const oldest = logged[0] as number;
    // The next change is numbered so that the oldest one falls out of the window kept.
    withConnection(url, (c) => c.run(`ALTER TABLE search_block_changes ALTER COLUMN seq RESTART WITH ${oldest + SEARCH_BLOCK_CHANGES_KEPT}`));
    await a.fs.writeFile('/memory/views/V-004.md', view('V-004', 'Long gilts', 'Gilts rally as the BoE cuts; sterling duration bid.'), pm);
    const after = seqs();
    expect(after).not.toContain(oldest);
    expect(after).toContain(logged[logged.length - 1]);
    expect(Math.max(...after)).toBeGreaterThanOrEqual(oldest + SEARCH_BLOCK_CHANGES_KEPT);
  });

  // If this failed, a desk made before the change log would stop seeing other servers' notes (or fail to search at all).
  it('keeps a desk made before the change log current by reloading, as before', async () => {
    a.store.close();
    b.store.close();
    const old = workspaces.freshUrl();
    withConnection(old, (c) =>
      c.transaction(() => {
        c.run('DROP TRIGGER search_blocks_log_change ON search_blocks');
        c.run('DROP TRIGGER search_slot_patches_log_change ON search_slot_patches');
        c.run('DROP FUNCTION forge_log_search_block_change()');
        c.run('DROP TABLE search_block_changes');
      }),
    );
    a = server(openDeskStore(old));
    b = server(openDeskStore(old));
    for (const [id, content] of NOTES) await a.fs.writeFile(`/memory/views/${id}.md`, content, pm);
    expect((await nearest(b, 'copper China credit'))[0]).toBe('V-002');
    await a.fs.writeFile('/memory/views/V-004.md', view('V-004', 'Long gilts', 'Gilts rally as the BoE cuts; sterling duration bid.'), pm);
    expect((await nearest(b, 'gilts rally BoE sterling duration'))[0]).toBe('V-004');
    await a.fs.deleteFile('/memory/views/V-004.md', pm);
    expect(await nearest(b, 'gilts rally BoE sterling duration')).not.toContain('V-004');
  });
});
