import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ForgeFS } from '../../fs';
import { ResearchIndex } from '../../providers/research';
import { type Embedder, HashNgramEmbedder, type ReindexProgress, SearchIndex } from '../../search';
import type { Store } from '../../store';
import { openDeskStore } from '../../store/postgres/desk-store';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from '../../store/postgres/test-workspaces';
import type { EventMessage } from '../../api';
import { passageEmbedder } from '../research';
import { main } from '../cli';
import { tempCore } from '../testing';

const pm = { actor: 'pm' as const };
const view = (id: string, title: string, body: string) =>
  `# ${id} — ${title}\nstatus: active\nconfidence: 0.6\nscope: global rates\n---\n## SUMMARY\n${body}\n`;
const NOTES: [string, string][] = [
  ['/memory/views/V-001.md', view('V-001', 'Curve steepener into Fed cuts', 'The Fed cuts twice; 2s10s steepens as front-end yields fall.')],
  ['/memory/views/V-002.md', view('V-002', 'Long copper on China stimulus', 'LME inventories falling while Chinese credit impulse turns up.')],
  ['/memory/views/V-003.md', view('V-003', 'Yen carry unwind', 'BoJ hikes; yen carry positioning is crowded and unwinds.')],
];
const BROKER_NOTE = '# Rates strategy weekly\n\n## Swaps\nWe recommend receiving 5y swaps into the December meeting as inflation cools.\n';

/** The hash embedder under another name (same size): vectors it made read as another model's. */
class Renamed implements Embedder {
  readonly inner: HashNgramEmbedder;
  calls = 0;
  constructor(
    readonly id: string,
    readonly dims: number,
    private readonly onCall: (n: number) => void = () => {},
  ) {
    this.inner = new HashNgramEmbedder(dims);
  }
  async embed(texts: string[]): Promise<Float32Array[]> {
    this.onCall(++this.calls);
    return this.inner.embed(texts);
  }
}

/** The broker-notes folder searched with memory and re-embedded by the rebuild, as the host wires it (host/research.ts). */
function attachBrokerNotes(index: SearchIndex, store: Store, folder: string): ResearchIndex {
  const research = new ResearchIndex(store.db, folder, { embedder: passageEmbedder(() => index) });
  index.attachResearch({
    enabled: () => true,
    sync: () => research.sync(),
    generation: () => research.vectors.generation,
    reembed: (onProgress, signal) => research.reembed(onProgress, signal),
  });
  return research;
}

const count = (store: Store, sql: string, ...args: unknown[]) => Number((store.db.prepare(sql).get(...args) as { n: number | string }).n);

/**
 * Settings → Search → Rebuild on a desk (issue #30): the rebuild of memory's vectors and the broker
 * notes' passages runs on the desk's PostgreSQL as on a PM's SQLite file. Before, the passages'
 * re-embedding asked PostgreSQL for FTS5's `rowid` and the PM saw "column rowid does not exist".
 */
