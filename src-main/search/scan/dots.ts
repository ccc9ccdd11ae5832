/**
 * Rescoring the scan's candidates: the cosine of the query with each candidate's int8 vector. The
 * query is rounded to int16 (scaled so its largest component is ±32767), and each dot product is an
 * exact integer sum: the same figure whatever the order of the additions, so the SIMD pass
 * (dotPass in hamming.wat) and the JS one below give bit-identical scores on every machine. Rounding
 * the query moves a cosine by ~1e-5, far below what the int8 vectors themselves round away (~1e-2).
 */

/** Vector lengths the SIMD pass takes: whole 16-byte lanes, and sums that cannot overflow an i32. */
export function dotFits(dims: number): boolean {
  return dims > 0 && dims % 16 === 0 && dims * 128 * 32767 < 2 ** 31;
}

export interface QueryInt16 {
  q: Int16Array;
  /** What the query was multiplied by: a dot product divided by it is the float query's. */
  scale: number;
}

export function quantizeQuery(query: Float32Array): QueryInt16 {
  let max = 0;
  for (let j = 0; j < query.length; j++) max = Math.max(max, Math.abs(query[j]));
  const scale = max > 0 ? 32767 / max : 0;
  const q = new Int16Array(query.length);
  for (let j = 0; j < query.length; j++) q[j] = Math.round(query[j] * scale);
  return { q, scale };
}

/** The integer dot products of `q` with the vectors of `slots` (dims int8 each), where no SIMD pass runs. */
export function dotsJs(vectors: Int8Array, dims: number, q: Int16Array, slots: ArrayLike<number>): Int32Array {
  const out = new Int32Array(slots.length);
  const tail = dims & 3;
  for (let k = 0; k < slots.length; k++) {
    const o = slots[k] * dims;
    // Four partial sums: fewer dependent adds per step. Integers below 2^31 add exactly in doubles,
    // so the order does not change the result.
    let d0 = 0;
    let d1 = 0;
    let d2 = 0;
    let d3 = 0;
    let j = 0;
    for (; j < dims - tail; j += 4) {
      d0 += q[j] * vectors[o + j];
      d1 += q[j + 1] * vectors[o + j + 1];
      d2 += q[j + 2] * vectors[o + j + 2];
      d3 += q[j + 3] * vectors[o + j + 3];
    }
    for (; j < dims; j++) d0 += q[j] * vectors[o + j];
    out[k] = d0 + d1 + d2 + d3;
  }
  return out;
}
