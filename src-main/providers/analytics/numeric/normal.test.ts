import { describe, expect, it } from 'vitest';
import { normCdf, normPdf } from './normal';

/**
 * An independent Φ for reference: 0.5·erfc(−x/√2), with erf by its Taylor series near 0 and erfc
 * by its continued fraction (modified Lentz) in the tails — slow, but exact to double precision.
 */
function referenceCdf(x: number): number {
  const z = -x / Math.SQRT2;
  if (Math.abs(z) < 2) {
    let term = z;
    let sum = z;
    for (let n = 1; n < 200; n++) {
      term *= (-z * z) / n;
      sum += term / (2 * n + 1);
    }
    return 0.5 * (1 - (2 / Math.sqrt(Math.PI)) * sum);
  }
  const a = Math.abs(z);
  // erfc(a) = e^{−a²}/√π · 1/(a + (1/2)/(a + 1/(a + (3/2)/(a + 2/(a + …)))))
  let f = a;
  let C = a;
  let D = 0;
  for (let k = 1; k < 500; k++) {
    const ak = k / 2;
    D = a + ak * D;
    D = 1 / D;
    C = a + ak / C;
    const delta = C * D;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-17) break;
  }
  const erfc = Math.exp(-a * a) / Math.sqrt(Math.PI) / f;
  return z > 0 ? 0.5 * erfc : 1 - 0.5 * erfc;
}

describe('normal distribution', () => {
  it('matches published values of Φ (Abramowitz & Stegun, Table 26.1): Φ(1) = 0.8413447461, Φ(1.96) = 0.9750021049', () => {
    // A wrong Φ misprices every option and mis-states every p-value the PM reads.
    expect(normCdf(0)).toBe(0.5);
    expect(normCdf(1)).toBeCloseTo(0.8413447460685429, 14);
    expect(normCdf(1.96)).toBeCloseTo(0.9750021048517795, 14);
    expect(normCdf(-1)).toBeCloseTo(0.15865525393145707, 14);
  });

  it('agrees with an independent erfc: 1e-14 absolute everywhere, 1e-10 relative to |x| = 5, 2e-8 relative beyond', () => {
    // Hart's tail branch is tuned for absolute accuracy; beyond |x| = 5 (values below 3e-7) its
    // relative error grows to ~1e-8 — still far below any option price or p-value that matters.
    for (let x = -37; x <= 8; x += 1 / 64) {
      const ref = referenceCdf(x);
      const got = normCdf(x);
      expect(Math.abs(got - ref), `x=${x}`).toBeLessThan(1e-14);
      if (x < 0) expect(Math.abs(got / ref - 1), `x=${x}`).toBeLessThan(x > -5 ? 1e-10 : 2e-8);
    }
    // Far tail: Φ(−10) = 7.6198530241605e−24 (continued fraction above; Python's math.erfc agrees).
    expect(normCdf(-10) / 7.6198530241605e-24).toBeCloseTo(1, 8);
    expect(normCdf(-40)).toBe(0);
    expect(normCdf(40)).toBe(1);
    expect(Number.isNaN(normCdf(Number.NaN))).toBe(true);
  });

  it('density: φ(0) = 1/√(2π) and symmetric', () => {
    expect(normPdf(0)).toBeCloseTo(1 / Math.sqrt(2 * Math.PI), 15);
    expect(normPdf(1.3)).toBe(normPdf(-1.3));
  });
});
