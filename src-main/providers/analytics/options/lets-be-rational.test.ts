import { describe, expect, it } from 'vitest';
import { totalVolFromNormalisedPrice } from './lets-be-rational';
import { normalisedBlack, normalisedComplement } from './normalised-black';

const out = new Float64Array(2);

/** Solves b(x, ·) = b(x, s) and reports the relative error in s and in the price, and the evaluations used. */
function roundTrip(x: number, s: number) {
  const beta = normalisedBlack(x, s);
  const gap = normalisedComplement(x, s);
  if (!(beta > 1e-300) || !(gap > 1e-300)) return null;
  totalVolFromNormalisedPrice(beta, gap, x, out);
  const got = out[0]!;
  // The error that counts is in the price (or its distance to the bound, whichever is smaller):
  // where the price barely moves with s, s itself is not determined to machine precision.
  const priceError = Math.min(Math.abs(normalisedBlack(x, got) / beta - 1), Math.abs(normalisedComplement(x, got) / gap - 1));
  return { got, volError: Math.abs(got / s - 1), priceError, evaluations: out[1]! };
}

describe('Let’s-be-rational implied total volatility', () => {
  it('recovers s to machine precision with two price evaluations across moneyness 0–50 and s 1e−3–50, all four segments', () => {
    // A solver that needs many evaluations is what made implied vol slow; one that stops early gives
    // the PM a vol that does not reprice the quote.
    let solved = 0;
    let twoOrFewer = 0;
    let maxEvaluations = 0;
    for (let i = 0; i <= 80; i++)
      for (let j = 0; j <= 80; j++) {
        const x = i === 0 ? 0 : -(10 ** (-6 + (7.7 * i) / 80));
        const s = 10 ** (-3 + (4.7 * j) / 80);
        const r = roundTrip(x, s);
        if (!r) continue;
        solved++;
        if (r.evaluations <= 2) twoOrFewer++;
        maxEvaluations = Math.max(maxEvaluations, r.evaluations);
        expect(Math.min(r.volError, r.priceError), `x=${x} s=${s} got ${r.got}`).toBeLessThan(1e-13);
      }
    expect(solved).toBeGreaterThan(4000);
    expect(twoOrFewer / solved).toBeGreaterThan(0.99);
    expect(maxEvaluations).toBeLessThanOrEqual(4);
  });

  it('solves prices down to 1e−300 and a hair below the upper bound, where only the distance to the bound carries digits', () => {
    const x = -Math.log(1.5);
    for (const beta of [1e-300, 1e-200, 1e-50, 1e-12]) {
      totalVolFromNormalisedPrice(beta, Math.exp(0.5 * x) - beta, x, out);
      expect(Math.abs(normalisedBlack(x, out[0]!) / beta - 1), `beta=${beta}`).toBeLessThan(1e-13);
    }
    for (const xx of [0, x]) {
      for (const gap of [1e-11, 1e-14, 1e-100]) {
        // b_max − gap rounds to b_max for the smaller gaps: the solver must read the gap, not the price.
        totalVolFromNormalisedPrice(Math.exp(0.5 * xx) - gap, gap, xx, out);
        expect(Math.abs(normalisedComplement(xx, out[0]!) / gap - 1), `x=${xx} gap=${gap}`).toBeLessThan(1e-13);
      }
    }
  });
});
