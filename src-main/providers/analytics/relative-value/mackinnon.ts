import { normCdf } from '../numeric/normal';

/**
 * Critical values and p-values of the Dickey–Fuller τ statistic for the regression with a
 * constant and no trend (one series, N = 1).
 *
 * Critical values: MacKinnon (2010), "Critical Values for Cointegration Tests", Queen's Economics
 * Department Working Paper 1227, response surface C(T) = β∞ + β1/T + β2/T² + β3/T³ with T the
 * number of observations in the test regression (τ_c, N = 1).
 * p-values: MacKinnon (1994), "Approximate Asymptotic Distribution Functions for Unit-Root and
 * Cointegration Tests", JBES 12(2), p = Φ(polynomial in τ), one polynomial each side of τ* = −1.61.
 */

export type AdfLevel = '1%' | '5%' | '10%';
export const ADF_LEVELS: readonly AdfLevel[] = ['1%', '5%', '10%'];

const RESPONSE_SURFACE: Record<AdfLevel, readonly [number, number, number, number]> = {
  '1%': [-3.43035, -6.5393, -16.786, -79.433],
  '5%': [-2.86154, -2.8903, -4.234, -40.04],
  '10%': [-2.56677, -1.5384, -2.809, 0],
};

/** Finite-sample critical value for T observations in the regression (T = Infinity: asymptotic). */
export function adfCriticalValue(level: AdfLevel, T: number): number {
  const [b0, b1, b2, b3] = RESPONSE_SURFACE[level];
  if (!Number.isFinite(T)) return b0;
  return b0 + b1 / T + b2 / T ** 2 + b3 / T ** 3;
}

export function adfCriticalValues(T: number): Record<AdfLevel, number> {
  return { '1%': adfCriticalValue('1%', T), '5%': adfCriticalValue('5%', T), '10%': adfCriticalValue('10%', T) };
}

const TAU_STAR = -1.61;
const TAU_MIN = -18.83;
const TAU_MAX = 2.74;
const SMALL_P = [2.1659, 1.4412, 0.038269];
const LARGE_P = [1.7339, 0.93202, -0.12745, -0.010368];

/** MacKinnon's approximate (asymptotic) p-value of a τ statistic. */
export function adfPValue(tau: number): number {
  if (tau > TAU_MAX) return 1;
  if (tau < TAU_MIN) return 0;
  const c = tau <= TAU_STAR ? SMALL_P : LARGE_P;
  let z = 0;
  for (let i = c.length - 1; i >= 0; i--) z = z * tau + c[i]!;
  return normCdf(z);
}
