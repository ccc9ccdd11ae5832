/**
 * Memory search at scale, on two generated corpora: the template macro notes of `_macro-notes`
 * (N notes, default 100,000) and the cross-topic PM notes of `_pm-notes` (min(N, 100,000) unless
 * --n2). Each is written through the store's own write path and the search index's own batch
 * writer into a real workspace database, then:
 *
 * - hybrid queries with a scope and a status filter are timed against sqlite-vec float brute force
 *   over the same scopes and filters (the ratio);
 * - recall@10 of the fast vector path (SimHash scan + int8 rescoring) is measured against exact
 *   float cosine KNN (sqlite-vec `vec0` float tables, in a database file of their own attached
 *   beside the workspace), scoped+filtered and unscoped. A result tied
 *   with the 10th exact neighbour (same cosine to 1e-6: duplicate notes) counts as found, as in
 *   ann-benchmarks;
 * - unscoped keyword-only queries (2–6 words) are timed;
 * - the real `reindex` rebuilds the index, timed with the embedding time taken out and reported on
 *   its own line;
 * - the store is closed and reopened and the first query is timed (cold start);
 * - the index's bytes per note are read from `dbstat` (search_* and memory_fts* tables).
 *
 *   npm run bench -- search [--n 100000] [--n2 100000] [--queries 200] [--seed 1]
 *
 * --seed draws other corpora and queries than the default ones, which the candidate and budget
 * settings were tuned on: its figures are the untuned ones.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as sqliteVec from 'sqlite-vec';
import { Store } from '../src-main/store';
import { plainRecord } from '../src-main/store/testing';
import { DEFAULT_TUNING, type Embedder, HashNgramEmbedder, reindex, SearchIndex, tokenize, writeEntryBatch } from '../src-main/search';
import { buildKeywordIndex, keywordRankingStatus } from '../src-main/search/keyword-index';
import { keywordCandidates } from '../src-main/search/keywords';
import { type BenchNote, makeNote, makeQuery, rng } from './_macro-notes';
import { makePmNote, makePmQuery } from './_pm-notes';
import { median, percentile, report, round, timeRuns } from './_stats';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const N = arg('n', 100_000);
const N2 = arg('n2', Math.min(N, 100_000));
const Q = arg('queries', 200);
/** 0: the default corpora and queries (the ones the tuning saw); any other value draws fresh ones. */
const SEED = arg('seed', 0);
const seeded = (dflt: number) => (SEED ? SEED * 7919 + dflt : dflt);
const SCOPES = ['/memory/', '/memory/observations/', '/memory/views/', '/memory/pk/'];
const NOW = Date.parse('2026-06-01T00:00:00Z');
const buf = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
const log = (s: string) => process.stderr.write(`${s}\n`);

/** The hashed embedder, with the time spent embedding counted apart. */
class TimedEmbedder implements Embedder {
  ms = 0;
  notes = 0;
  readonly inner = new HashNgramEmbedder(384);
  readonly id = this.inner.id;
  readonly dims = this.inner.dims;
  async embed(texts: string[]): Promise<Float32Array[]> {
    const t0 = performance.now();
    const out = await this.inner.embed(texts);
    this.ms += performance.now() - t0;
    this.notes += texts.length;
    return out;
  }
  embedOne(text: string): Float32Array {
    return this.inner.embedOne(text);
  }
}

/**
 * The baselines' float tables live in their own database file, attached: a workspace holds only what
 * Forge writes, so the import's commits never checkpoint the baselines' pages and the first query
 * after reopening reads a file laid out as a user's would be.
 */
function attachBaseline(db: Store['db'], dir: string): void {
  // The app no longer loads sqlite-vec (it is a dev dependency, this baseline's only user).
  sqliteVec.load(db);
  db.prepare('ATTACH DATABASE ? AS baseline').run(join(dir, 'baseline.db'));
  db.pragma('baseline.journal_mode = WAL');
}

interface Corpus {
  name: string;
  dir: string;
  dbPath: string;
  store: Store;
  index: SearchIndex;
  embedder: TimedEmbedder;
  importMs: number;
  n: number;
  /** Building the in-memory keyword index from the whole memory (what the app does once at start, in the background). */
  keywordIndexBuildMs: number;
}

