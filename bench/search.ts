/**
 * Hybrid memory search at scale: builds N (default 100,000) short macro notes in a real workspace
 * database (the store's own open + migrations, the search index's own write path), then times
 * hybrid queries (scope + status filter) against sqlite-vec float brute force on the same data,
 * queries, scopes and filters (the ratio), and measures recall@10 of the fast vector path against
 * that exact float KNN. Unfiltered float brute force is reported too, as a figure for reference.
 *
 *   npm run bench -- search [--n 100000] [--queries 200]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../src-main/store';
import { HashNgramEmbedder, SearchIndex, writeEntry } from '../src-main/search';
import { median, percentile, report, round, timeRuns } from './_stats';
import { makeNote, makeQuery, rng } from './_macro-notes';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const N = arg('n', 100_000);
const Q = arg('queries', 200);

const dir = mkdtempSync(join(tmpdir(), 'forge-bench-search-'));
// --db PATH keeps (or reuses) the built database, for repeated query experiments.
const dbArg = process.argv.indexOf('--db');
const dbPath = dbArg > 0 ? process.argv[dbArg + 1] : join(dir, 'forge.db');
const reuse = dbArg > 0 && existsSync(dbPath);
const store = Store.open(dbPath);
const db = store.db;
const embedder = new HashNgramEmbedder(384);
const index = new SearchIndex(db, embedder);
const buf = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

// Baseline tables: plain float brute force, and exact float KNN with the same partition/filter (for recall).
if (!reuse) {
  db.exec(`CREATE VIRTUAL TABLE bench_float USING vec0(embedding float[384])`);
  db.exec(`CREATE VIRTUAL TABLE bench_exact USING vec0(category text partition key, status text, embedding float[384])`);
}

const r = rng(42);
const now = Date.parse('2026-06-01T00:00:00Z');
const counters: Record<string, number> = {};
let buildMs = 0;
const insBase = db.prepare('INSERT INTO bench_float (rowid, embedding) VALUES (?, ?)');
const insExact = db.prepare('INSERT INTO bench_exact (rowid, category, status, embedding) VALUES (?, ?, ?, ?)');
const BATCH = 1000;
for (let start = 0; !reuse && start < N; start += BATCH) {
  const notes = Array.from({ length: Math.min(BATCH, N - start) }, () => makeNote(r));
  const vecs: Float32Array[] = [];
  const rids: number[] = [];
  const t0 = performance.now();
  store.writeTransaction(() => {
    for (const n of notes) {
      const num = (counters[n.category] ?? 0) + 1;
      counters[n.category] = num;
      const id = `${n.category.slice(0, 2).toUpperCase()}-${String(num).padStart(6, '0')}`;
      const at = new Date(now - n.daysAgo * 86_400_000).toISOString();
      const header = { status: n.status, source: 'bench' };
      const content = `# ${id} — ${n.title}\nstatus: ${n.status}\nsource: bench\n---\n${n.body}\n`;
      const { rid } = store.records.upsert({
        category: n.category,
        id,
        title: n.title,
        status: n.status,
        confidence: null,
        weight: null,
        scope: null,
        view_id: null,
        meta: '',
        created_at: at,
        updated_at: at,
        header: JSON.stringify(header),
        body: n.body,
        content_hash: String(start),
      });
      const v = embedder.embedOne(content);
      writeEntry(db, embedder.id, { rid, category: n.category, status: n.status, updated_at: at }, v, index.quantizer);
      vecs.push(v);
      rids.push(rid);
    }
  });
  buildMs += performance.now() - t0;
  db.transaction(() => {
    notes.forEach((n, i) => {
      insBase.run(BigInt(rids[i]), buf(vecs[i]));
      insExact.run(BigInt(rids[i]), n.category, n.status, buf(vecs[i]));
    });
  })();
  if ((start / BATCH) % 20 === 0) process.stderr.write(`  built ${start + notes.length}/${N}\n`);
}
const buildPerS = reuse ? NaN : N / (buildMs / 1000);

let indexBytes = 0;
try {
  const rows = db.prepare(`SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'search_%' OR name LIKE 'memory_fts%' GROUP BY name`).all() as {
    name: string;
    bytes: number;
  }[];
  indexBytes = rows.reduce((s, x) => s + x.bytes, 0);
} catch {
  indexBytes = -1; // dbstat not compiled in
}

const qr = rng(7);
const SCOPES = ['/memory/', '/memory/observations/', '/memory/views/', '/memory/pk/'];
const queries = Array.from({ length: Q }, (_, i) => ({ query: makeQuery(qr), scope: SCOPES[i % SCOPES.length], filters: 'status:active' }));
const qvecs = queries.map((q) => embedder.embedOne(q.query));
const nowDate = new Date(now);

const hybrid = await timeRuns(Q, (i) => index.search({ ...queries[i], maxResults: 10, now: nowDate }));
const kwOnly = await timeRuns(Math.min(Q, 60), (i) => index.search({ ...queries[i], maxResults: 10, mode: 'keyword', now: nowDate }), 5);
const vecOnly = await timeRuns(Math.min(Q, 60), (i) => index.search({ ...queries[i], maxResults: 10, mode: 'vector', now: nowDate }), 5);
console.log(`stages: keyword-only p50 ${median(kwOnly).toFixed(2)} ms, vector-only p50 ${median(vecOnly).toFixed(2)} ms`);
// The same hybrid query with candidates from vec0's own KNN (filters inside sqlite-vec), for comparison.
const viaVec0 = await timeRuns(Math.min(Q, 60), (i) => index.search({ ...queries[i], maxResults: 10, now: nowDate, tuning: { candidateSource: 'vec0' } }), 5);
// Unfiltered float brute force over every note: for reference only, since it answers a different question.
const base = db.prepare('SELECT rowid, distance FROM bench_float WHERE embedding MATCH ? AND k = ?');
const unfiltered = await timeRuns(Q, (i) => base.all(buf(qvecs[i]), 10));

// The baseline: exact float KNN with each query's own scope (category partition) and status filter.
const exactAll = db.prepare('SELECT rowid FROM bench_exact WHERE embedding MATCH ? AND k = 10 AND status = ?');
const exactCat = db.prepare('SELECT rowid FROM bench_exact WHERE embedding MATCH ? AND k = 10 AND category = ? AND status = ?');
const exactFor = (i: number) => {
  const q = queries[i];
  const cat = q.scope.split('/')[2] || null;
  const status = /^status:(\w+)$/.exec(q.filters)?.[1];
  if (!status) throw new Error(`the float baseline only knows status filters, not "${q.filters}"`);
  return (cat ? exactCat.all(buf(qvecs[i]), cat, status) : exactAll.all(buf(qvecs[i]), status)) as { rowid: number }[];
};
const baseline = await timeRuns(Q, exactFor);

// Recall of the fast path's vector stage against that exact KNN.
let hits = 0,
  total = 0;
for (let i = 0; i < Q; i++) {
  const q = queries[i];
  const exact = exactFor(i);
  const fast = await index.search({ ...q, maxResults: 10, mode: 'vector', weights: { semantic: 1, recency: 0 } });
  const fastRids = new Set(
    (
      db.prepare('SELECT rid FROM memory_records WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(fast.results.map((x) => x.id))) as {
        rid: number;
      }[]
    ).map((x) => x.rid),
  );
  for (const e of exact) if (fastRids.has(Number(e.rowid))) hits++;
  total += exact.length;
}
const recall = total ? hits / total : 0;

console.log(`records ${N}, queries ${Q}, scopes ${SCOPES.join(' ')}, filter status:active, max_results 10`);
console.log(`hybrid p50 ${median(hybrid).toFixed(2)} ms, p95 ${percentile(hybrid, 95).toFixed(2)} ms`);
console.log(
  `baseline: float brute force with the same scopes and status filter p50 ${median(baseline).toFixed(2)} ms; ratio (baseline ÷ hybrid) ${(median(baseline) / median(hybrid)).toFixed(2)}`,
);
console.log(`float brute force over every note (no scope, no filter) p50 ${median(unfiltered).toFixed(2)} ms (for reference)`);
console.log(`hybrid with vec0 KNN candidates (partition key + metadata inside sqlite-vec) p50 ${median(viaVec0).toFixed(2)} ms`);
console.log(`recall@10 of the bit-vector + float-rescore path vs exact float KNN: ${recall.toFixed(3)}`);
console.log(`build ${buildPerS.toFixed(0)} records/s; index size ${(indexBytes / 1e6).toFixed(1)} MB (search_* + memory_fts)`);
store.close();
rmSync(dir, { recursive: true, force: true });
report({
  bench: 'search',
  p50_ms: round(median(hybrid), 2),
  p95_ms: round(percentile(hybrid, 95), 2),
  baseline_p50_ms: round(median(baseline), 2),
  ratio: round(median(baseline) / median(hybrid), 2),
  recall_at_10: round(recall, 3),
  build_per_s: Math.round(buildPerS),
  index_bytes: indexBytes,
  unfiltered_baseline_p50_ms: round(median(unfiltered), 2),
});
