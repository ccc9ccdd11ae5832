#!/usr/bin/env node
// Where a spread sits against its own history, and whether it reverts. JSON in on stdin, JSON out on stdout.
//
// Input, one of:
//   {"series": [1.2, 1.5, ...]}                          // a spread already computed (oldest first)
//   {"a": [...], "b": [...], "hedge_ratio": 1.0}         // spread = a − hedge_ratio · b
//   {"a": [...], "b": [...], "hedge_ratio": "ols"}       // hedge ratio fitted by least squares of a on b
// Options: "lookback" (use only the last N points), "entry_z" (default 2: the stretch that counts as a signal),
//          "adf_level" ("1%", "5%" default, "10%"), "adf_lags" (a whole number, or "aic" default).
// Output: mean, sample stdev, current value, z-score, percentile, AR(1) half-life, and an augmented
// Dickey–Fuller unit-root test. The spread is called mean-reverting ONLY when the ADF test rejects a
// unit root at adf_level: a random walk's AR(1) phi is biased below 1 and always gives a finite
// half-life, so the half-life alone is not evidence of reversion.
//
// The ADF rule is the same as Forge's analytics library (src-main/providers/analytics/relative-value):
//   Δy_t = α + γ·y_{t−1} + Σ_{i=1..p} δ_i·Δy_{t−i} + ε_t, τ = γ̂/se(γ̂); p by AIC over 0..⌊12(n/100)^¼⌋
//   on a common sample, then re-estimated on all usable rows; critical values from MacKinnon (2010)
//   C(T) = β∞ + β1/T + β2/T² + β3/T³ (constant, N = 1), p-value from MacKinnon (1994).
import { pathToFileURL } from 'node:url';

export class InputError extends Error {}

const numbers = (v, name) => {
  if (!Array.isArray(v)) throw new InputError(`"${name}" must be a list of numbers`);
  if (v.length > 100000) throw new InputError(`"${name}" is longer than 100000 points`);
  return v.map((x, i) => {
    if (typeof x !== 'number' || !Number.isFinite(x)) throw new InputError(`${name}[${i}] is not a finite number`);
    return x;
  });
};

const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** Least squares y = intercept + slope · x; slope is null when x does not vary. */
export function ols(x, y) {
  const mx = mean(x);
  const my = mean(y);
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < x.length; i++) {
    sxx += (x[i] - mx) ** 2;
    sxy += (x[i] - mx) * (y[i] - my);
  }
  if (sxx === 0) return { slope: null, intercept: null };
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx };
}

/** AR(1) fit s_t = c + φ·s_{t−1}; half-life of a deviation = ln(0.5) / ln|φ| when |φ| < 1. Descriptive only. */
export function ar1(series) {
  if (series.length < 3) return { phi: null, intercept: null, half_life: null, oscillating: false };
  const { slope, intercept } = ols(series.slice(0, -1), series.slice(1));
  if (slope === null) return { phi: null, intercept: null, half_life: null, oscillating: false };
  const a = Math.abs(slope);
  return {
    phi: slope,
    intercept,
    half_life: slope === 0 ? 0 : a < 1 ? Math.log(0.5) / Math.log(a) : null,
    oscillating: slope < 0,
  };
}

/** Least squares by Householder QR on columns; returns beta, ssr and the diagonal of (XᵀX)⁻¹, or null if columns are dependent. */
export function leastSquares(columns, y) {
  const k = columns.length;
  const n = y.length;
  if (n < k) return null;
  const a = columns.map((c) => Float64Array.from(c));
  const b = Float64Array.from(y);
  const norms = a.map((c) => Math.sqrt(c.reduce((s, v) => s + v * v, 0)));
  const rdiag = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    let ss = 0;
    for (let i = j; i < n; i++) ss += a[j][i] ** 2;
    const norm = Math.sqrt(ss);
    if (!(norm > 1e-12 * norms[j])) return null;
    const alpha = a[j][j] > 0 ? -norm : norm;
    a[j][j] -= alpha;
    let vv = 0;
    for (let i = j; i < n; i++) vv += a[j][i] ** 2;
    for (let c = j + 1; c < k; c++) {
      let dot = 0;
      for (let i = j; i < n; i++) dot += a[j][i] * a[c][i];
      const f = (2 * dot) / vv;
      for (let i = j; i < n; i++) a[c][i] -= f * a[j][i];
    }
    let dot = 0;
    for (let i = j; i < n; i++) dot += a[j][i] * b[i];
    const f = (2 * dot) / vv;
    for (let i = j; i < n; i++) b[i] -= f * a[j][i];
    rdiag[j] = alpha;
  }
  const beta = new Array(k).fill(0);
  for (let j = k - 1; j >= 0; j--) {
    let s = b[j];
    for (let c = j + 1; c < k; c++) s -= a[c][j] * beta[c];
    beta[j] = s / rdiag[j];
  }
  let ssr = 0;
  for (let i = k; i < n; i++) ssr += b[i] ** 2;
  // (XᵀX)⁻¹ = R⁻¹R⁻ᵀ: its diagonal is the squared row norms of R⁻¹.
  const rinv = Array.from({ length: k }, () => new Float64Array(k));
  for (let j = k - 1; j >= 0; j--) {
    rinv[j][j] = 1 / rdiag[j];
    for (let c = j + 1; c < k; c++) {
      let s = 0;
      for (let m = j + 1; m <= c; m++) s += a[m][j] * rinv[m][c];
      rinv[j][c] = -s / rdiag[j];
    }
  }
  const invDiag = rinv.map((row, j) => row.slice(j).reduce((s, v) => s + v * v, 0));
  return { beta, ssr, invDiag };
}

