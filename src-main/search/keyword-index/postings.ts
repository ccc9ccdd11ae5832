/**
 * One word's note list: record ids in ascending order with the word's count in each column (title,
 * header, body), and per-block bounds so a search can bound what a whole block of notes could add
 * to a score without scoring them (block-max pruning).
 *
 * Counts are packed in one uint32 (title 8 bits, header 8 bits, body 16 bits); a note whose counts
 * do not fit keeps them exactly in `overflow` under the sentinel, so no count is ever clipped.
 */
import { type FieldWeights, termScore, weightedFrequency } from './bm25';

export const BLOCK = 64;
const BLOCK_SHIFT = 6;
const OVERFLOW = 0xffffffff;

export type ColumnCounts = readonly [title: number, header: number, body: number];

export function packCounts(t: number, h: number, b: number): number {
  return t < 256 && h < 256 && b < 65536 ? ((t << 24) | (h << 16) | b) >>> 0 : OVERFLOW;
}

export class Postings {
  rids: Int32Array;
  counts: Uint32Array;
  length = 0;
  /** Exact counts of the notes whose counts do not fit the packing, by record id. */
  overflow: Map<number, ColumnCounts> | null = null;
  /** Per block: the most any of its notes can get from this word, per unit of IDF (see refreshBounds). */
  blockBound = new Float64Array(0);
  /** The weights and the average length the bounds were computed for. */
  private boundKey = '';
  private boundAvgdl = 0;
  /** Blocks from this one on must be recomputed before their bounds are read. */
  staleFrom = 0;

  constructor(capacity = 2) {
    this.rids = new Int32Array(capacity);
    this.counts = new Uint32Array(capacity);
  }

  get blocks(): number {
    return (this.length + BLOCK - 1) >> BLOCK_SHIFT;
  }

  /** Title/header/body counts of the note at position i. */
  countsAt(i: number): ColumnCounts {
    const c = this.counts[i];
    if (c === OVERFLOW) return this.overflow?.get(this.rids[i]) ?? [0, 0, 0];
    return [c >>> 24, (c >>> 16) & 0xff, c & 0xffff];
  }

  /** Adds or replaces the note's counts, keeping ids in order. */
  set(rid: number, t: number, h: number, b: number): void {
    const packed = packCounts(t, h, b);
    let i = this.length;
    if (i === 0 || this.rids[i - 1] < rid) {
      this.grow();
      this.rids[i] = rid;
      this.counts[i] = packed;
      this.length++;
    } else {
      i = this.lowerBound(rid, 0);
      if (i >= this.length || this.rids[i] !== rid) {
        this.grow();
        this.rids.copyWithin(i + 1, i, this.length);
        this.counts.copyWithin(i + 1, i, this.length);
        this.rids[i] = rid;
        this.length++;
      }
      this.counts[i] = packed;
    }
    if (packed === OVERFLOW) {
      this.overflow ??= new Map();
      this.overflow.set(rid, [t, h, b]);
    } else this.overflow?.delete(rid);
    this.staleFrom = Math.min(this.staleFrom, i >> BLOCK_SHIFT);
  }

  /** Removes the note if present. */
  delete(rid: number): void {
    const i = this.lowerBound(rid, 0);
    if (i >= this.length || this.rids[i] !== rid) return;
    this.rids.copyWithin(i, i + 1, this.length);
    this.counts.copyWithin(i, i + 1, this.length);
    this.length--;
    this.overflow?.delete(rid);
    this.staleFrom = Math.min(this.staleFrom, i >> BLOCK_SHIFT);
  }

  /** The first position at or after `from` whose id is ≥ rid (galloping, then binary search). */
  lowerBound(rid: number, from: number): number {
    const ids = this.rids;
    let hi = from;
    let step = 1;
    while (hi < this.length && ids[hi] < rid) {
      from = hi + 1;
      hi += step;
      step <<= 1;
    }
    if (hi > this.length) hi = this.length;
    let lo = from;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ids[mid] < rid) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Brings each block's bound up to date: the largest share of a score any of its notes gets from
   * this word, per unit of IDF — exact per note (its counts under these weights, its length), taken
   * at an average length 2% above the current one. A share grows with the average length, so the
   * bounds stay valid while the average stays below that (writes move it slowly); beyond it, or
   * under other weights, every block is recomputed. Blocks changed by writes are recomputed from
   * the first one changed.
   */
  refreshBounds(docLen: Int32Array, weights: FieldWeights, whole: boolean, avgdl: number): void {
    const key = weights.join(',');
    if (key !== this.boundKey || avgdl > this.boundAvgdl) {
      this.boundKey = key;
      this.boundAvgdl = avgdl * 1.02;
      this.staleFrom = 0;
    }
    const n = this.blocks;
    if (this.staleFrom >= n && this.blockBound.length >= n) return;
    if (this.blockBound.length < n) {
      const more = new Float64Array(Math.max(n, this.blockBound.length * 2, 4));
      more.set(this.blockBound.subarray(0, Math.min(this.blockBound.length, more.length)));
      this.blockBound = more;
    }
    const at = this.boundAvgdl;
    for (let b = Math.min(this.staleFrom, n); b < n; b++) {
      let max = 0;
      const end = Math.min(this.length, (b + 1) << BLOCK_SHIFT);
      for (let i = b << BLOCK_SHIFT; i < end; i++) {
        const c = this.counts[i];
        const f =
          c === OVERFLOW ? weightedFrequency(...this.countsAt(i), weights, whole) : weightedFrequency(c >>> 24, (c >>> 16) & 0xff, c & 0xffff, weights, whole);
        const share = termScore(1, f, docLen[this.rids[i]], at);
        if (share > max) max = share;
      }
      this.blockBound[b] = max;
    }
    this.staleFrom = n;
  }

  /** Shrinks the arrays to the notes held. */
  trim(): void {
    if (this.rids.length === this.length) return;
    this.rids = this.rids.slice(0, this.length);
    this.counts = this.counts.slice(0, this.length);
  }

  private grow(): void {
    if (this.length < this.rids.length) return;
    const cap = Math.max(4, this.rids.length * 2);
    const rids = new Int32Array(cap);
    rids.set(this.rids.subarray(0, this.length));
    const counts = new Uint32Array(cap);
    counts.set(this.counts.subarray(0, this.length));
    this.rids = rids;
    this.counts = counts;
  }
}

export const BLOCK_BITS = BLOCK_SHIFT;
/** The packed value of a note whose counts are kept exactly in `overflow`. */
export const OVERFLOW_COUNTS = OVERFLOW;
