import { describe, expect, it } from 'vitest';
import { erfc, normCdf, normPdf } from './normal';

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

  it('agrees with an independent erfc to 1e-14 absolute from −37 to 8', () => {
    for (let x = -37; x <= 8; x += 1 / 64) expect(Math.abs(normCdf(x) - referenceCdf(x)), `x=${x}`).toBeLessThan(1e-14);
    expect(normCdf(-40)).toBe(0);
    expect(normCdf(40)).toBe(1);
    expect(Number.isNaN(normCdf(Number.NaN))).toBe(true);
  });

  it('keeps full relative precision in the far tail: Φ(−10), Φ(−20), Φ(−37) to a few ulps, Φ(−38) ≈ 2.885e−316 as a subnormal', () => {
    // A tail probability off by 1e−8 relative makes every far-wing option price off by as much,
    // and an implied vol solved from it off too: the quant sees prices that disagree with any
    // other library in the 9th digit. References: Φ(x) = erfc(−x/√2)/2 evaluated with Python's
    // decimal module at 50 significant digits (erf Taylor series below 4, the erfc continued
    // fraction beyond, iterated to 1e−45), rounded to the nearest double. They agree with published values
    // Φ(−10) = 7.619853024160527e−24 and Φ(−20) = 2.753624118606234e−89; the often-quoted
    // 5.7255712225239e−300 for Φ(−37) is wrong in its 12th digit (5.72557122252457…e−300).
    const table: [number, number][] = [
      [-37.0, 5.725571222524577e-300],
      [-30.0, 4.906713927148187e-198],
      [-20.0, 2.7536241186062337e-89],
      [-10.0, 7.619853024160525e-24],
      [-8.0, 6.220960574271784e-16],
      [-5.656854249492381, 7.708628950139992e-9],
      [-5.0, 2.866515718791939e-7],
      [-3.0, 0.0013498980316300946],
      [-1.0, 0.15865525393145705],
      [-0.5, 0.3085375387259869],
      [-0.3, 0.3820885778110474],
      [0.3, 0.6179114221889527],
      [1.0, 0.8413447460685429],
      [1.96, 0.9750021048517795],
      [3.0, 0.9986501019683699],
      [5.0, 0.9999997133484281],
    ];
    for (const [x, ref] of table) expect(Math.abs(normCdf(x) / ref - 1), `x=${x}`).toBeLessThan(5e-15);
    // Φ(−38) = 2.88542836006878431e−316 (50 digits) lies below the smallest normal double, where a
    // double holds it as 2.88542835e−316: within one subnormal step of that.
    expect(Math.abs(normCdf(-38) - 2.88542835e-316)).toBeLessThanOrEqual(5e-324);
    // erfc itself, at Cody's interval edges (erfc(x) = 2Φ(−x√2)).
    expect(Math.abs(erfc(4) / 1.541725790028002e-8 - 1)).toBeLessThan(5e-15);
    expect(Math.abs(erfc(0.46875) / 0.507386526782062 - 1)).toBeLessThan(5e-15);
  });

  it('density: φ(0) = 1/√(2π) and symmetric', () => {
    expect(normPdf(0)).toBeCloseTo(1 / Math.sqrt(2 * Math.PI), 15);
    expect(normPdf(1.3)).toBe(normPdf(-1.3));
  });
});
