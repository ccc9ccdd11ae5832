/**
 * Search quality: nDCG@10 and recall@20 for keyword-only (FTS5 BM25), vector-only and hybrid search
 * on three sets of graded queries —
 *   1. the tuning split of resources/eval/ (the fusion is chosen here, and only here),
 *   2. its held-out split (other topics; resources/eval/splits.json states the rule),
 *   3. a public IR collection nobody here tuned on (Cranfield 1400 or a BEIR set; see
 *      resources/eval/README.md for how to fetch one), read from --collection or FORGE_IR_COLLECTION.
 * The fusion is chosen on the tuning split as the best nDCG@10 among the candidates (score fusion at
 * each vector share, and RRF) whose recall@20 is not below keyword-only's. Relevance does not depend
 * on dates, so every run ranks on the semantic score alone (recency weight 0).
 *
 *   npm run bench -- search-quality [--collection DIR] [--model-dir DIR] [--fusion rrf|score --share X] [--prf]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ForgeFS } from '../src-main/fs';
import {
  DEFAULT_TUNING,
  type Embedder,
  type FusionMethod,
  HashNgramEmbedder,
  LocalModelEmbedder,
  MINILM_MANIFEST,
  modelInFolder,
  SearchIndex,
  type SearchRequest,
  type SearchTuning,
} from '../src-main/search';
import { Store } from '../src-main/store';
import { type IrCollection, loadIrCollection, ndcgAt, recallAt } from './_ir-collection';
import { report, round } from './_stats';

interface Doc {
  id: string;
  category: string;
  title: string;
  header: Record<string, string | number>;
  body: string;
  date: string;
}
interface Judged {
  id: string;
  query: string;
  scope: string;
  relevance: Record<string, number>;
}
interface Corpus {
  name: string;
  docs: Doc[];
  queries: Judged[];
  /** Gain from which a document counts as relevant for recall. */
  recallMinGain: number;
}
type Mode = NonNullable<SearchRequest['mode']>;
interface Fusion {
  fusion: FusionMethod;
  vectorShare: number;
}
interface Figures {
  queries: number;
  keyword_ndcg10: number;
  vector_ndcg10: number;
  hybrid_ndcg10: number;
  keyword_recall20: number;
  vector_recall20: number;
  hybrid_recall20: number;
}

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const forcedFusion = arg('--fusion') as FusionMethod | undefined;
const forcedShare = arg('--share') !== undefined ? Number(arg('--share')) : undefined;
const collectionDir = arg('--collection') ?? process.env.FORGE_IR_COLLECTION;
const modelDir = arg('--model-dir');
/**
 * `--prf [JSON]`: rows with the keyword options (BM25 field weights, RM3-style feedback) switched on,
 * so they are kept or dropped by measurement. JSON is the SearchTuning override (default {"prf":true});
 * an option SearchTuning does not have yet is reported as not measured.
 */
const prfIndex = process.argv.indexOf('--prf');
const prfJson = prfIndex > 0 && process.argv[prfIndex + 1] && !process.argv[prfIndex + 1].startsWith('--') ? process.argv[prfIndex + 1] : '{"prf":true}';
const prfTuning = prfIndex > 0 ? (JSON.parse(prfJson) as Record<string, unknown>) : null;
const prfMissing = prfTuning ? Object.keys(prfTuning).filter((k) => !(k in DEFAULT_TUNING)) : [];
const prfNote = !prfTuning
  ? null
  : prfMissing.length
    ? `keyword options ${prfJson}: not measured (SearchTuning has no ${prfMissing.join(', ')} option yet)`
    : `keyword options ${prfJson}: measured below`;
const now = new Date('2026-06-01T00:00:00Z');
const TARGET = 'with the semantic model, hybrid nDCG@10 >= 1.05 x keyword on the held-out split and on the public collection';

// ---- the sets --------------------------------------------------------------------------------
const root = join(import.meta.dirname ?? '.', '..', 'resources', 'eval');
const evalDocs = JSON.parse(readFileSync(join(root, 'notes.json'), 'utf8')) as Doc[];
const evalQueries = JSON.parse(readFileSync(join(root, 'queries.json'), 'utf8')) as Judged[];
const splits = JSON.parse(readFileSync(join(root, 'splits.json'), 'utf8')) as Record<'tuning' | 'heldout', { queries: string[] }>;
const split = (name: 'tuning' | 'heldout') => evalQueries.filter((q) => splits[name].queries.includes(q.id));
const inBoth = splits.tuning.queries.filter((id) => splits.heldout.queries.includes(id));
const inNone = evalQueries.filter((q) => !splits.tuning.queries.includes(q.id) && !splits.heldout.queries.includes(q.id));
if (inBoth.length || inNone.length) {
  throw new Error(
    `resources/eval/splits.json must put every query in exactly one split (in both: ${inBoth.join(', ') || '-'}; in none: ${inNone.map((q) => q.id).join(', ') || '-'}).`,
  );
}
// The eval set's recall counts same-subtopic notes (grade >= 2), as generate.ts defines them.
const evalCorpus: Corpus = { name: 'resources/eval', docs: evalDocs, queries: evalQueries, recallMinGain: 2 };

