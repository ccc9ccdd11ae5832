import { describe, expect, it } from 'vitest';
import { leastSquares } from './least-squares';

describe('least squares (Householder QR)', () => {
  it('recovers exact coefficients and reports zero residual', () => {
    const x = [0, 1, 2, 3, 4, 5];
    const y = x.map((v) => 1.5 - 2 * v + 0.25 * v * v);
    const fit = leastSquares([x.map(() => 1), x, x.map((v) => v * v)], y)!;
    expect(fit.beta[0]).toBeCloseTo(1.5, 12);
    expect(fit.beta[1]).toBeCloseTo(-2, 12);
    expect(fit.beta[2]).toBeCloseTo(0.25, 12);
    expect(fit.ssr).toBeLessThan(1e-24);
  });

  it('simple regression: slope, residual sum of squares and (XᵀX)⁻¹ diagonal match the textbook formulas', () => {
    // y on (1, x) with x = 1..5, y = 2, 4, 5, 4, 5: x̄ = 3, ȳ = 4, Sxx = 10, Sxy = 6 → slope 0.6, intercept 4 − 1.8 = 2.2.
    // ŷ = 2.8, 3.4, 4.0, 4.6, 5.2 → e = −0.8, 0.6, 1.0, −0.6, −0.2; SSR = 0.64 + 0.36 + 1 + 0.36 + 0.04 = 2.4.
    // (XᵀX)⁻¹ = [[Σx², −Σx], [−Σx, n]] / (nΣx² − (Σx)²) = [[55, −15], [−15, 5]] / 50 → diagonal 1.1, 0.1.
    const x = [1, 2, 3, 4, 5];
    const fit = leastSquares([x.map(() => 1), x], [2, 4, 5, 4, 5], { inverseDiag: true })!;
    expect(fit.beta[1]).toBeCloseTo(0.6, 12);
    expect(fit.beta[0]).toBeCloseTo(2.2, 12);
    expect(fit.ssr).toBeCloseTo(2.4, 12);
    expect(fit.xtxInvDiag![0]).toBeCloseTo(1.1, 12);
    expect(fit.xtxInvDiag![1]).toBeCloseTo(0.1, 12);
  });

  it('returns null for dependent columns instead of a meaningless answer', () => {
    const x = [1, 2, 3, 4];
    expect(leastSquares([x, x.map((v) => 2 * v)], [1, 2, 3, 4])).toBeNull();
    expect(leastSquares([x.map(() => 1), x.map(() => 3)], [1, 2, 3, 4])).toBeNull();
    expect(leastSquares([x, x], [1, 2])).toBeNull(); // fewer rows than columns
  });
});
