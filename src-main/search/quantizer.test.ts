import { describe, expect, it } from 'vitest';
import { HashNgramEmbedder } from './hash-embedder';
import { popcount32, Quantizer } from './quantizer';

const hamming = (a: Uint8Array, b: Uint8Array) => {
  const x = new Uint32Array(a.buffer.slice(0)),
    y = new Uint32Array(b.buffer.slice(0));
  let d = 0;
  for (let i = 0; i < x.length; i++) d += popcount32(x[i] ^ y[i]);
  return d;
};

describe('SimHash quantiser (fast candidate codes)', () => {
  it('gives the same code in every run, so codes stored yesterday match queries today', () => {
    const v = new HashNgramEmbedder().embedOne('Bund swap spreads tighter');
    expect(Array.from(new Quantizer(384).encode(v))).toEqual(Array.from(new Quantizer(384).encode(v)));
    expect(new Quantizer(384).encode(v).length).toBe(96);
  });

  it('keeps related notes closer in hamming distance than unrelated ones (else candidates miss the best notes)', () => {
    const e = new HashNgramEmbedder();
    const q = new Quantizer(384);
    const [a, b, c] = ['UST 2s10s curve steepener after payrolls', '2s10s steepener: curve steepening on payrolls', 'Copper inventories fell at the LME'].map(
      (t) => q.encode(e.embedOne(t)),
    );
    expect(hamming(a, b)).toBeLessThan(hamming(a, c) - 50);
    // Unrelated notes sit near half the bits apart (random hyperplanes).
    expect(Math.abs(hamming(a, c) - 384)).toBeLessThan(80);
  });
});