/** A public collection as memory notes: documents become Observations O-001…, judgements follow the ids. */
function asCorpus(c: IrCollection): Corpus {
  const memId = new Map(c.docs.map((d, i) => [d.id, `O-${String(i + 1).padStart(3, '0')}`]));
  const docs = c.docs.map((d) => ({
    id: memId.get(d.id)!,
    category: 'observations',
    // A title is one line; Cranfield's run to a few hundred characters.
    title: (d.title || d.text).replace(/\s+/g, ' ').slice(0, 200).trim(),
    header: { source: c.name },
    body: d.text,
    date: '2026-01-01',
  }));
  const queries = c.queries.map((q) => ({
    id: q.id,
    query: q.text,
    scope: '/memory/',
    relevance: Object.fromEntries(Object.entries(c.qrels.get(q.id) ?? {}).map(([d, g]) => [memId.get(d)!, g])),
  }));
  return { name: c.name, docs, queries, recallMinGain: 1 };
}

let collection: Corpus | null = null;
let collectionNote: string;
if (!collectionDir) {
  collectionNote =
    'public collection: not measured (no --collection DIR or FORGE_IR_COLLECTION given; resources/eval/README.md says how to fetch Cranfield 1400)';
} else {
  try {
    const c = loadIrCollection(collectionDir);
    collection = asCorpus(c);
    collectionNote = `public collection: ${c.name} from ${collectionDir} (${c.docs.length} documents, ${c.queries.length} judged queries; grades: ${c.gradeMapping})`;
  } catch (e) {
    collectionNote = `public collection: not measured (${collectionDir} could not be read: ${(e as Error).message})`;
  }
}

// ---- running a corpus ------------------------------------------------------------------------
interface Run {
  /** Per query (same order as corpus.queries): nDCG@10 and recall@20. */
  perQuery: { ndcg: number; recall: number }[];
}

