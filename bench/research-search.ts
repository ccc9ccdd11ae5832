/**
 * Hybrid search over broker-note passages at the size of a research folder: writes notes holding
 * N (default 5,000) passages to a temp folder, indexes them with the research index's own sync
 * (the local embedder injected, as the host does), then times hybrid passage search (brute-force
 * float cosine over every passage vector in scope + bm25) against bm25 alone on the same queries
 * (the ratio: baseline ÷ hybrid, below 1 means the vector scan costs that much).
 *
 *   npm run bench -- research-search [--n 5000] [--queries 200]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResearchIndex } from '../src-main/providers/research';
import { HashNgramEmbedder, PassageVectorCache, searchPassages, tokenize } from '../src-main/search';
import { Store } from '../src-main/store';
import { makeNote, makeQuery, rng } from './_macro-notes';
import { median, percentile, report, round, timeRuns } from './_stats';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const N = arg('n', 5000);
const Q = arg('queries', 200);
const PER_NOTE = 10;

const dir = mkdtempSync(join(tmpdir(), 'forge-bench-research-'));
const notes = join(dir, 'research');
mkdirSync(notes);
const r = rng(7);
// One passage per section: a passage never spans two markdown sections.
for (let n = 0; n < Math.ceil(N / PER_NOTE); n++) {
  const day = new Date(Date.UTC(2024, 0, 1) + Math.floor(r() * 700) * 86_400_000).toISOString().slice(0, 10);
  const sections = Array.from({ length: PER_NOTE }, (_, s) => {
    const note = makeNote(r);
    return `## ${note.title} ${s + 1}\n\n${note.body}`;
  });
  writeFileSync(join(notes, `note-${String(n).padStart(4, '0')}.md`), ['---', `date: ${day}`, '---', `# Broker note ${n}`, '', ...sections].join('\n\n'));
}

const store = Store.open(join(dir, 'forge.db'));
const embedder = new HashNgramEmbedder(384);
const index = new ResearchIndex(store.db, notes, { embedder });
const t0 = performance.now();
await index.sync();
const buildMs = performance.now() - t0;
const { passages, embedded } = index.vectors.counts();
// What every search pays first: bringing the index up to date when nothing changed.
const idleSync = await timeRuns(30, () => index.sync(), 3);

const queries = Array.from({ length: Q }, () => makeQuery(r));
const qvs = queries.map((q) => embedder.embedOne(q));
const base = {
  embedderId: embedder.id,
  limit: 10,
  weights: { semantic: 0.7, recency: 0.3 },
  vectorShare: 0.3,
  keywordCandidates: 60,
  vectorCandidates: 200,
  now: new Date('2026-01-05T00:00:00Z'),
  generation: 0,
};
// As the search index runs it: the passage vectors kept in memory between searches (reloaded after a write).
const cache = new PassageVectorCache();
const hybrid = await timeRuns(Q, (i) => searchPassages(store.db, { ...base, words: tokenize(queries[i]!), queryVector: qvs[i]!, mode: 'hybrid' }, cache));
// Without the copy: every search reads the vectors from SQLite (what a search right after a write costs).
const uncached = await timeRuns(Math.min(Q, 50), (i) =>
  searchPassages(store.db, { ...base, words: tokenize(queries[i]!), queryVector: qvs[i]!, mode: 'hybrid' }),
);
const keyword = await timeRuns(Q, (i) => searchPassages(store.db, { ...base, words: tokenize(queries[i]!), queryVector: null, mode: 'keyword' }));
// A retrospective scope: notes dated on or before mid-range.
const asOf = await timeRuns(Q, (i) =>
  searchPassages(store.db, { ...base, words: tokenize(queries[i]!), queryVector: qvs[i]!, mode: 'hybrid', asOf: '2024-12-31' }, cache),
);

console.log(`${passages} passages (${embedded} embedded) from ${Math.ceil(N / PER_NOTE)} notes; sync with embedding ${(buildMs / 1000).toFixed(1)} s`);
console.log(`hybrid passage search p50 ${median(hybrid).toFixed(2)} ms, p95 ${percentile(hybrid, 95).toFixed(2)} ms over ${Q} queries`);
console.log(`bm25 alone p50 ${median(keyword).toFixed(2)} ms; hybrid with asOf p50 ${median(asOf).toFixed(2)} ms`);
console.log(`sync with nothing changed (run before every research search) p50 ${median(idleSync).toFixed(2)} ms`);
console.log(`hybrid reading the vectors from SQLite each time (first search after a write) p50 ${median(uncached).toFixed(2)} ms`);
store.close();
rmSync(dir, { recursive: true, force: true });
report({
  bench: 'research-search',
  passages,
  p50_ms: round(median(hybrid), 2),
  p95_ms: round(percentile(hybrid, 95), 2),
  baseline_p50_ms: round(median(keyword), 2),
  ratio: round(median(keyword) / median(hybrid), 2),
  as_of_p50_ms: round(median(asOf), 2),
  uncached_p50_ms: round(median(uncached), 2),
  sync_s: round(buildMs / 1000, 1),
  idle_sync_p50_ms: round(median(idleSync), 2),
});