/** Writes `n` notes: records (with FTS, by triggers) and index entries in one transaction per batch, plus the float baseline tables. */
async function build(name: string, n: number, make: (r: () => number) => BenchNote, seed: number): Promise<Corpus> {
  const dir = mkdtempSync(join(tmpdir(), `forge-bench-search-${name}-`));
  const dbPath = join(dir, 'forge.db');
  const store = Store.open(dbPath);
  const db = store.db;
  const embedder = new TimedEmbedder();
  const index = new SearchIndex(db, embedder);
  attachBaseline(db, dir);
  db.exec(`CREATE VIRTUAL TABLE baseline.bench_float USING vec0(embedding float[384])`);
  db.exec(`CREATE VIRTUAL TABLE baseline.bench_exact USING vec0(category text partition key, status text, embedding float[384])`);
  const insFloat = db.prepare('INSERT INTO bench_float (rowid, embedding) VALUES (?, ?)');
  const insExact = db.prepare('INSERT INTO bench_exact (rowid, category, status, embedding) VALUES (?, ?, ?, ?)');
  const r = rng(seed);
  const counters: Record<string, number> = {};
  let importMs = 0;
  const BATCH = 1000;
  for (let start = 0; start < n; start += BATCH) {
    const notes = Array.from({ length: Math.min(BATCH, n - start) }, () => make(r));
    const rows = notes.map((x) => {
      const num = (counters[x.category] ?? 0) + 1;
      counters[x.category] = num;
      const id = `${x.category.slice(0, 2).toUpperCase()}-${String(num).padStart(7, '0')}`;
      const at = new Date(NOW - x.daysAgo * 86_400_000).toISOString();
      return { ...x, id, at, content: `# ${id} — ${x.title}\nstatus: ${x.status}\nsource: bench\n---\n${x.body}\n` };
    });
    const vectors = await embedder.embed(rows.map((x) => x.content));
    const t0 = performance.now();
    const indexed = store.writeTransaction(() => {
      const indexed = rows.map((x) => {
        const { rid } = store.records.upsert(plainRecord({ ...x, header: JSON.stringify({ status: x.status, source: 'bench' }), contentHash: String(start) }));
        return { rid, category: x.category, status: x.status, updated_at: x.at };
      });
      writeEntryBatch(db, embedder.id, indexed, vectors, index.quantizer);
      return indexed;
    });
    importMs += performance.now() - t0;
    // The baselines' own tables are bench scaffolding, not part of an import: written apart, untimed, to their own file.
    store.writeTransaction(() =>
      indexed.forEach((x, i) => {
        insFloat.run(BigInt(x.rid), buf(vectors[i]));
        insExact.run(BigInt(x.rid), x.category, x.status, buf(vectors[i]));
      }),
    );
    if ((start / BATCH) % 20 === 0) log(`  ${name}: built ${start + notes.length}/${n}`);
  }
  index.blocks.invalidate();
  const k0 = performance.now();
  buildKeywordIndex(db);
  const keywordIndexBuildMs = performance.now() - k0;
  log(`  ${name}: keyword index built in ${keywordIndexBuildMs.toFixed(0)} ms`);
  return { name, dir, dbPath, store, index, embedder, importMs, n, keywordIndexBuildMs };
}

