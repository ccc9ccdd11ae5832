import { LABELS } from '../block-format';
import { popcount32 } from '../quantizer';

/**
 * The JavaScript passes of BlockIndex.nearest (hamming.ts runs the same passes in WebAssembly SIMD
 * where it can): each its own small function over typed arrays, so V8 keeps it optimised.
 */
export interface PassFilter {
  emb: number;
  cat: number;
  stat: number;
  since: number;
  allowed: Set<number> | null;
}

/**
 * Pass one of `nearest`: the prefix distance of every note passing the filter (NONE for the others),
 * counted into `hist`. Its own small function over typed arrays, so V8 keeps it optimised.
 */
export function prefixPass(
  ix: { capacity: number; pw: number; prefix: Uint32Array; rids: Int32Array; labels: Uint16Array; days: Int32Array },
  q: Uint32Array,
  f: PassFilter,
  d1: Uint16Array,
  hist: Uint32Array,
): number {
  const { capacity: n, pw: P, prefix, rids, labels, days } = ix;
  const NONE = P * 32 + 1;
  const { emb, cat, stat, since, allowed } = f;
  let passing = 0;
  for (let i = 0; i < n; i++) {
    const l = i * LABELS;
    if (
      rids[i] === 0 ||
      labels[l + 2] !== emb ||
      (cat !== 0 && labels[l] !== cat) ||
      (stat !== 0 && labels[l + 1] !== stat) ||
      days[i] < since ||
      (allowed !== null && !allowed.has(rids[i]))
    ) {
      d1[i] = NONE;
      continue;
    }
    const o = i * P;
    let d = 0;
    for (let w = 0; w < P; w++) d += popcount32(prefix[o + w] ^ q[w]);
    d1[i] = d;
    hist[d]++;
    passing++;
  }
  return passing;
}

/** Pass two: full distances of the notes within `th1` after pass one, into `idx`/`d2`, counted into `hist`. */
export function fullPass(
  codes: Uint32Array,
  n: number,
  P: number,
  W: number,
  q: Uint32Array,
  d1: Uint16Array,
  th1: number,
  idx: Int32Array,
  d2: Uint16Array,
  hist: Uint32Array,
): void {
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (d1[i] > th1) continue;
    const o = i * W;
    let d = d1[i];
    for (let w = P; w < W; w++) d += popcount32(codes[o + w] ^ q[w]);
    idx[k] = i;
    d2[k++] = d;
    hist[d]++;
  }
}

/** Smallest distance whose cumulative count reaches `count` (counting select, no sort). */
export function threshold(hist: Uint32Array, count: number, limit: number): number {
  let acc = 0;
  let th = 0;
  for (; th < limit; th++) {
    acc += hist[th];
    if (acc >= count) break;
  }
  return th;
}