async function withIndex<T>(
  corpus: Corpus,
  embedder: Embedder,
  fn: (search: (q: Judged, mode: Mode, tuning: Partial<SearchTuning>) => Promise<string[]>) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'forge-search-quality-'));
  const store = Store.open(join(dir, 'forge.db'));
  try {
    const index = new SearchIndex(store.db, embedder);
    let clock = '';
    const fs = new ForgeFS({ store, skillsDir: join(dir, 'skills'), indexer: index, now: () => clock });
    for (const n of corpus.docs) {
      clock = `${n.date}T12:00:00.000Z`;
      const header = Object.entries(n.header)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n');
      await fs.writeFile(`/memory/${n.category}/${n.id}.md`, `# ${n.id} — ${n.title}\n${header}\n---\n${n.body}\n`, { actor: 'pm' });
    }
    return await fn(async (q, mode, tuning) => {
      const res = await index.search({ scope: q.scope, query: q.query, maxResults: 20, now, weights: { semantic: 1, recency: 0 }, mode, tuning });
      return res.results.map((x) => x.id);
    });
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function run(
  corpus: Corpus,
  search: (q: Judged, mode: Mode, tuning: Partial<SearchTuning>) => Promise<string[]>,
  mode: Mode,
  tuning: Partial<SearchTuning>,
): Promise<Run> {
  const perQuery: Run['perQuery'] = [];
  for (const q of corpus.queries) {
    const ids = await search(q, mode, tuning);
    perQuery.push({ ndcg: ndcgAt(ids, q.relevance, 10), recall: recallAt(ids, q.relevance, 20, corpus.recallMinGain) });
  }
  return { perQuery };
}

/** Means over the queries whose ids are in `only` (all when null). */
function mean(corpus: Corpus, r: Run, only: string[] | null): { ndcg10: number; recall20: number; n: number } {
  const picked = r.perQuery.filter((_, i) => !only || only.includes(corpus.queries[i].id));
  const avg = (f: (x: Run['perQuery'][number]) => number) => picked.reduce((s, x) => s + f(x), 0) / Math.max(1, picked.length);
  return { ndcg10: avg((x) => x.ndcg), recall20: avg((x) => x.recall), n: picked.length };
}

function figures(corpus: Corpus, runs: { keyword: Run; vector: Run; hybrid: Run }, only: string[] | null): Figures {
  const k = mean(corpus, runs.keyword, only);
  const v = mean(corpus, runs.vector, only);
  const h = mean(corpus, runs.hybrid, only);
  return {
    queries: k.n,
    keyword_ndcg10: round(k.ndcg10),
    vector_ndcg10: round(v.ndcg10),
    hybrid_ndcg10: round(h.ndcg10),
    keyword_recall20: round(k.recall20),
    vector_recall20: round(v.recall20),
    hybrid_recall20: round(h.recall20),
  };
}

const describe = (f: Fusion) => (f.fusion === 'rrf' ? 'RRF (k 60)' : `score fusion, vector share ${f.vectorShare}`);

/** Every figure for one embedder: the fusion chosen on the tuning split, then measured everywhere. */
/** Choose on the tuning split only: the best nDCG@10 among fusions that keep keyword-only's recall@20. */
function choose(embedderId: string, keyword: Run, hybrids: Map<Fusion, Run>, tuningIds: string[]): Fusion {
  const kw = mean(evalCorpus, keyword, tuningIds);
  console.log(
    `\n[${embedderId}] fusion candidates on the tuning split (${tuningIds.length} queries; keyword nDCG@10 ${kw.ndcg10.toFixed(3)} recall@20 ${kw.recall20.toFixed(3)}):`,
  );
  let chosen: Fusion | null = null;
  let best = -1;
  for (const [c, r] of hybrids) {
    const m = mean(evalCorpus, r, tuningIds);
    const keepsRecall = m.recall20 >= kw.recall20 - 1e-9;
    console.log(
      `  ${describe(c).padEnd(34)} nDCG@10 ${m.ndcg10.toFixed(3)}  recall@20 ${m.recall20.toFixed(3)}${keepsRecall ? '' : '  (below keyword recall: not eligible)'}`,
    );
    if (keepsRecall && m.ndcg10 > best + 1e-9) {
      best = m.ndcg10;
      chosen = c;
    }
  }
  const forced = forcedFusion !== undefined || forcedShare !== undefined;
  const why = forced ? 'forced by flag' : chosen ? 'chosen on the tuning split' : 'no candidate kept keyword recall on the tuning split; the first is reported';
  chosen ??= [...hybrids.keys()][0];
  console.log(`  → ${describe(chosen)} (${why})`);
  return chosen;
}

/** Every figure for one embedder: the fusion chosen on the tuning split, then measured everywhere. */
async function measure(embedder: Embedder) {
  const tuningIds = split('tuning').map((q) => q.id);
  const heldoutIds = split('heldout').map((q) => q.id);
  const candidates: Fusion[] =
    forcedFusion !== undefined || forcedShare !== undefined
      ? [{ fusion: forcedFusion ?? DEFAULT_TUNING.fusion, vectorShare: forcedShare ?? DEFAULT_TUNING.vectorShare }]
      : [
          ...[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7].map((s) => ({ fusion: 'score' as const, vectorShare: s })),
          { fusion: 'rrf', vectorShare: DEFAULT_TUNING.vectorShare },
        ];
  const withPrf = prfTuning && !prfMissing.length ? (prfTuning as Partial<SearchTuning>) : null;

  const onEval = await withIndex(evalCorpus, embedder, async (search) => {
    const keyword = await run(evalCorpus, search, 'keyword', {});
    const vector = await run(evalCorpus, search, 'vector', {});
    const hybrids = new Map<Fusion, Run>();
    for (const c of candidates) hybrids.set(c, await run(evalCorpus, search, 'hybrid', c));
    const chosen = choose(embedder.id, keyword, hybrids, tuningIds);
    const runs = { keyword, vector, hybrid: hybrids.get(chosen)! };
    const prf = withPrf
      ? { keyword: await run(evalCorpus, search, 'keyword', withPrf), vector, hybrid: await run(evalCorpus, search, 'hybrid', { ...chosen, ...withPrf }) }
      : null;
    return { chosen, runs, prf };
  });
  const { chosen } = onEval;
  const onPublic = collection
    ? await withIndex(collection, embedder, async (search) => {
        const c = collection!;
        const vector = await run(c, search, 'vector', {});
        const runs = { keyword: await run(c, search, 'keyword', {}), vector, hybrid: await run(c, search, 'hybrid', chosen) };
        const prf = withPrf
          ? { keyword: await run(c, search, 'keyword', withPrf), vector, hybrid: await run(c, search, 'hybrid', { ...chosen, ...withPrf }) }
          : null;
        return { main: figures(c, runs, null), prf: prf ? figures(c, prf, null) : null };
      })
    : null;
  return {
    embedder: embedder.id,
    fusion: chosen.fusion,
    vector_share: chosen.fusion === 'score' ? chosen.vectorShare : null,
    tuning: figures(evalCorpus, onEval.runs, tuningIds),
    heldout: figures(evalCorpus, onEval.runs, heldoutIds),
    public: onPublic?.main ?? null,
    ...(onEval.prf
      ? {
          with_keyword_options: {
            tuning: figures(evalCorpus, onEval.prf, tuningIds),
            heldout: figures(evalCorpus, onEval.prf, heldoutIds),
            public: onPublic?.prf ?? null,
          },
        }
      : {}),
  };
}

function print(m: Awaited<ReturnType<typeof measure>>) {
  const rows: [string, Figures | null][] = [
    ['tuning split', m.tuning],
    ['held-out split', m.heldout],
    [collection?.name ?? 'public collection', m.public],
  ];
  console.log(`[${m.embedder}] ${m.fusion === 'rrf' ? 'RRF' : `score fusion, vector share ${m.vector_share}`}`);
  const opts = m.with_keyword_options;
  if (opts) rows.push(['tuning + options', opts.tuning], ['held-out + options', opts.heldout], [`${collection?.name ?? 'public'} + options`, opts.public]);
  for (const [name, f] of rows) {
    if (!f) continue;
    console.log(
      `  ${name.padEnd(26)} ${String(f.queries).padStart(3)} q  nDCG@10 keyword ${f.keyword_ndcg10.toFixed(3)} vector ${f.vector_ndcg10.toFixed(3)} hybrid ${f.hybrid_ndcg10.toFixed(3)}` +
        `  recall@20 keyword ${f.keyword_recall20.toFixed(3)} hybrid ${f.hybrid_recall20.toFixed(3)}${f.hybrid_recall20 < f.keyword_recall20 ? '  HYBRID RECALL BELOW KEYWORD' : ''}`,
    );
  }
}

// ---- the semantic model, when a folder with its weights is given -----------------------------
async function semanticEmbedder(): Promise<{ embedder: Embedder | null; why: string }> {
  if (!modelDir) return { embedder: null, why: 'no --model-dir given (model weights cannot be downloaded on this machine)' };
  try {
    // The folder's own pooling, prompts and size (any sentence-transformers ONNX export, not only MiniLM).
    const embedder = new LocalModelEmbedder(modelInFolder(modelDir));
    await embedder.embed(['a probe sentence']);
    return { embedder, why: '' };
  } catch (e) {
    return { embedder: null, why: `the model in ${modelDir} did not load: ${(e as Error).message.replace(/\.$/, '')}` };
  }
}

console.log(
  `resources/eval: ${evalDocs.length} notes, ${evalQueries.length} queries (tuning ${splits.tuning.queries.length}, held-out ${splits.heldout.queries.length})`,
);
console.log(collectionNote);
if (prfNote) console.log(prfNote);
const hashed = await measure(new HashNgramEmbedder());
const sem = await semanticEmbedder();
const semantic = sem.embedder ? await measure(sem.embedder) : null;
if (sem.embedder instanceof LocalModelEmbedder) await sem.embedder.close();

console.log('');
print(hashed);
if (semantic) print(semantic);
else console.log(`semantic model (${MINILM_MANIFEST.name}): not measured — ${sem.why}; its figures are left null, not estimated.`);
const recallHeld = [hashed, ...(semantic ? [semantic] : [])].every((m) =>
  [m.tuning, m.heldout, m.public].every((f) => !f || f.hybrid_recall20 >= f.keyword_recall20),
);
console.log(`hybrid recall@20 >= keyword-only on every set measured: ${recallHeld ? 'yes' : 'NO'}`);
console.log(`target: ${TARGET}${semantic ? '' : ' (unmeasured here: no semantic model)'}`);

report({
  bench: 'search-quality',
  ...hashed,
  public_collection: collection?.name ?? null,
  ...(collection ? {} : { public_unmeasured: collectionNote }),
  semantic,
  ...(semantic ? {} : { semantic_unmeasured: sem.why }),
  hybrid_recall_at_least_keyword: recallHeld,
  target: TARGET,
  // Held-out only (the tuning split chose the fusion, so its figure flatters it); the semantic model's when it ran.
  ratio_embedder: (semantic ?? hashed).embedder,
  ratio: round((semantic ?? hashed).heldout.hybrid_ndcg10 / (semantic ?? hashed).heldout.keyword_ndcg10),
});
