import { leastSquares } from '../numeric/least-squares';
import { fail, numberList } from '../numeric/validate';
import { ADF_LEVELS, ADF_REGRESSIONS, type AdfLevel, type AdfRegression, adfCriticalValues, adfPValue } from './mackinnon';

/**
 * Augmented Dickey–Fuller test (Said & Dickey, 1984):
 *   Δy_t = [α] + [β·t] + γ·y_{t−1} + Σ_{i=1..p} δ_i·Δy_{t−i} + ε_t,   H0: γ = 0 (a unit root),
 * with the deterministic terms chosen by `regression`: 'c' a constant (default), 'ct' a constant
 * and a linear trend (a trend-stationary alternative), 'n' neither (a series that reverts to 0).
 * Each has its own MacKinnon table; t is the observation's index (τ does not depend on its origin
 * once a constant is in the regression).
 * The lag order p is fixed, or chosen by AIC over 0..maxLag on a common sample (then the chosen
 * regression is re-run on all the observations it can use), as statsmodels' adfuller does.
 * maxLag defaults to Schwert's ⌊12·(n/100)^{1/4}⌋. The τ statistic is compared with MacKinnon's
 * finite-sample critical values for the number of observations in the regression.
 */

export const MIN_ADF_OBSERVATIONS = 20;

export interface AdfOptions {
  /** A fixed lag order, or 'aic' (default). */
  lags?: number | 'aic';
  /** Upper bound of the AIC search. */
  maxLag?: number;
  /** Deterministic terms: 'c' constant (default), 'ct' constant and trend, 'n' none. */
  regression?: AdfRegression;
}

export interface AdfResult {
  /** The τ statistic: γ̂ / se(γ̂). */
  statistic: number;
  /** Approximate p-value (MacKinnon 1994). */
  pValue: number;
  /** γ̂, the coefficient on the lagged level (φ − 1 in AR(1) terms). */
  gamma: number;
  lags: number;
  lagSelection: 'aic' | 'fixed';
  regression: AdfRegression;
  /** Observations in the test regression. */
  nobs: number;
  criticalValues: Record<AdfLevel, number>;
  /** Whether the unit root is rejected at each level (τ below the critical value). */
  rejects: Record<AdfLevel, boolean>;
}

interface Regression {
  ssr: number;
  nobs: number;
  k: number;
  gamma: number;
  seGamma: number;
}

/** Runs the ADF regression with p lags on the rows from `start` (an index into Δy) to the end. */
function regress(y: readonly number[], dy: readonly number[], p: number, start: number, withSe: boolean, regression: AdfRegression): Regression | null {
  const rows = dy.length - start;
  const level = new Float64Array(rows);
  const trend = new Float64Array(rows);
  const response = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    const t = start + r;
    level[r] = y[t]!;
    trend[r] = t + 1;
    response[r] = dy[t]!;
  }
  // The lagged level goes first so γ is always beta[0], whatever the deterministic terms.
  const cols: Float64Array[] = [level];
  if (regression !== 'n') cols.push(new Float64Array(rows).fill(1));
  if (regression === 'ct') cols.push(trend);
  for (let i = 1; i <= p; i++) {
    const c = new Float64Array(rows);
    for (let r = 0; r < rows; r++) c[r] = dy[start + r - i]!;
    cols.push(c);
  }
  const fit = leastSquares(cols, response, { inverseDiag: withSe });
  if (!fit) return null;
  const k = cols.length;
  const se = withSe ? Math.sqrt((fit.ssr / (rows - k)) * fit.xtxInvDiag![0]!) : Number.NaN;
  return { ssr: fit.ssr, nobs: rows, k, gamma: fit.beta[0]!, seGamma: se };
}

export function defaultMaxLag(n: number): number {
  return Math.max(0, Math.min(Math.floor(12 * (n / 100) ** 0.25), Math.floor(n / 2) - 3));
}

export function adfTest(series: readonly number[], options: AdfOptions = {}): AdfResult {
  const y = numberList('series', series, MIN_ADF_OBSERVATIONS);
  const n = y.length;
  const regression = options.regression ?? 'c';
  if (!ADF_REGRESSIONS.includes(regression))
    fail(`regression must be 'c' (constant), 'ct' (constant and trend) or 'n' (none); got ${JSON.stringify(options.regression)}.`);
  const dy: number[] = [];
  for (let t = 0; t < n - 1; t++) dy.push(y[t + 1]! - y[t]!);
  let lags: number;
  const selection = options.lags === undefined || options.lags === 'aic' ? 'aic' : 'fixed';
  if (selection === 'fixed') {
    lags = options.lags as number;
    const most = Math.floor(n / 2) - 3;
    if (!Number.isInteger(lags) || lags < 0 || lags > most)
      fail(`lags must be a whole number from 0 to ${most} for ${n} observations (got ${String(options.lags)}).`);
  } else {
    const maxLag = options.maxLag ?? defaultMaxLag(n);
    if (!Number.isInteger(maxLag) || maxLag < 0 || maxLag > defaultMaxLag(n))
      fail(`maxLag must be a whole number from 0 to ${defaultMaxLag(n)} for ${n} observations.`);
    let best = Infinity;
    lags = 0;
    for (let p = 0; p <= maxLag; p++) {
      const r = regress(y, dy, p, maxLag, false, regression);
      if (!r) continue;
      // Gaussian log-likelihood; AIC = −2·llf + 2k.
      const llf = (-r.nobs / 2) * (Math.log(2 * Math.PI) + Math.log(r.ssr / r.nobs) + 1);
      const aic = -2 * llf + 2 * r.k;
      if (aic < best - 1e-12) {
        best = aic;
        lags = p;
      }
    }
  }
  const r = regress(y, dy, lags, lags, true, regression);
  if (!r) fail('the series does not vary enough for a unit-root test (its level or changes are constant).');
  const statistic = r.ssr === 0 ? (r.gamma < 0 ? -Infinity : Infinity) : r.gamma / r.seGamma;
  const criticalValues = adfCriticalValues(r.nobs, regression);
  const rejects = Object.fromEntries(ADF_LEVELS.map((l) => [l, statistic < criticalValues[l]])) as Record<AdfLevel, boolean>;
  return {
    statistic,
    pValue: adfPValue(statistic, regression),
    gamma: r.gamma,
    lags,
    lagSelection: selection,
    regression,
    nobs: r.nobs,
    criticalValues,
    rejects,
  };
}
