import { normCdf, normPdf } from '../numeric/normal';
import { fail, positive, show } from '../numeric/validate';
import { carry, checkOptionMarket, type OptionInput, priceBounds } from './black-scholes';

/**
 * Implied volatility: the σ at which the model price equals a quoted price.
 *
 * The solver works on the out-of-the-money side (an in-the-money price is turned into its
 * out-of-the-money twin by put–call parity, so the intrinsic value does not swamp the digits that
 * carry the volatility) and in total volatility s = σ√T. It starts at the vega-maximising point
 * s* = √(2|ln F/K|) (Manaster & Koehler, 1982) or, for prices below the price there, at the
 * far-tail estimate from ln p ≈ A − (ln F/K)²/(2s²), and takes Halley steps (Newton with the
 * second derivative, volga) on a log transform of the price. Every step keeps a bracket around the
 * root and falls back to bisection when it would leave it, so it never diverges; typically 3–5
 * iterations. Solved when the last step is below `tolerance` in volatility (default 1e-10).
 */

export const DEFAULT_IV_TOLERANCE = 1e-10;
/** Largest total volatility σ√T searched: prices implying more are refused. */
const S_MAX = 40;

export interface ImpliedVolInput extends Omit<OptionInput, 'vol'> {
  /** The option's market price. */
  price: number;
}

export interface ImpliedVolResult {
  vol: number;
  iterations: number;
}

interface Normalised {
  /** Undiscounted forward F and strike K. */
  F: number;
  K: number;
  /** ln(F/K). */
  x: number;
  /** Undiscounted out-of-the-money price to match. */
  v: number;
  /** The out-of-the-money side is a call. */
  call: boolean;
  sqrtT: number;
}

/** Checks the inputs and the no-arbitrage bounds, and maps the quote to its out-of-the-money form. */
function normalise(input: ImpliedVolInput): Normalised {
  checkOptionMarket(input);
  const price = positive('price', input.price);
  const { lower, upper } = priceBounds(input);
  // A price at a bound implies zero or infinite volatility; outside, no volatility fits at all.
  const slack = 1e-12 * Math.max(upper, 1e-300);
  if (!(price > lower + slack && price < upper - slack)) {
    const side = input.type === 'call' ? 'max(S·e^{−qT} − K·e^{−rT}, 0) and S·e^{−qT}' : 'max(K·e^{−rT} − S·e^{−qT}, 0) and K·e^{−rT}';
    const label = input.model === 'black76' ? side.replace(/S·e\^\{−qT\}/g, 'F·e^{−rT}') : side;
    fail(
      `price ${show(price)} is outside the no-arbitrage bounds of this ${input.type}: it must lie strictly between ${show(lower)} and ${show(upper)} (${label}), so no volatility reproduces it.`,
    );
  }
  const T = input.expiry;
  const df = Math.exp(-input.rate * T);
  const F = input.underlying * Math.exp(carry(input) * T);
  const K = input.strike;
  let v = price / df;
  let call = input.type === 'call';
  if (call && F > K) {
    v -= F - K;
    call = false;
  } else if (!call && K > F) {
    v -= K - F;
    call = true;
  }
  if (!(v > 0)) fail(`price ${show(price)} leaves no time value over the intrinsic value once discounted; no volatility reproduces it.`);
  return { F, K, x: Math.log(F / K), v, call, sqrtT: Math.sqrt(T) };
}

/** Undiscounted Black price at total volatility s. */
function blackPrice(n: Normalised, s: number): number {
  const d1 = n.x / s + s / 2;
  const d2 = d1 - s;
  return n.call ? n.F * normCdf(d1) - n.K * normCdf(d2) : n.K * normCdf(-d2) - n.F * normCdf(-d1);
}

/**
 * Safeguarded Halley iteration in total volatility s. Below s* the price falls off like
 * e^{−x²/(2s²)}, so the iteration runs on ln p; above s* the price approaches its upper bound U,
 * so it runs on ln(U − p). Both are close to linear where they are used, which is what keeps the
 * step count low across strikes and expiries. A step that leaves the bracket is replaced by
 * bisection, and after 20 iterations only bisection is used, so the loop always ends.
 */
