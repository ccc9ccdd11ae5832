/**
 * FTS5's BM25 (fts5_aux.c, fts5Bm25Function), reproduced operation for operation so a note's
 * score here is the same double FTS5's `bm25()` returns (negated: FTS5 returns −score so that
 * ascending order is best first). Constants, the IDF floor and the order of every addition and
 * division follow the C: reordering them would change the last bits and, on exact ties, the order.
 */
export const K1 = 1.2;
export const B = 0.75;

export type FieldWeights = readonly [title: number, header: number, body: number];

/** IDF of a word in `df` of `rows` notes: log((N − n + 0.5) / (n + 0.5)), floored at 1e-6. */
export function idf(rows: number, df: number): number {
  const x = Math.log((rows - df + 0.5) / (df + 0.5));
  return x <= 0 ? 1e-6 : x;
}

/**
 * A word's weighted frequency in a note: FTS5 adds the column's weight once per occurrence, title
 * occurrences first, then header, then body. Whole-number weights give the same sum multiplied; any
 * other weight is added one occurrence at a time, as the C does, so the rounding matches.
 */
export function weightedFrequency(t: number, h: number, b: number, w: FieldWeights, wholeWeights: boolean): number {
  if (wholeWeights) return t * w[0] + h * w[1] + b * w[2];
  let f = 0.0;
  for (let i = 0; i < t; i++) f += w[0];
  for (let i = 0; i < h; i++) f += w[1];
  for (let i = 0; i < b; i++) f += w[2];
  return f;
}

/** One word's share of a note's score: idf × f(k1+1) / (f + k1(1 − b + b·D/avgdl)). */
export function termScore(idfValue: number, freq: number, docLen: number, avgdl: number): number {
  return idfValue * ((freq * (K1 + 1.0)) / (freq + K1 * (1 - B + (B * docLen) / avgdl)));
}

export const areWhole = (w: FieldWeights) => w.every((x) => Number.isInteger(x));