/** Standard normal CDF (Hart 1968 / West 2005). */
function normCdf(x) {
  const z = Math.abs(x);
  let tail = 0;
  if (z <= 37) {
    const e = Math.exp(-0.5 * z * z);
    if (z < 7.07106781186547) {
      const n = (((((0.0352624965998911 * z + 0.700383064443688) * z + 6.37396220353165) * z + 33.912866078383) * z + 112.079291497871) * z + 221.213596169931) * z + 220.206867912376;
      const d = ((((((0.0883883476483184 * z + 1.75566716318264) * z + 16.064177579207) * z + 86.7807322029461) * z + 296.564248779674) * z + 637.333633378831) * z + 793.826512519948) * z + 440.413735824752;
      tail = (e * n) / d;
    } else tail = e / (z + 1 / (z + 2 / (z + 3 / (z + 4 / (z + 0.65))))) / 2.506628274631;
  }
  return x > 0 ? 1 - tail : tail;
}

const LEVELS = ['1%', '5%', '10%'];
// MacKinnon (2010), τ_c for N = 1: β∞, β1, β2, β3.
const SURFACE = { '1%': [-3.43035, -6.5393, -16.786, -79.433], '5%': [-2.86154, -2.8903, -4.234, -40.04], '10%': [-2.56677, -1.5384, -2.809, 0] };

export function adfCriticalValue(level, T) {
  const [b0, b1, b2, b3] = SURFACE[level];
  return b0 + b1 / T + b2 / T ** 2 + b3 / T ** 3;
}

/** MacKinnon (1994) approximate p-value for the constant-only τ statistic. */
export function adfPValue(tau) {
  if (tau > 2.74) return 1;
  if (tau < -18.83) return 0;
  const c = tau <= -1.61 ? [2.1659, 1.4412, 0.038269] : [1.7339, 0.93202, -0.12745, -0.010368];
  let z = 0;
  for (let i = c.length - 1; i >= 0; i--) z = z * tau + c[i];
  return normCdf(z);
}

export const MIN_ADF_OBSERVATIONS = 20;

function adfRegression(y, dy, p, start) {
  const rows = dy.length - start;
  const cols = [new Array(rows).fill(1), y.slice(start, start + rows)];
  for (let i = 1; i <= p; i++) cols.push(dy.slice(start - i, start - i + rows));
  const fit = leastSquares(cols, dy.slice(start));
  if (!fit) return null;
  const k = cols.length;
  return { ssr: fit.ssr, nobs: rows, k, gamma: fit.beta[1], se: Math.sqrt((fit.ssr / (rows - k)) * fit.invDiag[1]) };
}

/** Augmented Dickey–Fuller test with a constant. lags: a whole number, or 'aic'. */
export function adf(series, lags = 'aic') {
  const n = series.length;
  if (n < MIN_ADF_OBSERVATIONS) throw new InputError(`a unit-root test needs at least ${MIN_ADF_OBSERVATIONS} observations; got ${n}`);
  const dy = series.slice(1).map((v, t) => v - series[t]);
  const maxLag = Math.max(0, Math.min(Math.floor(12 * (n / 100) ** 0.25), Math.floor(n / 2) - 3));
  let p = 0;
  if (lags === 'aic') {
    let best = Infinity;
    for (let q = 0; q <= maxLag; q++) {
      const r = adfRegression(series, dy, q, maxLag);
      if (!r) continue;
      const llf = (-r.nobs / 2) * (Math.log(2 * Math.PI) + Math.log(r.ssr / r.nobs) + 1);
      const aic = -2 * llf + 2 * r.k;
      if (aic < best - 1e-12) {
        best = aic;
        p = q;
      }
    }
  } else {
    const most = Math.floor(n / 2) - 3;
    if (!Number.isInteger(lags) || lags < 0 || lags > most) throw new InputError(`"adf_lags" must be "aic" or a whole number from 0 to ${most}`);
    p = lags;
  }
  const r = adfRegression(series, dy, p, p);
  if (!r) throw new InputError('the spread does not vary enough for a unit-root test');
  const statistic = r.ssr === 0 ? (r.gamma < 0 ? -Infinity : Infinity) : r.gamma / r.se;
  const critical_values = Object.fromEntries(LEVELS.map((l) => [l, adfCriticalValue(l, r.nobs)]));
  return {
    statistic,
    p_value: adfPValue(statistic),
    lags: p,
    lag_selection: lags === 'aic' ? 'aic' : 'fixed',
    nobs: r.nobs,
    critical_values,
    rejects_unit_root: Object.fromEntries(LEVELS.map((l) => [l, statistic < critical_values[l]])),
  };
}

