import { describe, expect, it } from 'vitest';
import { bestByScore } from './memory-results';

describe('the best vector candidates', () => {
  it('are exactly what sorting every candidate and keeping the first k gives, ties included (else fusion sees other notes)', () => {
    let s = 12345;
    const rand = () => {
      s = (s * 1103515245 + 12345) >>> 0;
      return s / 2 ** 32;
    };
    for (let round = 0; round < 200; round++) {
      const n = 1 + Math.floor(rand() * 300);
      // Few distinct scores, so ties cross the k-th place often.
      const pairs: [number, number][] = Array.from({ length: n }, (_, i) => [i + 1, Math.floor(rand() * 12) / 12]);
      const k = 1 + Math.floor(rand() * 40);
      const expected = pairs
        .slice()
        .sort((a, b) => b[1] - a[1])
        .slice(0, k);
      expect(bestByScore(pairs.slice(), k)).toEqual(expected);
    }
  });
});
