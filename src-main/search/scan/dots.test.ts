import { describe, expect, it } from 'vitest';
import { dotFits, dotsJs, quantizeQuery } from './dots';
import { HammingScan } from './hamming';

/** A deterministic pseudo-random source (the same cases on every run). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('rescoring candidates with integer dot products', () => {
  const dims = 384;
  const n = 5000;
  const r = rng(7);
  const scan = new HammingScan(n, 12, dims);
  const vectors = scan.vectors!;
  for (let i = 0; i < vectors.length; i++) vectors[i] = Math.floor(r() * 256) - 128;
  // The extremes: a row of -128 against a query at ±32767 is the largest sum the pass can meet.
  vectors.fill(-128, 0, dims);
  const query = Float32Array.from({ length: dims }, () => r() - 0.5);
  query[0] = -1;

  it('gives the same scores with WebAssembly SIMD as without, bit for bit (else search ranks differently by machine)', () => {
    expect(dotFits(dims)).toBe(true);
    const { q } = quantizeQuery(query);
    const slots = Array.from({ length: 4500 }, (_, k) => (k * 7919) % n); // more than one chunk of the SIMD pass
    slots[0] = 0;
    const simd = scan.dots(q, slots);
    const js = dotsJs(vectors, dims, q, slots);
    expect(Array.from(simd)).toEqual(Array.from(js));
    // The -128 row: no overflow, the exact sum.
    let exact = 0;
    for (let j = 0; j < dims; j++) exact += q[j] * -128;
    expect(simd[0]).toBe(exact);
  });

  it('stays within 1e-4 of the float dot product of the same int8 vectors (rounding the query loses nothing that matters)', () => {
    const { q, scale } = quantizeQuery(query);
    const slots = [1, 2, 3, 4999];
    const got = scan.dots(q, slots);
    slots.forEach((s, k) => {
      let float = 0;
      for (let j = 0; j < dims; j++) float += query[j] * vectors[s * dims + j];
      // Relative to the largest possible magnitude of a component product sum (|v| ≤ 128).
      expect(Math.abs(got[k] / scale - float) / (128 * Math.sqrt(dims))).toBeLessThan(1e-4);
    });
  });

  it('scores a zero query as zero rather than dividing by zero', () => {
    expect(quantizeQuery(new Float32Array(dims)).scale).toBe(0);
  });

  it('gives way to the JS passes for an index WebAssembly cannot address, instead of failing every search', () => {
    // 20 million notes × ~500 bytes is past wasm32's 4 GB.
    expect(HammingScan.create(20_000_000, 24, 384)).toBeNull();
    expect(HammingScan.create(1024, 24, 384)).not.toBeNull();
  });

  it('leaves vectors of other lengths to JS (the SIMD pass needs whole 16-byte lanes)', () => {
    expect(dotFits(100)).toBe(false);
    expect(new HammingScan(256, 12, 100).vectors).toBeNull();
  });
});