/** Record ids of a search's results (ids → rids). */
function ridsOf(c: Corpus, ids: string[]): number[] {
  return (c.store.db.prepare('SELECT rid FROM memory_records WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as { rid: number }[]).map(
    (x) => x.rid,
  );
}

interface Query {
  query: string;
  scope: string;
  filters: string | null;
}

/** Tie-aware recall@10 of the fast vector path against exact float KNN (vec0 float tables). */
async function recallAt10(c: Corpus, queries: Query[]): Promise<number> {
  const db = c.store.db;
  const exactAll = db.prepare('SELECT rowid, distance FROM bench_float WHERE embedding MATCH ? AND k = 10');
  const exactStatus = db.prepare('SELECT rowid, distance FROM bench_exact WHERE embedding MATCH ? AND k = 10 AND status = ?');
  const exactCat = db.prepare('SELECT rowid, distance FROM bench_exact WHERE embedding MATCH ? AND k = 10 AND category = ? AND status = ?');
  const vecOf = db.prepare('SELECT embedding FROM bench_float WHERE rowid = ?');
  let hits = 0;
  let total = 0;
  for (const q of queries) {
    const qv = c.embedder.embedOne(q.query);
    const cat = q.scope.split('/')[2] || null;
    const status = q.filters ? /^status:(\w+)$/.exec(q.filters)?.[1] : null;
    const exact = (!status ? exactAll.all(buf(qv)) : cat ? exactCat.all(buf(qv), cat, status) : exactStatus.all(buf(qv), status)) as {
      rowid: number;
      distance: number;
    }[];
    if (!exact.length) continue;
    const fast = await c.index.search({ ...q, maxResults: 10, mode: 'vector', weights: { semantic: 1, recency: 0 } });
    const got = ridsOf(
      c,
      fast.results.map((x) => x.id),
    );
    const exactIds = new Set(exact.map((e) => Number(e.rowid)));
    // vec0's float distance is L2; on unit vectors cosine = 1 − d²/2.
    const cos10 = 1 - exact[exact.length - 1].distance ** 2 / 2;
    let found = 0;
    for (const rid of got) {
      if (exactIds.has(rid)) found++;
      else {
        const v = new Float32Array(new Uint8Array((vecOf.get(BigInt(rid)) as { embedding: Buffer }).embedding).buffer);
        let cos = 0;
        for (let j = 0; j < v.length; j++) cos += v[j] * qv[j];
        if (cos >= cos10 - 1e-6) found++;
      }
    }
    hits += Math.min(found, exact.length);
    total += exact.length;
  }
  return total ? hits / total : 0;
}

function indexBytes(c: Corpus): number {
  const rows = c.store.db
    .prepare(`SELECT sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'search\\_%' ESCAPE '\\' OR name LIKE 'memory\\_fts%' ESCAPE '\\'`)
    .get() as { bytes: number };
  return rows.bytes;
}

/**
 * What touching memory for the first time costs on this machine, in ms per MB (median of 5 fresh
 * 32 MB arrays). The first query copies the vector blocks out of SQLite into the scan's arrays:
 * twice their size in fresh memory, a cost set by the operating system (on this sandbox ~10× a
 * desktop's), so the bench reports it beside the cold figure.
 */
function freshMemoryMsPerMb(): number {
  const runs = Array.from({ length: 5 }, () => {
    const t0 = performance.now();
    new Uint8Array(32 << 20).fill(1);
    return (performance.now() - t0) / 32;
  });
  return median(runs);
}

/** Bytes of the vector blocks (what the first query reads into memory). */
const blockBytes = (c: Corpus): number =>
  (
    c.store.db
      .prepare(
        'SELECT coalesce(sum(length(rids) + length(labels) + length(days) + length(codes) + length(vectors) + length(norms)), 0) AS b FROM search_blocks',
      )
      .get() as { b: number }
  ).b;

/** Closes and reopens the workspace database, then times the first query (the blocks load inside it). */
async function coldStart(c: Corpus, q: Query): Promise<{ openMs: number; firstMs: number; warmP50: number; freshMsPerMb: number; blockMb: number }> {
  const freshMsPerMb = freshMemoryMsPerMb();
  const blockMb = blockBytes(c) / 2 ** 20;
  c.store.close();
  const t0 = performance.now();
  c.store = Store.open(c.dbPath);
  c.index = new SearchIndex(c.store.db, c.embedder);
  const t1 = performance.now();
  await c.index.search({ ...q, maxResults: 10, now: new Date(NOW) });
  const firstMs = performance.now() - t1;
  attachBaseline(c.store.db, c.dir);
  // What the app does at start (search-index warmInBackground): the queries below see a warmed index.
  const k0 = performance.now();
  buildKeywordIndex(c.store.db);
  c.keywordIndexBuildMs = Math.max(c.keywordIndexBuildMs, performance.now() - k0);
  const warm = await timeRuns(30, () => c.index.search({ ...q, maxResults: 10, now: new Date(NOW) }), 0);
  return { openMs: t1 - t0, firstMs, warmP50: median(warm), freshMsPerMb, blockMb };
}

async function measure(c: Corpus, makeQ: (r: () => number) => string, seed: number) {
  const qr = rng(seed);
  const scoped: Query[] = Array.from({ length: Q }, (_, i) => ({ query: makeQ(qr), scope: SCOPES[i % SCOPES.length], filters: 'status:active' }));
  const unscoped: Query[] = Array.from({ length: Q }, () => ({ query: makeQ(qr), scope: '/memory/', filters: null }));
  const now = new Date(NOW);

  const cold = await coldStart(c, scoped[0]);
  const db = c.store.db;
  const hybrid = await timeRuns(Q, (i) => c.index.search({ ...scoped[i], maxResults: 10, now }));
  const keyword = await timeRuns(Q, (i) => c.index.search({ ...unscoped[i], maxResults: 10, mode: 'keyword', now }));
  // The same queries ranked by FTS5's own bm25() (what runs while the in-memory index is built at start).
  const keywordFts5 = await timeRuns(Q, (i) => c.index.search({ ...unscoped[i], maxResults: 10, mode: 'keyword', now, tuning: { keywordRanker: 'fts5' } }));
  // How much of FTS5's exact BM25 top 10 the index returns (1: all of it), and the largest score difference.
  let same = 0;
  let maxScoreDiff = 0;
  const weights = DEFAULT_TUNING.fieldWeights;
  for (const q of unscoped) {
    const words = tokenize(q.query);
    const fast = keywordCandidates(db, words, { limit: 10, fieldWeights: weights });
    const exact = keywordCandidates(db, words, { limit: 10, fieldWeights: weights, ranker: 'fts5' });
    const ids = new Set(exact.map((x) => x.rid));
    same += exact.length ? fast.filter((x) => ids.has(x.rid)).length / exact.length : 1;
    fast.forEach((h, i) => {
      if (exact[i]?.rid === h.rid) maxScoreDiff = Math.max(maxScoreDiff, Math.abs(h.score - exact[i].score));
    });
  }
  const keywordExact = same / unscoped.length;
  const unscopedHybrid = await timeRuns(Q, (i) => c.index.search({ ...unscoped[i], maxResults: 10, now }));

  // The baseline: exact float KNN with each query's own scope (category partition) and status filter.
  const exactAll = db.prepare('SELECT rowid FROM bench_exact WHERE embedding MATCH ? AND k = 10 AND status = ?');
  const exactCat = db.prepare('SELECT rowid FROM bench_exact WHERE embedding MATCH ? AND k = 10 AND category = ? AND status = ?');
  const baseline = await timeRuns(Q, (i) => {
    const q = scoped[i];
    const qv = buf(c.embedder.embedOne(q.query));
    const cat = q.scope.split('/')[2] || null;
    return cat ? exactCat.all(qv, cat, 'active') : exactAll.all(qv, 'active');
  });

  const recallScoped = await recallAt10(c, scoped);
  const recallUnscoped = await recallAt10(c, unscoped);

  // The real rebuild (what switching embedders runs), with the embedding time counted apart.
  c.embedder.ms = 0;
  c.embedder.notes = 0;
  const t0 = performance.now();
  await reindex(db, c.embedder, undefined, undefined, c.index.quantizer);
  const rebuildMs = performance.now() - t0;
  c.index.blocks.invalidate();
  const bytes = indexBytes(c);

  const f = {
    notes: c.n,
    p50: median(hybrid),
    p95: percentile(hybrid, 95),
    baselineP50: median(baseline),
    unscopedHybridP50: median(unscopedHybrid),
    keywordP50: median(keyword),
    keywordFts5P50: median(keywordFts5),
    keywordExact,
    maxScoreDiff,
    keywordIndexBuildMs: c.keywordIndexBuildMs,
    recallScoped,
    recallUnscoped,
    buildPerS: c.n / ((rebuildMs - c.embedder.ms) / 1000),
    embedPerS: c.embedder.notes / (c.embedder.ms / 1000),
    importPerS: c.n / (c.importMs / 1000),
    bytesPerNote: bytes / c.n,
    ...cold,
  };
  console.log(`— ${c.name} corpus: ${c.n} notes, ${Q} queries per set`);
  console.log(
    `  hybrid (scope + status:active) p50 ${f.p50.toFixed(2)} ms, p95 ${f.p95.toFixed(2)} ms; unscoped hybrid p50 ${f.unscopedHybridP50.toFixed(2)} ms`,
  );
  console.log(
    `  baseline: sqlite-vec float brute force, same scopes and filter, p50 ${f.baselineP50.toFixed(2)} ms; ratio ${(f.baselineP50 / f.p50).toFixed(2)}`,
  );
  console.log(
    `  keyword-only, unscoped, 2–6 words: p50 ${f.keywordP50.toFixed(2)} ms (FTS5 bm25() ranking ${f.keywordFts5P50.toFixed(2)} ms); share of FTS5's exact BM25 top 10 returned ${keywordExact.toFixed(3)}, largest score difference ${maxScoreDiff.toExponential(1)}`,
  );
  console.log(`  recall@10 vs exact cosine: scoped+filtered ${recallScoped.toFixed(3)}, unscoped ${recallUnscoped.toFixed(3)}`);
  console.log(`  rebuild (reindex) ${f.buildPerS.toFixed(0)} notes/s with embedding excluded`);
  console.log(`  embedding (${c.embedder.id}) ${f.embedPerS.toFixed(0)} notes/s, on its own`);
  console.log(`  import (records + full-text + index, embedding excluded; the baselines' tables in their own file) ${f.importPerS.toFixed(0)} notes/s`);
  console.log(`  cold start: open ${cold.openMs.toFixed(0)} ms, first query ${cold.firstMs.toFixed(1)} ms (warm p50 ${cold.warmP50.toFixed(2)} ms)`);
  console.log(
    `  fresh memory on this machine: ${cold.freshMsPerMb.toFixed(2)} ms per MB; the first query reads ${cold.blockMb.toFixed(0)} MB of vector blocks, ~${(2 * cold.blockMb * cold.freshMsPerMb).toFixed(0)} ms of it touching fresh memory (the SQLite copy and the scan's arrays)`,
  );
  console.log(`  index size ${(bytes / 1e6).toFixed(1)} MB, ${f.bytesPerNote.toFixed(0)} bytes per note (search_* + memory_fts*)`);
  return f;
}

const macro = await build('macro', N, makeNote, seeded(42));
const m = await measure(macro, makeQuery, seeded(7));
const keywordRanking = keywordRankingStatus(macro.store.db);
console.log(`  keyword ranking: ${keywordRanking}`);
macro.store.close();
rmSync(macro.dir, { recursive: true, force: true });
const pm = await build('pm', N2, makePmNote, seeded(20261123));
const p = await measure(pm, makePmQuery, seeded(11));
pm.store.close();
rmSync(pm.dir, { recursive: true, force: true });

const r2 = (x: number) => round(x, 2);
report({
  bench: 'search',
  notes: N,
  seed: SEED,
  p50_ms: r2(m.p50),
  p95_ms: r2(m.p95),
  baseline_p50_ms: r2(m.baselineP50),
  ratio: r2(m.baselineP50 / m.p50),
  recall_at_10: round(m.recallScoped, 3),
  recall_at_10_scoped: round(Math.min(m.recallScoped, p.recallScoped), 3),
  recall_at_10_unscoped: round(Math.min(m.recallUnscoped, p.recallUnscoped), 3),
  recall_at_10_pm_scoped: round(p.recallScoped, 3),
  recall_at_10_pm_unscoped: round(p.recallUnscoped, 3),
  keyword_p50_ms_unscoped: r2(Math.max(m.keywordP50, p.keywordP50)),
  keyword_ranking: keywordRanking,
  keyword_p50_ms_unscoped_fts5_bm25: r2(Math.max(m.keywordFts5P50, p.keywordFts5P50)),
  keyword_top10_vs_exact: round(Math.min(m.keywordExact, p.keywordExact), 3),
  keyword_max_score_diff: Math.max(m.maxScoreDiff, p.maxScoreDiff),
  keyword_ratio_vs_fts5: r2(Math.min(m.keywordFts5P50 / m.keywordP50, p.keywordFts5P50 / p.keywordP50)),
  keyword_index_build_ms: Math.round(Math.max(m.keywordIndexBuildMs, p.keywordIndexBuildMs)),
  // The worse corpus, as for recall and the keyword p50: a target is met on both or not at all.
  cold_first_query_ms: r2(Math.max(m.firstMs, p.firstMs)),
  cold_open_ms: r2(Math.max(m.openMs, p.openMs)),
  // What this machine charges for touching fresh memory, and the share of the first query that is (see freshMemoryMsPerMb).
  fresh_memory_ms_per_mb: r2(m.freshMsPerMb),
  cold_fresh_memory_ms: r2(Math.max(2 * m.blockMb * m.freshMsPerMb, 2 * p.blockMb * p.freshMsPerMb)),
  bytes_per_note: Math.round(Math.max(m.bytesPerNote, p.bytesPerNote)),
  build_notes_per_s: Math.round(Math.min(m.buildPerS, p.buildPerS)),
  embed_notes_per_s: Math.round(m.embedPerS),
  import_notes_per_s: Math.round(Math.min(m.importPerS, p.importPerS)),
  pm_notes: N2,
  pm_p50_ms: r2(p.p50),
});
