import { areWhole, type FieldWeights, idf, termScore, weightedFrequency } from './bm25';

/** A document's tokens per column (title, header, body), as fts5Tokens returns them. */
export type DocumentColumns = readonly [readonly string[], readonly string[], readonly string[]];

/**
 * Exact BM25 of every document holding a query term, over a small set held only for one query
 * (a session's files): the scores FTS5's bm25() gives in a table holding exactly `docs` (N and the
 * average length are those of `docs`). No index is built — only the query's terms are counted —
 * which for a few hundred documents costs less than building postings for every word. Positive
 * scores in document order; documents holding no term are left out.
 */
export function scoreDocuments(docs: readonly DocumentColumns[], terms: readonly string[], weights: FieldWeights): { doc: number; score: number }[] {
  const ids = new Map<string, number>();
  for (const t of terms) if (t && !ids.has(t)) ids.set(t, ids.size);
  const nTerms = ids.size;
  if (!nTerms || !docs.length) return [];
  // counts[d][3·j + col]: occurrences of term j in column col of document d (null: no term at all).
  const counts: (Int32Array | null)[] = [];
  const lens = new Int32Array(docs.length);
  const df = new Int32Array(nTerms);
  let tokens = 0;
  for (let d = 0; d < docs.length; d++) {
    let c: Int32Array | null = null;
    for (let col = 0; col < 3; col++) {
      const column = docs[d][col];
      lens[d] += column.length;
      for (const tok of column) {
        const j = ids.get(tok);
        if (j === undefined) continue;
        c ??= new Int32Array(3 * nTerms);
        c[3 * j + col]++;
      }
    }
    tokens += lens[d];
    if (c) for (let j = 0; j < nTerms; j++) if (c[3 * j] || c[3 * j + 1] || c[3 * j + 2]) df[j]++;
    counts.push(c);
  }
  const idfs = Array.from(df, (n) => idf(docs.length, n));
  const avgdl = tokens / docs.length;
  const whole = areWhole(weights);
  const out: { doc: number; score: number }[] = [];
  for (let d = 0; d < docs.length; d++) {
    const c = counts[d];
    if (!c) continue;
    // Summed in the query's term order, as FTS5 sums its phrases (a term absent adds exactly 0).
    let score = 0.0;
    for (let j = 0; j < nTerms; j++) {
      const f = weightedFrequency(c[3 * j], c[3 * j + 1], c[3 * j + 2], weights, whole);
      if (f > 0) score += termScore(idfs[j], f, lens[d], avgdl);
    }
    out.push({ doc: d, score });
  }
  return out;
}