describe.skipIf(skipWithoutPostgres())("search rebuild on a desk's PostgreSQL", { timeout: 180_000 }, () => {
  let workspaces: PostgresWorkspaces;
  beforeAll(async () => {
    workspaces = await startPostgresWorkspaces();
  }, 120_000);
  afterAll(async () => {
    await workspaces?.stop();
  });

  describe('the search index over a desk store, with broker notes attached', () => {
    let dir: string;
    let store: Store;
    let index: SearchIndex;
    let research: ResearchIndex;

    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), 'forge-desk-reindex-'));
      store = workspaces.freshStore();
      index = new SearchIndex(store.db, new HashNgramEmbedder(384));
      const fs = new ForgeFS({ store, skillsDir: join(dir, 'skills'), indexer: index });
      for (const [path, content] of NOTES) await fs.writeFile(path, content, pm);
      mkdirSync(join(dir, 'research'));
      writeFileSync(join(dir, 'research', 'rates-weekly.md'), BROKER_NOTE);
      research = attachBrokerNotes(index, store, join(dir, 'research'));
      await research.sync();
    });
    afterEach(() => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('rebuilds every note and passage with a new embedder, and search by meaning finds them (else the PM sees a 500 and stale search)', async () => {
      const passages = index.status().passages;
      expect(passages).toBeGreaterThan(0);
      // A model of another size: every vector is stale until the rebuild.
      index.useEmbedder(new HashNgramEmbedder(256));
      expect(index.status()).toMatchObject({ stale: true, indexed: 0, passagesIndexed: 0 });

      const seen: ReindexProgress[] = [];
      const done = await index.reindex((p) => seen.push(p));
      expect(done).toEqual({ done: NOTES.length + passages, total: NOTES.length + passages, embedder: 'hash-ngram-256', passages });
      expect(seen.at(-1)).toEqual(done);
      expect(index.status()).toMatchObject({ stale: false, indexed: NOTES.length, records: NOTES.length, passagesIndexed: passages, queued: 0, parked: 0 });

      const byMeaning = await index.search({ scope: '/memory/', query: 'copper inventories China credit', mode: 'vector', maxResults: 3 });
      expect(byMeaning.degraded).toBeNull();
      expect(byMeaning.results[0]).toMatchObject({ path: '/memory/views/V-002.md' });
      expect(byMeaning.results[0].vector).toBeGreaterThan(byMeaning.results[1]?.vector ?? 0);
      const passage = await index.search({ scope: '/research/', query: 'receiving 5y swaps December', mode: 'vector', maxResults: 1 });
      expect(passage.results[0]).toMatchObject({ path: '/research/rates-weekly.md' });
      expect(passage.results[0].vector).toBeGreaterThan(0.3);
    });

    it('a rebuild cancelled midway fails as `cancelled`, keeps every note and vector, and the next rebuild finishes (else a stop loses search)', async () => {
      const passages = index.status().passages;
      const stop = new AbortController();
      // Stopped while the first batch is being embedded: memory's batch is written, the passages are not reached.
      index.useEmbedder(new Renamed('other-384', 384, () => stop.abort()));
      await expect(index.reindex(undefined, stop.signal)).rejects.toMatchObject({ code: 'cancelled' });

      expect(count(store, 'SELECT count(*) AS n FROM memory_records')).toBe(NOTES.length);
      // Every note still has one vector, every passage still its own (made by the model before).
      expect(count(store, 'SELECT count(*) AS n FROM search_entries')).toBe(NOTES.length);
      expect(count(store, 'SELECT count(*) AS n FROM research_passage_vectors')).toBe(passages);
      expect(index.status()).toMatchObject({ stale: true, indexed: NOTES.length, passagesIndexed: 0 });
      const keyword = await index.search({ scope: '/memory/', query: 'yen carry', mode: 'keyword', maxResults: 1 });
      expect(keyword.results[0]).toMatchObject({ path: '/memory/views/V-003.md' });

      // Stopped inside the passages' re-embedding (the second call): it too reports `cancelled`.
      const again = new AbortController();
      index.useEmbedder(new Renamed('third-384', 384, (n) => n === 2 && again.abort()));
      await expect(index.reindex(undefined, again.signal)).rejects.toMatchObject({ code: 'cancelled' });
      expect(count(store, 'SELECT count(*) AS n FROM research_passage_vectors')).toBe(passages);

      const done = await index.reindex();
      expect(done.done).toBe(NOTES.length + passages);
      expect(index.status()).toMatchObject({ stale: false, indexed: NOTES.length, passagesIndexed: passages });
    });

    it("finds a broker note's passage by its words on a desk when no ranking by meaning is at hand (fetch research's fallback; before, FTS5's MATCH was refused)", () => {
      const hits = research.search('receiving "5y swaps" December', { limit: 3 });
      expect(hits[0]).toMatchObject({ note: 'rates-weekly.md', section: 'Swaps', title: 'Rates strategy weekly' });
      expect(hits[0].text).toContain('receiving 5y swaps');
      expect(research.search('receiving swaps', { limit: 3, notes: ['other.md'] })).toEqual([]);
      expect(research.search('the of', { limit: 3 })).toEqual([]);
    });

    it('a note the model cannot embed is queued, parked after repeated rebuilds, listed, and Retry gives it its vector (else it never gets one on a desk)', async () => {
      // The model refuses one note (not an outage: the rebuild goes on without it).
      const refusing = new Renamed('picky-384', 384);
      const embed = refusing.embed.bind(refusing);
      refusing.embed = async (texts) => {
        if (texts.some((t) => t.includes('Yen carry'))) throw new Error('input rejected by the model');
        return embed(texts);
      };
      index.useEmbedder(refusing);
      for (let i = 0; i < 3; i++) expect((await index.reindex()).done).toBe(NOTES.length + index.status().passages);
      const parked = index.status();
      expect(parked).toMatchObject({ parked: 1, queued: 0, indexed: NOTES.length - 1 });
      expect(parked.parkedNotes).toEqual([expect.objectContaining({ id: 'V-003', attempts: 3, lastError: 'input rejected by the model' })]);

      expect(index.retryParked()).toBe(1);
      expect(index.status()).toMatchObject({ parked: 0, queued: 1 });
      // The model (same name) accepts it now: the queue's next pass gives it its vector.
      index.useEmbedder(new Renamed('picky-384', 384));
      expect(await index.drainQueue()).toEqual({ indexed: 1, remaining: 0 });
      expect(index.status()).toMatchObject({ stale: false, indexed: NOTES.length, queued: 0, parked: 0 });
    });
  });

  it("a rebuild on one server reaches another server's search by meaning (else the desk's other servers search stale vectors)", async () => {
    const url = workspaces.freshUrl();
    const dir = mkdtempSync(join(tmpdir(), 'forge-desk-reindex-two-'));
    const [storeA, storeB] = [openDeskStore(url), openDeskStore(url)];
    try {
      const a = new SearchIndex(storeA.db, new HashNgramEmbedder(384));
      const fs = new ForgeFS({ store: storeA, skillsDir: join(dir, 'skills'), indexer: a });
      for (const [path, content] of NOTES) await fs.writeFile(path, content, pm);
      const b = new SearchIndex(storeB.db, new HashNgramEmbedder(384));
      // Both servers read the desk's broker notes from one shared folder.
      mkdirSync(join(dir, 'research'));
      writeFileSync(join(dir, 'research', 'rates-weekly.md'), BROKER_NOTE);
      await attachBrokerNotes(a, storeA, join(dir, 'research')).sync();
      attachBrokerNotes(b, storeB, join(dir, 'research'));
      const passageByMeaning = async (index: SearchIndex) =>
        (await index.search({ scope: '/research/', query: 'receiving 5y swaps December', mode: 'vector', maxResults: 1 })).results;
      expect((await passageByMeaning(b))[0]).toMatchObject({ path: '/research/rates-weekly.md' });
      const byMeaning = async (index: SearchIndex) =>
        (await index.search({ scope: '/memory/', query: 'copper inventories China credit', mode: 'vector', maxResults: 3 })).results;
      expect((await byMeaning(b))[0]).toMatchObject({ path: '/memory/views/V-002.md' });

      // The desk moves to a model of another size: A rebuilds, B follows the same setting.
      a.useEmbedder(new HashNgramEmbedder(256));
      b.useEmbedder(new HashNgramEmbedder(256));
      await a.reindex();
      const hits = await byMeaning(b);
      expect(hits[0]).toMatchObject({ path: '/memory/views/V-002.md' });
      expect(hits[0].vector).toBeGreaterThan(hits[1]?.vector ?? 0);
      const passage = await passageByMeaning(b);
      expect(passage[0]).toMatchObject({ path: '/research/rates-weekly.md' });
      expect(passage[0].vector).toBeGreaterThan(0.3);
      expect(b.status()).toMatchObject({ stale: false, indexed: NOTES.length, passagesIndexed: b.status().passages });
    } finally {
      storeA.close();
      storeB.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a rebuild on a server with no broker notes in its folder keeps the desk's broker notes (else it would delete every colleague's)", async () => {
    const url = workspaces.freshUrl();
    const dir = mkdtempSync(join(tmpdir(), 'forge-desk-reindex-nofolder-'));
    const [storeA, storeB] = [openDeskStore(url), openDeskStore(url)];
    try {
      mkdirSync(join(dir, 'research'));
      writeFileSync(join(dir, 'research', 'rates-weekly.md'), BROKER_NOTE);
      const a = new SearchIndex(storeA.db, new HashNgramEmbedder(384));
      await attachBrokerNotes(a, storeA, join(dir, 'research')).sync();
      const passages = a.status().passages;
      expect(passages).toBeGreaterThan(0);

      // Server B has its own empty folder, as every server makes at first start (the shared one is not mounted there).
      mkdirSync(join(dir, 'empty-on-b'));
      const b = new SearchIndex(storeB.db, new HashNgramEmbedder(256));
      attachBrokerNotes(b, storeB, join(dir, 'empty-on-b'));
      expect((await b.reindex()).passages).toBe(passages);
      expect(count(storeB, 'SELECT count(*) AS n FROM research_notes')).toBe(1);
      expect(b.status()).toMatchObject({ passages, passagesIndexed: passages });
      const hit = await b.search({ scope: '/research/', query: 'receiving 5y swaps December', mode: 'vector', maxResults: 1 });
      expect(hit.results[0]).toMatchObject({ path: '/research/rates-weekly.md' });
    } finally {
      storeA.close();
      storeB.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("Settings → Search's procedures answer on a desk server: status, rebuild with progress, retry parked, switch embedder, cancel", async () => {
    const t = tempCore({}, { database: workspaces.freshUrl() });
    try {
      const { core } = t;
      mkdirSync(join(t.dataDir, 'research'), { recursive: true });
      writeFileSync(join(t.dataDir, 'research', 'rates-weekly.md'), BROKER_NOTE);
      await core.context.memory.ready;
      const ok = <T>(r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T => {
        if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
        return r.value;
      };
      // Through the API a new View is written as views/new.md (its id is given on the way in).
      for (const [, content] of NOTES) ok(await core.invoke('memory/write', { path: '/memory/views/new.md', content }));
      const status = ok(await core.invoke('search/status', {}));
      expect(status.records).toBe(NOTES.length);

      const progress: ReindexProgress[] = [];
      const off = core.context.events.subscribe((m: EventMessage) => {
        if (m.event === 'search/reindex-progress') progress.push(m.payload as ReindexProgress);
      });
      const rebuilt = ok(await core.invoke('search/reindex', {}));
      off();
      expect(rebuilt.passages).toBeGreaterThan(0);
      expect(rebuilt.done).toBe(NOTES.length + (rebuilt.passages ?? 0));
      expect(rebuilt.total).toBe(rebuilt.done);
      expect(progress.at(-1)).toMatchObject({ done: rebuilt.done, total: rebuilt.total });
      expect(ok(await core.invoke('search/status', {}))).toMatchObject({
        stale: false,
        indexed: NOTES.length,
        passages: rebuilt.passages,
        passagesIndexed: rebuilt.passages,
      });

      expect(ok(await core.invoke('search/retry-parked', {}))).toEqual({ retried: 0 });
      expect(ok(await core.invoke('search/reindex-cancel', {}))).toEqual({ cancelled: false });
      expect(ok(await core.invoke('search/embedder', { embedder: 'hash' }))).toMatchObject({ choice: 'hash', active: 'hash-ngram-384' });
      const hits = ok(await core.invoke('memory/search', { query: 'copper inventories China credit', scope: '/memory/' })).results;
      expect(hits[0]?.title).toBe('Long copper on China stimulus');
    } finally {
      await t.dispose();
    }
  });

  it("forge reindex --db rebuilds the desk's index and says so (before, --db was refused and only a local file could be rebuilt)", async () => {
    const url = workspaces.freshUrl();
    const writer = tempCore({}, { database: url });
    await writer.core.context.memory.ready;
    for (const [, content] of NOTES) expect((await writer.core.invoke('memory/write', { path: '/memory/views/new.md', content })).ok).toBe(true);
    await writer.dispose();

    const dir = mkdtempSync(join(tmpdir(), 'forge-desk-reindex-cli-'));
    const out: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
    const err = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
    try {
      expect(await main(['reindex', '--data', dir, '--db', url])).toBe(0);
    } finally {
      log.mockRestore();
      err.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(out[0]).toMatch(/^Rebuilding the search index of postgres:\/\/.*a desk's PostgreSQL/);
    expect(out.at(-1)).toBe(`Search index rebuilt: ${NOTES.length} notes with hash-ngram-384.`);
  });
});
