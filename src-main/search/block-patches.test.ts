import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ForgeFS } from '../fs';
import { Store } from '../store';
import { BLOCK_SLOTS, BlockIndex, PATCHES_PER_BLOCK } from './block-store';
import { HashNgramEmbedder } from './hash-embedder';
import { Quantizer } from './quantizer';
import { SearchIndex } from './search-index';

/**
 * A single memory write stores its vector as one slot's patch (search_slot_patches) instead of
 * rewriting the note's 256-slot block. These tests hold the patched index to the whole-block one:
 * same notes, same scan, through rollbacks, folds, deletes, reopening and upgrades.
 */
let dir: string;
const pm = { actor: 'pm' as const };
const e = new HashNgramEmbedder();
const TOPICS = ['Bund curve steepener', 'USDJPY carry unwind', 'copper inventories draw', 'EM local rates', 'HY spreads widen', 'Fed cuts priced'];
const WORDS = ['supply', 'positioning', 'inflation', 'payrolls', 'liquidity', 'volatility', 'auction', 'carry'];
const note = (id: string, i: number) =>
  `# ${id} — ${TOPICS[i % TOPICS.length]} ${i}\nstatus: ${i % 3 ? 'active' : 'closed'}\n---\n${WORDS[i % 8]} and ${WORDS[(i * 5) % 8]} drive ${TOPICS[(i * 7) % 6]}; note ${i}.\n`;
const QUERIES = ['copper supply draw', 'carry unwind yen', 'Fed cuts inflation', 'spreads widen liquidity', 'curve steepener auction'];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-patches-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function open(name: string, options: { wholeBlockWrites?: boolean } = {}) {
  const store = Store.open(join(dir, name));
  const index = new SearchIndex(store.db, e, options);
  const fs = new ForgeFS({ store, skillsDir: join(dir, 'skills'), indexer: index, now: () => '2026-05-01T12:00:00.000Z' });
  return { store, index, fs };
}

/** Every query's nearest slots (as record ids) and their cosines, under two filters: what vector search ranks from. */
function scan(blocks: BlockIndex): unknown[] {
  const q = new Quantizer(e.dims);
  return QUERIES.flatMap((text) => {
    const v = e.embedOne(text);
    return [null, 'active'].map((status) => {
      const slots = blocks.nearest(q.encode(v), 40, { category: null, status, sinceDay: null, allowed: null, embedder: e.id });
      return blocks
        .scoreSlots(v, slots)
        .map(([rid, cos]) => [rid, Math.round(cos * 1e6)])
        .sort((a, b) => a[0] - b[0]);
    });
  });
}

/** Creates n notes, rewrites every third, deletes every seventh, then creates a few more (reusing freed slots). */
async function churn(fs: ForgeFS, n: number): Promise<void> {
  for (let i = 1; i <= n; i++) await fs.writeFile(`/memory/observations/O-${i}.md`, note(`O-${i}`, i), pm);
  for (let i = 3; i <= n; i += 3) await fs.writeFile(`/memory/observations/O-${i}.md`, note(`O-${i}`, i * 11), pm);
  for (let i = 7; i <= n; i += 7) await fs.deleteFile(`/memory/observations/O-${i}.md`, pm);
  for (let i = n + 1; i <= n + 10; i++) await fs.writeFile(`/memory/observations/O-${i}.md`, note(`O-${i}`, i), pm);
}

