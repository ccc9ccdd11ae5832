import { millsRatio, normCdf, normTail, scaledPdf } from '../numeric/normal';

/**
 * The undiscounted Black price of the out-of-the-money option, computed without cancellation so
 * that wing prices keep full relative precision (down to about 1e−300).
 *
 * With Jäckel's normalisation ("Let's be rational", 2015), x = −|ln(F/K)|, h = x/s, t = s/2 and
 * s = σ√T, the out-of-the-money price is √(FK)·b with
 *   b = e^{x/2}·Φ(h+t) − e^{−x/2}·Φ(h−t) = φ(h)·e^{−t²/2}·[M(h+t) − M(h−t)],
 * M(y) = Φ(y)/φ(y) the Mills ratio. The two M terms are computed from erfcx, so the exponentials
 * that make F·Φ(d1) and K·Φ(d2) nearly equal are factored out exactly. When the two M terms are
 * still close (small t against |h|, i.e. short-dated or far wings), their difference is summed as
 * the odd Taylor series 2·Σ M^{(n)}(h)·tⁿ/n!, whose derivatives M^{(n)}(h) = ∫₀^∞ uⁿe^{hu−u²/2}du
 * are all positive, so no term cancels.
 */

export interface OtmBlack {
  /** Out-of-the-money price (undiscounted). */
  p: number;
  /** Upper bound minus price, U − p, with U = min(F, K) (undiscounted); no cancellation either. */
  q: number;
  /** ∂p/∂s. */
  vega: number;
  /** h + t and h − t: d1 and d2 of the out-of-the-money call (their product gives volga). */
  d1: number;
  d2: number;
}

/** M(y) = Φ(y)/φ(y) for y ≤ 5 (beyond, the direct formula is used). */
function mills(y: number): number {
  return millsRatio(-y);
}

// I_n = M^{(n)}(h) for n = 0..N, reused between calls (the solver calls this in a loop).
const I = new Float64Array(64);

/**
 * Fills I[0..n] with M^{(n)}(h), h ≤ 0. Near h = 0 the forward recurrence I_{n+1} = h·I_n + n·I_{n−1}
 * is stable; further out it cancels, and the ratios r_n = I_n/I_{n−1} = n/(|h| + r_{n+1}) are run
 * backwards from deep enough (Gautschi's continued-fraction form of Miller's algorithm), where every
 * term is positive.
 */
function millsDerivatives(h: number, m0: number, n: number): void {
  I[0] = m0;
  const z = -h;
  if (z < 1) {
    I[1] = 1 + h * m0;
    for (let k = 1; k < n; k++) I[k + 1] = h * I[k] + k * I[k - 1];
    return;
  }
  // The backward ratios converge like e^{−2z√N}·e^{z²/2}: N from 2z√N ≥ 40 + z²/2.
  const rootN = (40 + 0.5 * z * z) / (2 * z);
  const N = Math.max(n + 10, Math.ceil(rootN * rootN) + 10);
  let r = 0;
  for (let k = N; k > n; k--) r = k / (z + r);
  // r now holds r_{n+1}; collect r_n..r_1, then multiply up from I_0.
  const ratios = RATIOS;
  for (let k = n; k >= 1; k--) {
    r = k / (z + r);
    ratios[k] = r;
  }
  for (let k = 1; k <= n; k++) I[k] = I[k - 1] * ratios[k];
}
const RATIOS = new Float64Array(64);

/** M(h+t) − M(h−t) by its odd Taylor series in t around h (h ≤ 0, t small against max(1, |h|)). */
function millsDifferenceSeries(h: number, t: number, m0: number): number {
  const n = 41;
  millsDerivatives(h, m0, n);
  let sum = 0;
  let power = t; // tⁿ/n!
  for (let k = 1; k <= n; k += 2) {
    const term = I[k] * power;
    sum += term;
    if (term <= 1e-17 * sum) break;
    power *= (t * t) / ((k + 1) * (k + 2));
  }
  return 2 * sum;
}

/** Splits a into a high part with 26 significant bits and the exact remainder (Veltkamp). */
function split(a: number): [number, number] {
  const c = 134217729 * a;
  const hi = c - (c - a);
  return [hi, a - hi];
}

/**
 * ln(F/K), correcting for the rounding of the quotient: far in the wings the price's sensitivity to
 * ln(F/K) is |ln(F/K)|/s², so half an ulp in F/K would otherwise cost up to 1e−10 of the price.
 */
export function logMoneyness(F: number, K: number): number {
  const r = F / K;
  const x = Math.log(r);
  if (!(Math.abs(F) < 1e290 && Math.abs(K) < 1e290 && Math.abs(K) > 1e-290)) return x;
  // F − r·K exactly (Dekker's product; F − p is exact as p ≈ F), so ln(F/K) = ln r + (F − r·K)/F to first order.
  const p = r * K;
  const [rh, rl] = split(r);
  const [kh, kl] = split(K);
  const err = rh * kh - p + rh * kl + rl * kh + rl * kl;
  return x + (F - p - err) / F;
}

export function otmBlack(F: number, K: number, s: number, out: OtmBlack): OtmBlack {
  const lo = Math.min(F, K);
  const hi = Math.max(F, K);
  const x = -Math.abs(logMoneyness(F, K));
  const h = x / s;
  const t = 0.5 * s;
  const d1 = h + t;
  const d2 = h - t;
  const root = Math.sqrt(F) * Math.sqrt(K);
  const gauss = Math.exp(-0.5 * t * t);
  out.d1 = d1;
  out.d2 = d2;
  out.vega = scaledPdf(h, root * gauss);
  // Φ(−d1) and Φ(d2) are both tails here: q never cancels.
  const tail2 = normTail(-d2);
  out.q = lo * normCdf(-d1) + hi * tail2;
  if (d1 > 5) {
    // Φ(d1) > 1 − 3e−7 and hi·Φ(d2) is below lo·φ(d1)/|d2|: the direct formula does not cancel.
    out.p = lo * (1 - normTail(d1)) - hi * tail2;
    return out;
  }
  const mPlus = mills(d1);
  const mMinus = mills(d2);
  // Differences where M(h−t) is at most 3/4 of M(h+t) lose at most 2 bits; closer ones use the series.
  const diff = mMinus <= 0.75 * mPlus ? mPlus - mMinus : millsDifferenceSeries(h, t, mills(h));
  out.p = scaledPdf(h, root * gauss * diff);
  return out;
}
