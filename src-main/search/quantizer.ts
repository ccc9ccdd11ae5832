/**
 * Sign-random-projection (SimHash) quantiser: bit i = sign(⟨p_i, v⟩) for fixed pseudo-random
 * Gaussian directions p_i. Hamming distance between codes then estimates the angle between
 * vectors, whatever the embedder. Plain sign bits were measured to be poor for the sparse
 * hashed-n-gram vectors (recall@10 0.81 at 400 candidates vs 0.99 with 768 SimHash bits).
 */
export const DEFAULT_BITS = 768;

export class Quantizer {
  readonly words: number;
  private readonly proj: Float32Array;

  constructor(
    readonly dims: number,
    readonly bits = DEFAULT_BITS,
  ) {
    if (bits % 32 !== 0) throw new Error('Quantizer bits must be a multiple of 32');
    this.words = bits / 32;
    this.proj = new Float32Array(bits * dims);
    // Deterministic (seeded by size): codes written by one run must match queries of the next.
    let s = (0x9e3779b9 ^ (dims * 2654435761) ^ bits) >>> 0 || 1;
    const next = () => {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      return ((s >>> 0) + 0.5) / 4294967296;
    };
    for (let i = 0; i < this.proj.length; i += 2) {
      const r = Math.sqrt(-2 * Math.log(next()));
      const t = 2 * Math.PI * next();
      this.proj[i] = r * Math.cos(t);
      if (i + 1 < this.proj.length) this.proj[i + 1] = r * Math.sin(t);
    }
  }

  /** Packed code, bit i of byte i>>3 (the layout of sqlite-vec `bit[n]`). */
  encode(v: Float32Array): Uint8Array {
    if (v.length !== this.dims) throw new Error(`Quantizer expects ${this.dims} dims, got ${v.length}`);
    const B = this.bits;
    const acc = new Float64Array(B);
    const p = this.proj;
    // Projection stored dimension-major, so zero dimensions (common in hashed vectors) cost nothing.
    for (let j = 0; j < this.dims; j++) {
      const x = v[j];
      if (x === 0) continue;
      const o = j * B;
      for (let b = 0; b < B; b++) acc[b] += p[o + b] * x;
    }
    const out = new Uint8Array(B / 8);
    for (let b = 0; b < B; b++) if (acc[b] > 0) out[b >> 3] |= 1 << (b & 7);
    return out;
  }
}

export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