const count = (store: Store, table: string) => (store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('single writes patch one slot', () => {
  it('a write, a rewrite and a delete neither read nor write a search_blocks row, and the note is found at once', async () => {
    // If this fails, every note the PM saves costs a ~120 KB block read and rewrite again.
    const { store, index, fs } = open('a.db');
    // 100 single writes: the first block is folded once (past PATCHES_PER_BLOCK) and holds the rest as patches.
    for (let i = 1; i <= 100; i++) await fs.writeFile(`/memory/observations/O-${i}.md`, note(`O-${i}`, i), pm);
    expect(count(store, 'search_blocks')).toBe(1);
    expect(count(store, 'search_slot_patches')).toBe(100 - PATCHES_PER_BLOCK - 1);
    index.warm();
    // Now watch the block: a trigger counts writes, a wrapper on prepare sees every statement.
    store.db.exec(`
      CREATE TEMP TABLE block_writes (n INTEGER);
      INSERT INTO block_writes VALUES (0);
      CREATE TEMP TRIGGER bw_u AFTER UPDATE ON search_blocks BEGIN UPDATE block_writes SET n = n + 1; END;
      CREATE TEMP TRIGGER bw_i AFTER INSERT ON search_blocks BEGIN UPDATE block_writes SET n = n + 1; END;
      CREATE TEMP TRIGGER bw_d AFTER DELETE ON search_blocks BEGIN UPDATE block_writes SET n = n + 1; END;
    `);
    const sqls: string[] = [];
    const prepare = store.db.prepare.bind(store.db);
    (store.db as { prepare: (sql: string) => unknown }).prepare = (sql: string) => {
      sqls.push(sql);
      return prepare(sql);
    };
    await fs.writeFile('/memory/observations/O-101.md', '# O-101 — Henry Hub storage surprise\nstatus: active\n---\nGas storage drew hard.\n', pm);
    await fs.writeFile('/memory/observations/O-5.md', '# O-5 — Lithium glut deepens\nstatus: active\n---\nSpodumene prices slide.\n', pm);
    await fs.deleteFile('/memory/observations/O-9.md', pm);
    expect(sqls.filter((s) => /search_blocks/.test(s))).toEqual([]);
    expect(store.db.prepare('SELECT n FROM block_writes').get()).toEqual({ n: 0 });
    // Found at once, from the patches alone (the in-memory index reads the patched slots, not their block).
    const found = async (q: string) => (await index.search({ query: q, mode: 'vector', maxResults: 50 })).results.map((r) => r.id);
    expect((await found('gas storage drew'))[0]).toBe('O-101');
    expect((await found('lithium spodumene glut'))[0]).toBe('O-5');
    expect(await found('note 9')).not.toContain('O-9');
    expect(sqls.filter((s) => /FROM search_blocks/.test(s))).toEqual([]);
    expect(index.blocks.size()).toBe(100);
    store.close();
  });

  it('patches give the same scan as whole-block writes, live and after reopening, across folds, deletes and slot reuse', async () => {
    // If this fails, a note's meaning search depends on which way it was written.
    const n = BLOCK_SLOTS + PATCHES_PER_BLOCK + 20;
    const patched = open('patched.db');
    const whole = open('whole.db', { wholeBlockWrites: true });
    await churn(patched.fs, n);
    await churn(whole.fs, n);
    // The patched index folded its full blocks (no block holds more than the limit) and kept the rest as patches.
    const perBlock = patched.store.db.prepare('SELECT slot >> 8 AS b, count(*) AS n FROM search_slot_patches GROUP BY b').all() as { n: number }[];
    expect(perBlock.length).toBeGreaterThan(0);
    expect(Math.max(...perBlock.map((r) => r.n))).toBeLessThanOrEqual(PATCHES_PER_BLOCK);
    expect(count(patched.store, 'search_blocks')).toBeGreaterThan(0);
    expect(count(whole.store, 'search_slot_patches')).toBe(0);
    // Same slots for the same notes (deleted slots were reused the same way).
    const slots = (s: Store) => s.db.prepare('SELECT rid, slot FROM search_entries ORDER BY rid').all();
    expect(slots(patched.store)).toEqual(slots(whole.store));
    expect(count(patched.store, 'search_free_slots')).toBe(count(whole.store, 'search_free_slots'));
    const expected = scan(whole.index.blocks);
    expect(scan(patched.index.blocks)).toEqual(expected);
    expect(scan(new BlockIndex(patched.store.db))).toEqual(expected);
    expect(scan(new BlockIndex(patched.store.db, { simd: false }))).toEqual(expected);
    expect(patched.index.blocks.size()).toBe(whole.index.blocks.size());
    // Stepwise warm (the app's start) reads blocks and their patches alike.
    const stepped = new BlockIndex(patched.store.db, { warmStepBlocks: 1 });
    await stepped.warmInSteps(async () => {});
    expect(scan(stepped)).toEqual(expected);
    // A rebuild (batched, whole blocks) folds every patch in and answers the same.
    await patched.index.reindex();
    expect(count(patched.store, 'search_slot_patches')).toBe(0);
    expect(scan(new BlockIndex(patched.store.db))).toEqual(expected);
    patched.store.close();
    whole.store.close();
  }, 120_000);

  it("a deleted note's slot is freed by a patch and reused by the next note", async () => {
    // If this fails, deleted notes come back in search, or a churning workspace grows without end.
    const { store, index, fs } = open('a.db');
    for (let i = 1; i <= 5; i++) await fs.writeFile(`/memory/observations/O-${i}.md`, note(`O-${i}`, i), pm);
    const slotOf = (id: string) =>
      (store.db.prepare('SELECT e.slot FROM search_entries e JOIN memory_records r USING (rid) WHERE r.id = ?').get(id) as { slot: number }).slot;
    const freed = slotOf('O-3');
    await fs.deleteFile('/memory/observations/O-3.md', pm);
    expect(store.db.prepare('SELECT rid FROM search_slot_patches WHERE slot = ?').get(freed)).toEqual({ rid: 0 });
    expect(new BlockIndex(store.db).size()).toBe(4);
    await fs.writeFile('/memory/observations/O-6.md', '# O-6 — Copper squeeze\nstatus: active\n---\nLME stocks fell.\n', pm);
    expect(slotOf('O-6')).toBe(freed);
    expect((await index.search({ query: 'copper squeeze LME', mode: 'vector' })).results[0].id).toBe('O-6');
    const reopened = new SearchIndex(store.db, e);
    expect((await reopened.search({ query: 'copper squeeze LME', mode: 'vector' })).results[0].id).toBe('O-6');
    expect(reopened.blocks.size()).toBe(5);
    store.close();
  });

  it('a rolled-back write leaves the patches, the blocks and the in-memory index as they were', async () => {
    // If this fails, a write the PM saw fail still shows up in search (or hides the note it replaced).
    const { store, index, fs } = open('a.db');
    for (let i = 1; i <= 6; i++) await fs.writeFile(`/memory/observations/O-${i}.md`, note(`O-${i}`, i), pm);
    const before = scan(index.blocks);
    const rows = () => store.db.prepare('SELECT * FROM search_slot_patches ORDER BY slot').all();
    const patches = rows();
    await expect(
      fs.transaction((tx) => {
        tx.writeFile('/memory/observations/O-2.md', '# O-2 — Lithium glut\nstatus: active\n---\nSpodumene slides.\n', pm);
        tx.writeFile('/memory/observations/new.md', '# new — Gas storage\nstatus: active\n---\nHenry Hub draw.\n', pm);
        tx.deleteFile('/memory/observations/O-4.md', pm);
        throw new Error('PM cancelled');
      }),
    ).rejects.toThrow('PM cancelled');
    expect(rows()).toEqual(patches);
    expect(scan(index.blocks)).toEqual(before);
    expect(scan(new BlockIndex(store.db))).toEqual(before);
    expect(index.blocks.size()).toBe(6);
    store.close();
  });
});

describe('on disk', () => {
  it('a process killed in the middle of a write loses no committed note and leaves no half-written one', async () => {
    // If this fails, a crash (power cut, force quit) mid-save loses notes saved before it or leaves a ghost.
    const path = join(dir, 'crash.db');
    const root = join(__dirname, '..', '..');
    const script = `
      const { Store } = await import(${JSON.stringify(join(root, 'src-main/store/index.ts'))});
      const { ForgeFS } = await import(${JSON.stringify(join(root, 'src-main/fs/index.ts'))});
      const { SearchIndex, HashNgramEmbedder } = await import(${JSON.stringify(join(root, 'src-main/search/index.ts'))});
      const store = Store.open(${JSON.stringify(path)});
      const fs = new ForgeFS({ store, skillsDir: ${JSON.stringify(join(dir, 'skills'))}, indexer: new SearchIndex(store.db, new HashNgramEmbedder()) });
      for (let i = 1; i <= 30; i++) await fs.writeFile('/memory/observations/O-' + i + '.md', '# O-' + i + ' — Routine note ' + i + '\\nstatus: active\\n---\\nBody ' + i + '.\\n', { actor: 'pm' });
      await fs.writeFile('/memory/observations/O-31.md', '# O-31 — Copper squeeze\\nstatus: active\\n---\\nLME stocks fell.\\n', { actor: 'pm' });
      await fs.transaction((tx) => {
        tx.writeFile('/memory/observations/O-32.md', '# O-32 — Henry Hub storage surprise\\nstatus: active\\n---\\nGas drew.\\n', { actor: 'pm' });
        tx.deleteFile('/memory/observations/O-31.md', { actor: 'pm' });
        process.kill(process.pid, 'SIGKILL');
      });
    `;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(r.signal, r.stderr).toBe('SIGKILL');
    const store = Store.open(path);
    const index = new SearchIndex(store.db, e);
    expect(index.blocks.size()).toBe(31);
    const ids = async (q: string) => (await index.search({ query: q, mode: 'vector', maxResults: 40 })).results.map((x) => x.id);
    expect((await ids('copper squeeze LME'))[0]).toBe('O-31');
    expect(await ids('Henry Hub gas storage')).not.toContain('O-32');
    expect(count(store, 'search_slot_patches')).toBeGreaterThan(0);
    store.close();
  }, 90_000);

  it('a database written before patches (schema 17, whole blocks) opens and searches unchanged', async () => {
    // If this fails, upgrading Forge changes (or empties) the PM's meaning search until a rebuild.
    const old = open('old.db', { wholeBlockWrites: true });
    await churn(old.fs, 60);
    const before = scan(old.index.blocks);
    const answers = async (index: SearchIndex) => {
      const out = [];
      for (const q of QUERIES) out.push((await index.search({ query: q, mode: 'vector', maxResults: 10 })).results.map((x) => x.id));
      return out;
    };
    const beforeAnswers = await answers(old.index);
    // Back to the previous version's schema: no patch table, user_version 17.
    old.store.db.exec('DROP TABLE search_slot_patches');
    old.store.db.pragma('user_version = 17');
    old.store.close();
    const upgraded = open('old.db');
    expect(upgraded.store.db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(18);
    expect(scan(upgraded.index.blocks)).toEqual(before);
    expect(await answers(upgraded.index)).toEqual(beforeAnswers);
    // And it takes single writes as patches from then on.
    await upgraded.fs.writeFile('/memory/observations/O-500.md', '# O-500 — Copper squeeze\nstatus: active\n---\nLME stocks fell.\n', pm);
    expect(count(upgraded.store, 'search_slot_patches')).toBe(1);
    upgraded.store.close();
  });
});