export function zscore(input) {
  if (typeof input !== 'object' || input === null) throw new InputError('input must be an object');
  let series;
  let hedgeRatio = null;
  if (input.series !== undefined) {
    series = numbers(input.series, 'series');
  } else if (input.a !== undefined && input.b !== undefined) {
    let a = numbers(input.a, 'a');
    let b = numbers(input.b, 'b');
    if (a.length !== b.length) throw new InputError(`"a" has ${a.length} points and "b" has ${b.length}; they must align`);
    if (Number.isInteger(input.lookback) && input.lookback > 0) {
      a = a.slice(-input.lookback);
      b = b.slice(-input.lookback);
    }
    if (input.hedge_ratio === 'ols') {
      if (a.length < 3) throw new InputError('fitting a hedge ratio needs at least 3 points');
      hedgeRatio = ols(b, a).slope;
      if (hedgeRatio === null) throw new InputError('"b" does not move over the window, so no hedge ratio can be fitted');
    } else if (input.hedge_ratio === undefined) hedgeRatio = 1;
    else if (typeof input.hedge_ratio === 'number' && Number.isFinite(input.hedge_ratio)) hedgeRatio = input.hedge_ratio;
    else throw new InputError('"hedge_ratio" must be a number or "ols"');
    series = a.map((x, i) => x - hedgeRatio * b[i]);
  } else {
    throw new InputError('give either "series" or both "a" and "b"');
  }
  if (input.lookback !== undefined) {
    if (!Number.isInteger(input.lookback) || input.lookback < 3) throw new InputError('"lookback" must be an integer of at least 3');
    series = series.slice(-input.lookback);
  }
  if (series.length < 3) throw new InputError(`need at least 3 observations; got ${series.length}`);
  const entryZ = input.entry_z === undefined ? 2 : input.entry_z;
  if (typeof entryZ !== 'number' || !(entryZ > 0)) throw new InputError('"entry_z" must be a positive number');
  const level = input.adf_level === undefined ? '5%' : input.adf_level;
  if (!LEVELS.includes(level)) throw new InputError('"adf_level" must be "1%", "5%" or "10%"');
  const lags = input.adf_lags === undefined ? 'aic' : input.adf_lags;
  if (lags !== 'aic' && !Number.isInteger(lags)) throw new InputError('"adf_lags" must be "aic" or a whole number');

  const m = mean(series);
  const sd = Math.sqrt(series.reduce((s, x) => s + (x - m) ** 2, 0) / (series.length - 1));
  const current = series[series.length - 1];
  const z = sd > 0 ? (current - m) / sd : null;
  const atOrBelow = series.filter((x) => x <= current).length;
  const fit = ar1(series);
  const notes = [];
  let test = null;
  if (sd === 0) notes.push('The spread never moved over the window; a z-score is meaningless and no unit-root test can run.');
  else if (series.length >= MIN_ADF_OBSERVATIONS) test = adf(series, lags);
  else notes.push(`Only ${series.length} observations: too few for a unit-root test (need ${MIN_ADF_OBSERVATIONS}), so mean reversion is not claimed.`);
  const meanReverting = test !== null && test.rejects_unit_root[level] && fit.half_life !== null;
  if (test && !test.rejects_unit_root[level]) {
    notes.push(
      `ADF does not reject a unit root at ${level} (tau ${test.statistic.toFixed(2)} vs critical ${test.critical_values[level].toFixed(2)}): the spread may not revert, and the AR(1) half-life is not evidence that it will. A stretched z may keep stretching.`,
    );
  }
  if (series.length < 60) notes.push(`Only ${series.length} observations: treat the z-score and half-life as rough.`);
  return {
    n: series.length,
    hedge_ratio: hedgeRatio,
    mean: m,
    stdev: sd,
    min: Math.min(...series),
    max: Math.max(...series),
    current,
    z,
    percentile: (100 * atOrBelow) / series.length,
    ar1: { ...fit, mean_reverting: meanReverting },
    adf: test,
    adf_level: level,
    mean_reverting: meanReverting,
    stretched: z !== null && Math.abs(z) >= entryZ,
    direction: z === null ? 'flat' : z > 0 ? 'above mean' : z < 0 ? 'below mean' : 'at mean',
    notes,
  };
}

async function main() {
  let raw = '';
  for await (const chunk of process.stdin) raw += chunk;
  try {
    let input;
    try {
      input = JSON.parse(raw || 'null');
    } catch {
      throw new InputError('the input is not valid JSON');
    }
    process.stdout.write(JSON.stringify(zscore(input)) + '\n');
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    process.stdout.write(JSON.stringify({ error: e.message }) + '\n');
    process.exitCode = 2;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
