import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../store/testing';
import { idf, termScore, weightedFrequency } from './bm25';
import { KeywordIndex } from './keyword-index';

/** Scores every note holding a word, sorts, cuts: what block-max pruning must always equal. */
function bruteForce(
  index: KeywordIndex,
  docs: Map<number, string[][]>,
  terms: string[],
  k: number,
  w: readonly [number, number, number],
  corpus: { rows: number; tokens: number },
) {
  const avgdl = corpus.tokens / corpus.rows;
  const out: { rid: number; score: number }[] = [];
  for (const [rid, cols] of docs) {
    let score = 0;
    let any = false;
    for (const t of terms) {
      const c = cols.map((col) => col.filter((x) => x === t).length);
      if (!c.some((x) => x > 0)) continue;
      any = true;
      const len = cols.reduce((n, col) => n + col.length, 0);
      score += termScore(idf(corpus.rows, index.documentFrequency(t)), weightedFrequency(c[0], c[1], c[2], w, w.every(Number.isInteger)), len, avgdl);
    }
    if (any) out.push({ rid, score });
  }
  return out.sort((a, b) => b.score - a.score || a.rid - b.rid).slice(0, k);
}

describe('exact top-k over the in-memory postings', () => {
  it('equals scoring every note, for common and rare words, any k, after rewrites and deletions (randomised)', () => {
    const rand = seededRandom(7);
    const vocab = Array.from({ length: 40 }, (_, i) => `w${i}`);
    // Zipf-like: low-numbered words are in most notes, high-numbered ones in few.
    const word = () => vocab[Math.min(vocab.length - 1, Math.floor(-Math.log(1 - rand()) * 6))];
    const index = new KeywordIndex();
    const docs = new Map<number, string[][]>();
    const put = (rid: number) => {
      const cols = [2, 1, 30].map((n) => Array.from({ length: Math.floor(rand() * n) + (n > 2 ? 1 : 0) }, word));
      docs.set(rid, cols);
      index.put({ rid, columns: [cols[0], cols[1], cols[2]], category: rand() < 0.5 ? 'views' : 'observations', status: 'active', updatedAt: '2026-01-01' });
    };
    for (let rid = 1; rid <= 3000; rid++) put(rid);
    for (let i = 0; i < 400; i++) put(1 + Math.floor(rand() * 3000));
    for (let i = 0; i < 200; i++) {
      const rid = 1 + Math.floor(rand() * 3000);
      index.delete(rid);
      docs.delete(rid);
    }
    const corpus = { rows: 3600, tokens: 3600 * 18 };
    for (let q = 0; q < 60; q++) {
      const terms = [...new Set(Array.from({ length: 1 + Math.floor(rand() * 5) }, word))];
      const k = [1, 5, 10, 40, 5000][q % 5];
      const weights = q % 3 === 0 ? ([0.3, 0.1, 0.7] as const) : ([3, 1, 1] as const);
      const got = index.search(terms, k, weights, null, corpus);
      const want = bruteForce(index, docs, terms, k, weights, corpus);
      expect(
        got.map((h) => h.rid),
        terms.join(' '),
      ).toEqual(want.map((h) => h.rid));
      for (const [i, h] of got.entries()) expect(Math.abs(h.score - want[i].score)).toBeLessThan(1e-9);
    }
  });

  it('keeps exact counts above what the packing holds (a word 300 times in a title, 70,000 times in a body)', () => {
    const index = new KeywordIndex();
    const many = (n: number) => Array.from({ length: n }, () => 'carry');
    index.put({ rid: 1, columns: [many(300), [], many(70_000)], category: 'views', status: null, updatedAt: '2026-01-01' });
    index.put({ rid: 2, columns: [['carry'], [], ['carry', 'trade']], category: 'views', status: null, updatedAt: '2026-01-01' });
    const corpus = { rows: 2, tokens: 70_304 };
    const [top] = index.search(['carry'], 1, [3, 1, 1], null, corpus);
    const avgdl = corpus.tokens / corpus.rows;
    expect(top.rid).toBe(1);
    expect(top.score).toBe(termScore(idf(2, 2), 300 * 3 + 70_000, 70_300, avgdl));
  });

  it('returns only notes the filter allows (category, status, since, an id set)', () => {
    const index = new KeywordIndex();
    const doc = (rid: number, category: string, status: string | null, updatedAt: string) =>
      index.put({ rid, columns: [['carry'], [], ['carry']], category, status, updatedAt });
    doc(1, 'views', 'active', '2026-03-01T00:00:00Z');
    doc(2, 'views', 'closed', '2026-03-01T00:00:00Z');
    doc(3, 'observations', 'active', '2026-03-01T00:00:00Z');
    doc(4, 'views', 'active', '2025-12-01T00:00:00Z');
    const corpus = { rows: 4, tokens: 8 };
    const ids = (f: Parameters<KeywordIndex['search']>[3]) => index.search(['carry'], 10, [1, 1, 1], f, corpus).map((h) => h.rid);
    expect(ids({ category: 'views', status: 'active' })).toEqual([1, 4]);
    expect(ids({ category: 'views', status: 'active', since: '2026-01-01' })).toEqual([1]);
    expect(ids({ allowed: Uint8Array.of(0b0000_1100) })).toEqual([2, 3]);
    expect(ids({ category: 'pk' })).toEqual([]);
    expect(ids({ status: 'draft' })).toEqual([]);
  });
});