function solveTotalVol(n: Normalised, tolS: number): { s: number; iterations: number } {
  const { x, v, F, K, call } = n;
  const lnv = Math.log(v);
  const upper = call ? F : K;
  const lnGap = Math.log(upper - v);
  let lo = 0;
  let hi = S_MAX;
  let s: number;
  let lowRegion = false;
  if (x === 0) {
    // At the money: Brenner–Subrahmanyam's s ≈ √(2π)·v/F.
    s = Math.min(2.5066282746310002 * (v / F), S_MAX / 2);
  } else {
    const sStar = Math.sqrt(2 * Math.abs(x));
    const pStar = blackPrice(n, sStar);
    if (pStar <= v) {
      lo = sStar;
      s = sStar;
    } else {
      hi = sStar;
      lowRegion = true;
      // ln p ≈ A − x²/(2s²), anchored at s*.
      const A = Math.log(pStar) + (x * x) / (2 * sStar * sStar);
      s = Math.abs(x) / Math.sqrt(2 * (A - lnv));
      if (!(s > 0 && s < sStar)) s = sStar / 2;
    }
  }
  for (let i = 1; i <= 100; i++) {
    const d1 = x / s + s / 2;
    const d2 = d1 - s;
    const p = call ? F * normCdf(d1) - K * normCdf(d2) : K * normCdf(-d2) - F * normCdf(-d1);
    if (p === v) return { s, iterations: i };
    if (p < v) lo = s;
    else hi = s;
    const vega = F * normPdf(d1);
    const volga = (vega * d1 * d2) / s;
    let step: number;
    if (lowRegion) {
      // g = ln p − ln v: g' = vega/p, g'' = volga/p − g'².
      const g1 = vega / p;
      step = -(Math.log(p) - lnv) / g1;
      step /= 1 + (step * (volga / p - g1 * g1)) / (2 * g1);
    } else {
      // h = ln(U − p) − ln(U − v), with U − p = F·N(−d1) + K·N(d2) computed without cancellation.
      const q = F * normCdf(-d1) + K * normCdf(d2);
      const h1 = -vega / q;
      step = -(Math.log(q) - lnGap) / h1;
      step /= 1 + (step * (-volga / q - h1 * h1)) / (2 * h1);
    }
    if (Math.abs(step) <= tolS) return { s: s + step, iterations: i };
    let next = s + step;
    if (i > 20 || !(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (hi - lo <= tolS) return { s: next, iterations: i };
    s = next;
  }
  return { s, iterations: 100 };
}

export function impliedVol(input: ImpliedVolInput, tolerance = DEFAULT_IV_TOLERANCE): ImpliedVolResult {
  const n = normalise(input);
  const { s, iterations } = solveTotalVol(n, tolerance * n.sqrtT);
  // The bracket tops out at S_MAX: a solution pinned there means the price needs more volatility than that.
  if (s >= S_MAX * (1 - 1e-9)) fail(`price ${show(input.price)} implies a volatility above ${show(S_MAX / n.sqrtT)} (σ√T > ${S_MAX}); check the price and its units.`);
  return { vol: s / n.sqrtT, iterations };
}

/**
 * Plain bisection on σ in [0, maxVol] to the same tolerance: the baseline the benchmark compares
 * against, and an independent check of the Newton solver in the tests.
 */
export function impliedVolBisection(input: ImpliedVolInput, tolerance = DEFAULT_IV_TOLERANCE, maxVol = 5): ImpliedVolResult {
  const n = normalise(input);
  let lo = 0;
  let hi = maxVol;
  if (blackPrice(n, hi * n.sqrtT) < n.v) fail(`price ${show(input.price)} implies a volatility above ${maxVol}.`);
  let iterations = 0;
  while (hi - lo > tolerance) {
    const mid = 0.5 * (lo + hi);
    if (blackPrice(n, mid * n.sqrtT) < n.v) lo = mid;
    else hi = mid;
    iterations++;
  }
  return { vol: 0.5 * (lo + hi), iterations };
}
