import type { Postings } from './postings';

export interface TermList {
  postings: Postings;
  idf: number;
}

export interface Scorer {
  /** The term's exact share of the score of the note at position i of its list. */
  score(p: Postings, i: number, idf: number): number;
  /** At least the share any note of that block can get. */
  blockBound(p: Postings, block: number, idf: number): number;
  /** Whether the note may be returned (scope and filters); null: every note may. */
  accept: ((rid: number) => boolean) | null;
  blockBits: number;
}

/**
 * Scores are compared with bounds summed in another order than the exact score (and bounded by
 * rounded arithmetic): a candidate is skipped only when its bound is below the k-th score by more
 * than this, so rounding can never drop a note that belongs in the answer.
 */
const SLACK = 1e-9;

/**
 * The best k notes over the words' lists (OR semantics), best first, ties by record id: exact.
 *
 * MaxScore (Turtle & Flood) with block maxima: words are ordered by the most they can add to a
 * score; once the k-th best score is known, the words whose bounds together cannot reach it are
 * "non-essential" — a note holding only those cannot enter the answer, so their lists are no longer
 * walked, only looked into for the candidates the essential words bring. Before a candidate is
 * scored, its bound is tightened with each list's block maximum (the block the note falls in), which
 * rules out most candidates of common words without scoring them. The final score of a note is
 * summed in the query's word order, as FTS5 sums it, so scores are the same doubles.
 */
export function topK(lists: readonly TermList[], k: number, s: Scorer): { rid: number; score: number }[] {
  const n = lists.length;
  // Every block's bound, once per query (a word in 40% of 100,000 notes has ~600 blocks).
  const bounds = lists.map((l) => {
    const b = new Float64Array(l.postings.blocks);
    for (let i = 0; i < b.length; i++) b[i] = s.blockBound(l.postings, i, l.idf);
    return b;
  });
  const ub = bounds.map((b) => {
    let m = 0;
    for (let i = 0; i < b.length; i++) if (b[i] > m) m = b[i];
    return m;
  });
  // Essential words are walked; order by bound, smallest first, so the prefix sums grow slowly.
  const ord = lists.map((_, i) => i).sort((a, b) => ub[a] - ub[b] || a - b);
  const prefix = new Float64Array(n);
  for (let j = 0; j < n; j++) prefix[j] = (j ? prefix[j - 1] : 0) + ub[ord[j]];
  const pos = new Int32Array(n);
  const contrib = new Float64Array(n);

  const heapScore = new Float64Array(k);
  const heapRid = new Int32Array(k);
  let size = 0;
  let theta = -Infinity;
  let essential = 0;

  const bits = s.blockBits;
  for (;;) {
    let d = 0x7fffffff;
    for (let j = essential; j < n; j++) {
      const p = lists[ord[j]].postings;
      const i = pos[j];
      if (i < p.length && p.rids[i] < d) d = p.rids[i];
    }
    if (d === 0x7fffffff) break;

    if (s.accept && !s.accept(d)) {
      for (let j = essential; j < n; j++) {
        const p = lists[ord[j]].postings;
        if (pos[j] < p.length && p.rids[pos[j]] === d) pos[j]++;
      }
      continue;
    }

    if (size === k) {
      // Block-max over a range: every note from d up to the end of the nearest essential block is
      // bounded by the essential words' current blocks plus the non-essential words' bounds; when that
      // cannot reach the k-th score, the whole range is skipped at once.
      let rangeBound = essential ? prefix[essential - 1] : 0;
      let end = 0x7fffffff;
      for (let j = essential; j < n; j++) {
        const p = lists[ord[j]].postings;
        if (pos[j] >= p.length) continue;
        const block = pos[j] >> bits;
        rangeBound += bounds[ord[j]][block];
        const last = p.rids[Math.min(p.length, (block + 1) << bits) - 1];
        if (last < end) end = last;
      }
      if (rangeBound < theta - SLACK) {
        for (let j = essential; j < n; j++) pos[j] = lists[ord[j]].postings.lowerBound(end + 1, pos[j]);
        continue;
      }
      // Block-max bound for d alone: the essential words that hold it plus the non-essential words' bounds.
      let bound = essential ? prefix[essential - 1] : 0;
      for (let j = essential; j < n; j++) {
        const l = lists[ord[j]];
        if (pos[j] < l.postings.length && l.postings.rids[pos[j]] === d) bound += bounds[ord[j]][pos[j] >> bits];
      }
      if (bound < theta - SLACK) {
        for (let j = essential; j < n; j++) {
          const p = lists[ord[j]].postings;
          if (pos[j] < p.length && p.rids[pos[j]] === d) pos[j]++;
        }
        continue;
      }
    }

    contrib.fill(0);
    let sum = 0;
    for (let j = essential; j < n; j++) {
      const l = lists[ord[j]];
      const i = pos[j];
      if (i < l.postings.length && l.postings.rids[i] === d) {
        const x = s.score(l.postings, i, l.idf);
        contrib[ord[j]] = x;
        sum += x;
        pos[j] = i + 1;
      }
    }
    let pruned = false;
    for (let j = essential - 1; j >= 0; j--) {
      if (size === k && sum + prefix[j] < theta - SLACK) {
        pruned = true;
        break;
      }
      const l = lists[ord[j]];
      const i = l.postings.lowerBound(d, pos[j]);
      pos[j] = i;
      if (i < l.postings.length && l.postings.rids[i] === d) {
        const x = s.score(l.postings, i, l.idf);
        contrib[ord[j]] = x;
        sum += x;
      }
    }
    if (pruned) continue;

    // FTS5 adds the words' shares in query order.
    let score = 0.0;
    for (let i = 0; i < n; i++) score += contrib[i];
    // Candidates come in id order, so an equal score never displaces a note already held (ties go to the lower id).
    if (size < k) {
      siftUp(heapScore, heapRid, size++, score, d);
    } else if (score > heapScore[0]) {
      siftDown(heapScore, heapRid, size, score, d);
    } else continue;
    if (size === k) {
      theta = heapScore[0];
      while (essential < n && prefix[essential] < theta - SLACK) essential++;
    }
  }

  const out: { rid: number; score: number }[] = [];
  for (let i = 0; i < size; i++) out.push({ rid: heapRid[i], score: heapScore[i] });
  return out.sort((a, b) => b.score - a.score || a.rid - b.rid);
}

/** Min-heap on (score, then higher id first): the root is the note the next better one replaces. */
function worse(sa: number, ra: number, sb: number, rb: number): boolean {
  return sa < sb || (sa === sb && ra > rb);
}

function siftUp(hs: Float64Array, hr: Int32Array, at: number, score: number, rid: number): void {
  let i = at;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!worse(score, rid, hs[parent], hr[parent])) break;
    hs[i] = hs[parent];
    hr[i] = hr[parent];
    i = parent;
  }
  hs[i] = score;
  hr[i] = rid;
}

/** Replaces the root and restores the heap. */
function siftDown(hs: Float64Array, hr: Int32Array, size: number, score: number, rid: number): void {
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= size) break;
    const r = l + 1;
    const c = r < size && worse(hs[r], hr[r], hs[l], hr[l]) ? r : l;
    if (!worse(hs[c], hr[c], score, rid)) break;
    hs[i] = hs[c];
    hr[i] = hr[c];
    i = c;
  }
  hs[i] = score;
  hr[i] = rid;
}
