import { fail, positive, show } from '../numeric/validate';
import { carry, checkOptionMarket, type OptionInput } from './black-scholes';
import { otmBlack } from './black-otm';
import { totalVolFromNormalisedPrice } from './lets-be-rational';
import { normalisedBlack } from './normalised-black';

/**
 * Implied volatility: the σ at which the model price equals a quoted price.
 *
 * The quote is turned into its out-of-the-money twin by put–call parity (so the intrinsic value does
 * not swamp the digits that carry the volatility), normalised by √(F·K), and inverted with Jäckel's
 * "Let's be rational" scheme (lets-be-rational.ts): a rational-cubic starting guess on one of four
 * price segments, then two Householder steps of order 4 — machine precision in total volatility
 * s = σ√T, whatever the strike or expiry.
 *
 * Should that ever not give a finite positive answer (a normalised price below 1e−300, say), the
 * older safeguarded Halley iteration takes over: it starts at the vega-maximising point
 * s* = √(2|ln F/K|) (Manaster & Koehler, 1982) or at a far-tail estimate, runs on ln p or ln(U − p),
 * keeps a bracket and falls back to bisection, so it never diverges; it stops when a step is below
 * `tolerance` in volatility (default 1e−10).
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
  /** ln(F/K). (Its rounding moves an implied vol by ~1e−16 relative: no correction needed here.) */
  x: number;
  /** Undiscounted out-of-the-money price to match. */
  v: number;
  /** Its distance to the out-of-the-money upper bound min(F, K), undiscounted. */
  gap: number;
  /** The out-of-the-money side is a call. */
  call: boolean;
  sqrtT: number;
}

/**
 * The happy-path test of every field checkOptionMarket and positive('price') check, as plain
 * comparisons (NaN fails each one): the solver is called in bulk, and the named checks, which
 * build the messages, only run when something is wrong.
 */
function plainlyValid(i: ImpliedVolInput): boolean {
  return (
    (i.model === 'bsm' || i.model === 'black76') &&
    (i.type === 'call' || i.type === 'put') &&
    num(i.underlying, 0, Number.MAX_VALUE) &&
    num(i.strike, 0, Number.MAX_VALUE) &&
    num(i.expiry, 0, 100) &&
    num(i.rate, -1.0000001, 1) &&
    (i.dividendYield === undefined || (num(i.dividendYield, -1.0000001, 1) && (i.model === 'bsm' || i.dividendYield === 0))) &&
    num(i.price, 0, Number.MAX_VALUE)
  );
}

function num(x: unknown, lo: number, hi: number): boolean {
  return typeof x === 'number' && x > lo && x <= hi;
}

/**
 * Checks the inputs and the no-arbitrage bounds, and writes the quote's out-of-the-money form into
 * `n` (one reused object, so a solve in a bulk loop allocates nothing for it).
 */
function normalise(input: ImpliedVolInput, n: Normalised): Normalised {
  if (!plainlyValid(input)) {
    checkOptionMarket(input);
    positive('price', input.price);
  }
  const price = input.price;
  const T = input.expiry;
  const df = Math.exp(-input.rate * T);
  // S·e^{−qT} (or F·e^{−rT}): the discounted forward, from one more exponential.
  const fwdPv = input.underlying * Math.exp((carry(input) - input.rate) * T);
  const K = input.strike;
  const kPv = K * df;
  const call = input.type === 'call';
  const lower = Math.max(call ? fwdPv - kPv : kPv - fwdPv, 0);
  const upper = call ? fwdPv : kPv;
  // A price at a bound implies zero or infinite volatility; outside, no volatility fits at all.
  // Every price strictly inside is accepted: the out-of-the-money form below keeps its digits.
  if (!(price > lower && price < upper)) {
    const side = call ? 'max(S·e^{−qT} − K·e^{−rT}, 0) and S·e^{−qT}' : 'max(K·e^{−rT} − S·e^{−qT}, 0) and K·e^{−rT}';
    const label = input.model === 'black76' ? side.replace(/S·e\^\{−qT\}/g, 'F·e^{−rT}') : side;
    const where = price <= lower ? 'at or below the lower bound' : 'at or above the upper bound';
    fail(
      `price ${price} is outside the no-arbitrage bounds of this ${input.type}: it must lie strictly between ${showBound(lower, price)} and ${showBound(upper, price)} (${label}) and is ${where}, so no volatility reproduces it.`,
    );
  }
  const F = fwdPv / df;
  // Both distances come straight from the quote (a difference of nearby doubles is exact), so a
  // price a few ulps inside either bound keeps a positive time value and a positive gap.
  const v = (price - lower) / df;
  const gap = (upper - price) / df;
  n.F = F;
  n.K = K;
  n.x = Math.log(F / K);
  n.v = v;
  n.gap = gap;
  n.call = call ? !(F > K) : K > F;
  n.sqrtT = Math.sqrt(T);
  return n;
}

/** The out-of-the-money form of the quote being solved: one object, filled by normalise for each solve. */
const quote: Normalised = { F: 0, K: 0, x: 0, v: 0, gap: 0, call: false, sqrtT: 0 };

/** A bound or price to full precision, so a refused price never reads as lying inside the bounds. */
/**
 * A bound in as few significant digits (six at least) as keep it on the same side of the price as
 * the exact bound: a PM reads 23.9016, yet a price one ulp outside a bound never reads as inside it.
 */
