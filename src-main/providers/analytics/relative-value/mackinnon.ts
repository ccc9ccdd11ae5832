import { normCdf } from '../numeric/normal';

/**
 * Critical values and p-values of the Dickey–Fuller τ statistic for one series (N = 1), for the
 * three deterministic terms of the test regression: 'n' (none), 'c' (constant), 'ct' (constant
 * and linear trend). Each case has its own distribution: using the 'c' table for a 'ct' regression
 * rejects a unit root far too often (−2.86 against the right −3.41 at 5%).
 *
 * Critical values: MacKinnon (2010), "Critical Values for Cointegration Tests", Queen's Economics
 * Department Working Paper 1227, Table 2 (N = 1), response surface C(T) = β∞ + β1/T + β2/T² + β3/T³
 * with T the number of observations in the test regression.
 * p-values: MacKinnon (1994), "Approximate Asymptotic Distribution Functions for Unit-Root and
 * Cointegration Tests", JBES 12(2): p = Φ(polynomial in τ), a quadratic left of τ* and a cubic
 * right of it; 0 below τ_min and 1 above τ_max, where the fitted polynomials stop being reliable.
 */

export type AdfLevel = '1%' | '5%' | '10%';
export const ADF_LEVELS: readonly AdfLevel[] = ['1%', '5%', '10%'];

/** Deterministic terms in the ADF regression: none, a constant, or a constant and a linear trend. */
export type AdfRegression = 'n' | 'c' | 'ct';
export const ADF_REGRESSIONS: readonly AdfRegression[] = ['n', 'c', 'ct'];

type Surface = readonly [number, number, number, number];

const RESPONSE_SURFACE: Record<AdfRegression, Record<AdfLevel, Surface>> = {
  n: {
    '1%': [-2.56574, -2.2358, -3.627, 0],
    '5%': [-1.941, -0.2686, -3.365, 31.223],
    '10%': [-1.61682, 0.2656, -2.714, 25.364],
  },
  c: {
    '1%': [-3.43035, -6.5393, -16.786, -79.433],
    '5%': [-2.86154, -2.8903, -4.234, -40.04],
    '10%': [-2.56677, -1.5384, -2.809, 0],
  },
  ct: {
    '1%': [-3.95877, -9.0531, -28.428, -134.155],
    '5%': [-3.41049, -4.3904, -9.036, -45.374],
    '10%': [-3.12705, -2.5856, -3.925, -22.38],
  },
};

/** Finite-sample critical value for T observations in the regression (T = Infinity: asymptotic). */
export function adfCriticalValue(level: AdfLevel, T: number, regression: AdfRegression = 'c'): number {
  const [b0, b1, b2, b3] = RESPONSE_SURFACE[regression][level];
  if (!Number.isFinite(T)) return b0;
  return b0 + b1 / T + b2 / T ** 2 + b3 / T ** 3;
}

export function adfCriticalValues(T: number, regression: AdfRegression = 'c'): Record<AdfLevel, number> {
  return { '1%': adfCriticalValue('1%', T, regression), '5%': adfCriticalValue('5%', T, regression), '10%': adfCriticalValue('10%', T, regression) };
}

interface PValueSurface {
  star: number;
  min: number;
  max: number;
  /** Coefficients of τ⁰, τ¹, τ² (left of τ*). */
  small: readonly number[];
  /** Coefficients of τ⁰ … τ³ (right of τ*). */
  large: readonly number[];
}

// MacKinnon (1994) Tables 3 and 4, N = 1 (the published small-p τ² and large-p τ¹, τ², τ³
// coefficients are scaled by 10⁻², 10⁻¹, 10⁻¹, 10⁻²; they are written here already scaled).
const P_VALUE: Record<AdfRegression, PValueSurface> = {
  n: { star: -1.04, min: -19.04, max: Infinity, small: [0.6344, 1.2378, 0.032496], large: [0.4797, 0.93557, -0.06999, 0.033066] },
  c: { star: -1.61, min: -18.83, max: 2.74, small: [2.1659, 1.4412, 0.038269], large: [1.7339, 0.93202, -0.12745, -0.010368] },
  ct: { star: -2.89, min: -16.18, max: 0.7, small: [3.2512, 1.6047, 0.049588], large: [2.5261, 0.61654, -0.37956, -0.060285] },
};

/** MacKinnon's approximate (asymptotic) p-value of a τ statistic. */
export function adfPValue(tau: number, regression: AdfRegression = 'c'): number {
  const s = P_VALUE[regression];
  if (tau > s.max) return 1;
  if (tau < s.min) return 0;
  const c = tau <= s.star ? s.small : s.large;
  let z = 0;
  for (let i = c.length - 1; i >= 0; i--) z = z * tau + c[i]!;
  return normCdf(z);
}
