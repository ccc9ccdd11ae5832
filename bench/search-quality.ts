/**
 * Search quality on the labelled evaluation set (resources/eval/): nDCG@10 and recall@20 for
 * keyword-only (FTS5 BM25), vector-only (local embedder, bit scan + float rescoring) and hybrid
 * (fusion of both). Grades are by construction (see resources/eval/generate.ts).
 *
 * Relevance in the set does not depend on dates, so the three are compared on the semantic score
 * alone (recency weight 0); hybrid with the default 0.7/0.3 recency blend is printed for reference.
 *
 *   npm run bench -- search-quality [--fusion rrf|score]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ForgeFS } from '../src-main/fs';
import { Store } from '../src-main/store';
import { HashNgramEmbedder, SearchIndex, type FusionMethod, type SearchRequest } from '../src-main/search';
import { report, round } from './_stats';

interface EvalNote {
  id: string;
  category: string;
  title: string;
  header: Record<string, string | number>;
  body: string;
  date: string;
}
interface EvalQuery {
  id: string;
  query: string;
  scope: string;
  relevance: Record<string, number>;
}

const root = join(import.meta.dirname ?? '.', '..', 'resources', 'eval');
const notes = JSON.parse(readFileSync(join(root, 'notes.json'), 'utf8')) as EvalNote[];
const queries = JSON.parse(readFileSync(join(root, 'queries.json'), 'utf8')) as EvalQuery[];
const fusionArg = process.argv.indexOf('--fusion');
const fusion = (fusionArg > 0 ? process.argv[fusionArg + 1] : undefined) as FusionMethod | undefined;
const shareArg = process.argv.indexOf('--share');
const vectorShare = shareArg > 0 ? Number(process.argv[shareArg + 1]) : undefined;
const tuning = { ...(fusion ? { fusion } : {}), ...(vectorShare !== undefined ? { vectorShare } : {}) };

const dir = mkdtempSync(join(tmpdir(), 'forge-search-quality-'));
const store = Store.open(join(dir, 'forge.db'));
const index = new SearchIndex(store.db, new HashNgramEmbedder());
let clock = '';
const fs = new ForgeFS({ store, skillsDir: join(dir, 'skills'), indexer: index, now: () => clock });
for (const n of notes) {
  clock = `${n.date}T12:00:00.000Z`;
  const header = Object.entries(n.header)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
  await fs.writeFile(`/memory/${n.category}/${n.id}.md`, `# ${n.id} — ${n.title}\n${header}\n---\n${n.body}\n`, { actor: 'pm' });
}
const now = new Date('2026-06-01T00:00:00Z');

function ndcg(ranked: string[], rel: Record<string, number>, k: number): number {
  const gain = (g: number) => 2 ** g - 1;
  const dcg = ranked.slice(0, k).reduce((s, id, i) => s + gain(rel[id] ?? 0) / Math.log2(i + 2), 0);
  const ideal = Object.values(rel)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((s, g, i) => s + gain(g) / Math.log2(i + 2), 0);
  return ideal ? dcg / ideal : 0;
}
function recall(ranked: string[], rel: Record<string, number>, k: number): number {
  // Relevant = same subtopic (grade ≥ 2).
  const relevant = Object.entries(rel)
    .filter(([, g]) => g >= 2)
    .map(([id]) => id);
  if (!relevant.length) return 0;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}

async function evaluate(extra: Partial<SearchRequest>) {
  let n10 = 0,
    r20 = 0;
  for (const q of queries) {
    const res = await index.search({ scope: q.scope, query: q.query, maxResults: 20, now, weights: { semantic: 1, recency: 0 }, ...extra, tuning });
    const ids = res.results.map((x) => x.id);
    n10 += ndcg(ids, q.relevance, 10);
    r20 += recall(ids, q.relevance, 20);
  }
  return { ndcg10: n10 / queries.length, recall20: r20 / queries.length };
}

const keyword = await evaluate({ mode: 'keyword' });
const vector = await evaluate({ mode: 'vector' });
const hybrid = await evaluate({ mode: 'hybrid' });
const hybridRecency = await evaluate({ mode: 'hybrid', weights: { semantic: 0.7, recency: 0.3 } });
store.close();
rmSync(dir, { recursive: true, force: true });

console.log(
  `${notes.length} notes, ${queries.length} queries, embedder ${index.embedder.id}, fusion ${fusion ?? 'default'}${vectorShare !== undefined ? ` vectorShare ${vectorShare}` : ''}`,
);
for (const [name, m] of Object.entries({ keyword, vector, hybrid, 'hybrid + recency 0.3': hybridRecency })) {
  console.log(`${name.padEnd(22)} nDCG@10 ${m.ndcg10.toFixed(3)}  recall@20 ${m.recall20.toFixed(3)}`);
}
report({
  bench: 'search-quality',
  notes: notes.length,
  queries: queries.length,
  keyword_ndcg10: round(keyword.ndcg10),
  vector_ndcg10: round(vector.ndcg10),
  hybrid_ndcg10: round(hybrid.ndcg10),
  keyword_recall20: round(keyword.recall20),
  vector_recall20: round(vector.recall20),
  hybrid_recall20: round(hybrid.recall20),
  hybrid_with_recency_ndcg10: round(hybridRecency.ndcg10),
  ratio: round(hybrid.ndcg10 / Math.max(keyword.ndcg10, vector.ndcg10)),
});