function showBound(v: number, price: number): string {
  for (let digits = 6; digits < 17; digits++) {
    const shown = Number(v.toPrecision(digits));
    if (Math.sign(shown - price) === Math.sign(v - price)) return String(shown);
  }
  return String(v);
}

/**
 * The out-of-the-money Black price p at total volatility s (undiscounted), its distance to the
 * upper bound q = U − p, vega ∂p/∂s and d1, d2 — all without cancellation (see black-otm.ts).
 */
function black(n: Normalised, s: number, out: { p: number; q: number; vega: number; d1: number; d2: number }): number {
  return otmBlack(n.F, n.K, s, out).p;
}

/**
 * Safeguarded Halley iteration in total volatility s. Below s* the price falls off like
 * e^{−x²/(2s²)}, so the iteration runs on ln p; above s* the price approaches its upper bound U,
 * so it runs on ln(U − p). Both are close to linear where they are used, which is what keeps the
 * step count low across strikes and expiries. A step that leaves the bracket is replaced by
 * bisection, and after 20 iterations only bisection is used, so the loop always ends.
 */
function solveTotalVol(n: Normalised, tolS: number): { s: number; iterations: number } {
  const { x, v, F } = n;
  const lnv = Math.log(v);
  const lnGap = Math.log(n.gap);
  let lo = 0;
  let hi = S_MAX;
  let s: number;
  let lowRegion = false;
  const at = { p: 0, q: 0, vega: 0, d1: 0, d2: 0 };
  if (x === 0) {
    // At the money: Brenner–Subrahmanyam's s ≈ √(2π)·v/F.
    s = Math.min(2.5066282746310002 * (v / F), S_MAX / 2);
  } else {
    const sStar = Math.sqrt(2 * Math.abs(x));
    black(n, sStar, at);
    const pStar = at.p;
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
    black(n, s, at);
    const { p, q, vega } = at;
    if (p === v) return { s, iterations: i };
    if (p < v) lo = s;
    else hi = s;
    const volga = (vega * at.d1 * at.d2) / s;
    let step: number;
    if (lowRegion) {
      // g = ln p − ln v: g' = vega/p, g'' = volga/p − g'².
      const g1 = vega / p;
      step = -(Math.log(p) - lnv) / g1;
      step /= 1 + (step * (volga / p - g1 * g1)) / (2 * g1);
    } else {
      // h = ln(U − p) − ln(U − v): h' = −vega/q, h'' = −volga/q − h'².
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

// The rational solver's answer (total volatility, price evaluations), reused by every solve.
const solved = new Float64Array(2);

export function impliedVol(input: ImpliedVolInput, tolerance = DEFAULT_IV_TOLERANCE): ImpliedVolResult {
  const n = normalise(input, quote);
  const root = Math.sqrt(n.F) * Math.sqrt(n.K);
  const beta = n.v / root;
  let s = Number.NaN;
  let iterations = 0;
  // Below 1e−300 the normalised price is near the subnormal range where its digits thin out.
  if (beta > 1e-300 && root < Number.POSITIVE_INFINITY) {
    totalVolFromNormalisedPrice(beta, n.gap / root, -Math.abs(n.x), solved);
    s = solved[0]!;
    iterations = solved[1]!;
  }
  if (!(s > 0 && s < S_MAX)) ({ s, iterations } = solveTotalVol(n, tolerance * n.sqrtT));
  // The bracket tops out at S_MAX: a solution pinned there means the price needs more volatility than that.
  if (s >= S_MAX * (1 - 1e-9))
    fail(`price ${show(input.price)} implies a volatility above ${show(S_MAX / n.sqrtT)} (σ√T > ${S_MAX}); check the price and its units.`);
  return { vol: s / n.sqrtT, iterations };
}

/**
 * Plain bisection on σ in [0, maxVol] to the same tolerance: the baseline the benchmark compares
 * against, and an independent check of the solver in the tests. `pricer` picks the price function it
 * bisects on: the library's cancellation-free Black pricer (black-otm.ts, the default) or the
 * normalised Black function the rational solver inverts — so the benchmark can also show the gain
 * from the algorithm alone, on the same price function.
 */
export function impliedVolBisection(
  input: ImpliedVolInput,
  tolerance = DEFAULT_IV_TOLERANCE,
  maxVol = 5,
  pricer: 'reference' | 'normalised' = 'reference',
): ImpliedVolResult {
  const n = normalise(input, quote);
  const at = { p: 0, q: 0, vega: 0, d1: 0, d2: 0 };
  const normalised = pricer === 'normalised';
  const root = Math.sqrt(n.F) * Math.sqrt(n.K);
  const x = -Math.abs(n.x);
  const beta = n.v / root;
  let lo = 0;
  let hi = maxVol;
  if (normalised ? normalisedBlack(x, hi * n.sqrtT) < beta : black(n, hi * n.sqrtT, at) < n.v)
    fail(`price ${show(input.price)} implies a volatility above ${maxVol}.`);
  let iterations = 0;
  while (hi - lo > tolerance) {
    const mid = 0.5 * (lo + hi);
    if (normalised ? normalisedBlack(x, mid * n.sqrtT) < beta : black(n, mid * n.sqrtT, at) < n.v) lo = mid;
    else hi = mid;
    iterations++;
  }
  return { vol: 0.5 * (lo + hi), iterations };
}
