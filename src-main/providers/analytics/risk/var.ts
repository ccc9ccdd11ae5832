import { normCdf, normPdf } from '../numeric/normal';
import { fail, finite, numberList } from '../numeric/validate';

/**
 * Value at risk and expected shortfall of one period's profit and loss.
 *
 * Conventions (stated in every report, because VaR numbers differ by them):
 * - Loss is positive: L = −return (or −P&L). A VaR of 0.023 means a 2.3% loss.
 * - α is the confidence level (0.99 = 99% VaR): VaR_α is the α-quantile of the loss.
 * - Historical: losses sorted ascending L(1) ≤ … ≤ L(n); VaR = L(k) with k = ⌈n·α⌉, the lower
 *   empirical quantile inf{x : F_n(x) ≥ α} (Hyndman–Fan type 1, no interpolation). ES is the
 *   empirical average of the quantile over (α, 1] (Acerbi & Tasche, 2002):
 *   ES = [Σ_{i>k} L(i) + (k − n·α)·L(k)] / (n·(1 − α)); when n·α is whole this is the mean of the
 *   n·(1 − α) worst losses. (Hull's 500-scenario convention takes the 5th worst loss as the 99%
 *   VaR, i.e. L(n·α + 1); this rule takes L(n·α), the 6th worst: the two are named, not mixed.)
 * - Parametric normal: L ~ N(−μ, σ²) so VaR = −μ + σ·z_α and ES = −μ + σ·φ(z_α)/(1 − α), with μ and
 *   σ given, or estimated from the returns (sample mean, sample stdev with n − 1).
 * Both scale by `value` (the position size) when given; neither is scaled in time here.
 */

export const HISTORICAL_RULE = 'lower empirical quantile: VaR = L(k), k = ⌈n·α⌉ of the ascending losses L = −return; ES = Acerbi–Tasche tail average';
export const NORMAL_RULE = 'normal: VaR = −μ + σ·z_α, ES = −μ + σ·φ(z_α)/(1 − α)';

export const MIN_HISTORICAL_OBSERVATIONS = 10;

export interface HistoricalVar {
  method: 'historical';
  confidence: number;
  n: number;
  /** The order statistic used, 1-based in ascending losses. */
  k: number;
  /** How many losses are strictly worse than the VaR one (n − k). */
  tailCount: number;
  var: number;
  es: number;
  rule: string;
}

export interface NormalVar {
  method: 'normal';
  confidence: number;
  mean: number;
  stdev: number;
  z: number;
  var: number;
  es: number;
  rule: string;
}

function checkConfidence(confidence: unknown): number {
  const a = finite('confidence', confidence);
  if (!(a > 0.5 && a < 1)) fail(`confidence must be between 0.5 and 1 (0.99 = 99% VaR; got ${a}).`);
  return a;
}

function scale(value: number | undefined): number {
  if (value === undefined) return 1;
  const v = finite('value', value);
  if (!(v > 0)) fail(`value (the position size) must be positive (got ${v}).`);
  return v;
}

/**
 * Standard normal quantile: Acklam's rational approximation as a start, then Newton steps on
 * normCdf, so the result is as accurate as the CDF (about 1e-14 absolute) whatever the start.
 */
export function normQuantile(p: number): number {
  if (!(p > 0 && p < 1)) fail(`a normal quantile needs a probability strictly between 0 and 1 (got ${p}).`);
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) =>
    (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  let x: number;
  if (p < 0.02425) x = tail(Math.sqrt(-2 * Math.log(p)));
  else if (p > 1 - 0.02425) x = -tail(Math.sqrt(-2 * Math.log(1 - p)));
  else {
    const q = p - 0.5;
    const r = q * q;
    x =
      ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
      (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
  }
  for (let i = 0; i < 3; i++) {
    const pdf = normPdf(x);
    if (!(pdf > 0)) break;
    x -= (normCdf(x) - p) / pdf;
  }
  return x;
}

/** Historical VaR and ES of a list of returns (or P&L), oldest first; the order does not matter. */
export function historicalVar(returns: readonly number[], confidence = 0.99, value?: number): HistoricalVar {
  const r = numberList('returns', returns, MIN_HISTORICAL_OBSERVATIONS);
  const a = checkConfidence(confidence);
  const v = scale(value);
  const n = r.length;
  const losses = r.map((x) => -x * v).sort((x, y) => x - y);
  // n·α in floating point can land a hair above a whole number (0.07·100 = 7.000000000000001).
  const na = n * a;
  const k = Math.min(n, Math.max(1, Math.ceil(na - 1e-9)));
  if (n - na < 1 - 1e-9)
    fail(`${n} returns cannot estimate a ${a * 100}% historical VaR: fewer than one observation lies beyond it; give at least ${Math.ceil(1 / (1 - a))}.`);
  let tail = 0;
  for (let i = k; i < n; i++) tail += losses[i]!;
  const weightK = k - na;
  const es = (tail + Math.max(0, weightK) * losses[k - 1]!) / (n * (1 - a));
  return { method: 'historical', confidence: a, n, k, tailCount: n - k, var: losses[k - 1]!, es, rule: HISTORICAL_RULE };
}

/** Normal VaR and ES from a mean and standard deviation of the return (or P&L) over the period. */
export function normalVar(mean: number, stdev: number, confidence = 0.99, value?: number): NormalVar {
  const mu = finite('mean', mean);
  const sigma = finite('stdev', stdev);
  if (!(sigma > 0)) fail(`stdev must be positive (got ${sigma}).`);
  const a = checkConfidence(confidence);
  const v = scale(value);
  const z = normQuantile(a);
  return {
    method: 'normal',
    confidence: a,
    mean: mu * v,
    stdev: sigma * v,
    z,
    var: (-mu + sigma * z) * v,
    es: (-mu + (sigma * normPdf(z)) / (1 - a)) * v,
    rule: NORMAL_RULE,
  };
}

/** Sample mean and standard deviation (n − 1), for the normal method fitted to returns. */
export function sampleMoments(returns: readonly number[]): { mean: number; stdev: number } {
  const r = numberList('returns', returns, 2);
  const mean = r.reduce((s, x) => s + x, 0) / r.length;
  const variance = r.reduce((s, x) => s + (x - mean) ** 2, 0) / (r.length - 1);
  return { mean, stdev: Math.sqrt(variance) };
}
