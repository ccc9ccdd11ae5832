import { fail, finite, show, showSum } from '../numeric/validate';

/**
 * Kelly sizing: the fraction f of capital that maximises expected log growth Σ pᵢ·ln(1 + f·rᵢ)
 * (Kelly, "A New Interpretation of Information Rate", Bell System Technical Journal 35, 1956;
 * Thorp, "The Kelly Criterion in Blackjack, Sports Betting and the Stock Market", 2006).
 * Two forms, one validation: the binary form (win probability p, net odds b per unit staked,
 * optionally a loss other than the whole stake) is turned into two outcomes and goes through the
 * same checks as a list of outcomes: probabilities in [0, 1] summing to 1 within 1e-9; no return
 * worse than −1 (the whole stake); no positive expected edge → size 0 with the reason; no outcome
 * that loses → an error (Kelly would bet without limit, which means a losing scenario is missing).
 * skills/expression-design/scripts/kelly.mjs applies the same rule (it cannot import this file).
 */

export interface KellyOutcome {
  probability: number;
  /** Return per unit of capital deployed: +0.2 gains 20%, −1 loses the stake. */
  return: number;
}

export type KellyInput = { probability: number; odds: number; loss?: number } | { outcomes: KellyOutcome[] };

export interface KellyResult {
  form: 'binary' | 'outcomes';
  outcomes: KellyOutcome[];
  /** Expected return per unit deployed. */
  edge: number;
  fullKelly: number;
  /** The multiplier applied (0.5 = half Kelly). */
  fraction: number;
  /** fullKelly × fraction. */
  recommended: number;
  /** Expected log growth per bet at full and at the recommended size. */
  growthFull: number;
  growthRecommended: number;
  /** Why the size is 0, when it is. */
  reason: string | null;
}

const TOLERANCE = 1e-9;

export function logGrowth(outcomes: readonly KellyOutcome[], f: number): number {
  let g = 0;
  for (const o of outcomes) {
    if (o.probability === 0) continue;
    const w = 1 + f * o.return;
    if (w <= 0) return -Infinity;
    g += o.probability * Math.log(w);
  }
  return g;
}

/** Turns either form into validated outcomes. */
export function kellyOutcomes(input: KellyInput): { form: 'binary' | 'outcomes'; outcomes: KellyOutcome[] } {
  if (typeof input !== 'object' || input === null) fail('Kelly needs either {probability, odds} or {outcomes}.');
  let form: 'binary' | 'outcomes';
  let outcomes: KellyOutcome[];
  if ('outcomes' in input && input.outcomes !== undefined) {
    form = 'outcomes';
    if (!Array.isArray(input.outcomes) || input.outcomes.length < 2) fail('outcomes needs at least two scenarios, each {probability, return}.');
    if (input.outcomes.length > 1000) fail(`at most 1000 outcomes (got ${input.outcomes.length}).`);
    outcomes = input.outcomes.map((o, i) => ({
      probability: finite(`outcomes[${i}].probability`, o?.probability),
      return: finite(`outcomes[${i}].return`, o?.return),
    }));
  } else {
    form = 'binary';
    const b = input as { probability: unknown; odds: unknown; loss?: unknown };
    const p = finite('probability', b.probability);
    const odds = finite('odds', b.odds);
    if (!(odds > 0)) fail(`odds must be positive: the net gain per unit staked when right (got ${odds}).`);
    const loss = b.loss === undefined ? 1 : finite('loss', b.loss);
    if (!(loss > 0)) fail(`loss must be positive: the fraction of the stake lost when wrong, as a positive number (got ${loss}).`);
    outcomes = [
      { probability: p, return: odds },
      { probability: 1 - p, return: -loss },
    ];
  }
  outcomes.forEach((o, i) => {
    const name = form === 'binary' ? (i === 0 ? 'probability' : '1 − probability') : `outcomes[${i}].probability`;
    if (o.probability < 0 || o.probability > 1) fail(`${name} is ${show(o.probability)}; probabilities lie between 0 and 1.`);
    // Worse than −1 loses more than the capital deployed: almost always a percent typed as a decimal.
    if (o.return < -1) {
      const what = form === 'binary' ? `loss ${show(-o.return)}` : `outcomes[${i}].return ${show(o.return)}`;
      fail(`${what} loses more than the capital deployed; give returns per unit deployed as decimals (−0.1 = a 10% loss).`);
    }
  });
  const sum = outcomes.reduce((s, o) => s + o.probability, 0);
  if (Math.abs(sum - 1) > TOLERANCE) fail(`outcome probabilities sum to ${showSum(sum)}; they must sum to 1.`);
  if (!outcomes.some((o) => o.probability > 0 && o.return < 0)) {
    fail('no outcome with a positive probability loses money, so Kelly would stake without limit; include the losing scenarios (and their probabilities).');
  }
  return { form, outcomes };
}

/** The growth-optimal fraction: the root of Σ p·r/(1 + f·r) = 0 on [0, 1/worst loss), by bisection on the monotone derivative. */
export function fullKellyFraction(outcomes: readonly KellyOutcome[]): number {
  const live = outcomes.filter((o) => o.probability > 0);
  const edge = live.reduce((s, o) => s + o.probability * o.return, 0);
  if (edge <= 0) return 0;
  const worst = Math.min(...live.map((o) => o.return));
  const slope = (f: number) => live.reduce((s, o) => s + (o.probability * o.return) / (1 + f * o.return), 0);
  let lo = 0;
  let hi = (1 / -worst) * (1 - 1e-12);
  // The derivative falls from edge > 0 at f = 0 towards −∞ at the ruin point, so it has one root.
  for (let i = 0; i < 200 && hi - lo > 1e-15 * Math.max(1, hi); i++) {
    const mid = 0.5 * (lo + hi);
    if (slope(mid) > 0) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

export function kelly(input: KellyInput, fraction = 0.5): KellyResult {
  const k = finite('kelly fraction', fraction);
  if (!(k > 0 && k <= 1)) fail(`the Kelly fraction must be in (0, 1] (0.5 = half Kelly; got ${k}).`);
  const { form, outcomes } = kellyOutcomes(input);
  const edge = outcomes.reduce((s, o) => s + o.probability * o.return, 0);
  const full = fullKellyFraction(outcomes);
  const recommended = full * k;
  return {
    form,
    outcomes,
    edge,
    fullKelly: full,
    fraction: k,
    recommended,
    growthFull: logGrowth(outcomes, full),
    growthRecommended: logGrowth(outcomes, recommended),
    reason: edge <= 0 ? `no positive expected edge (expected return ${show(edge)} per unit): Kelly says do not take it.` : null,
  };
}

/**
 * Continuous-time Kelly (Merton, 1969; Thorp, 2006, §7): for a log-normal asset with expected
 * return μ and volatility σ (same period, e.g. annual) and a risk-free rate r, the growth rate of
 * holding a fraction f is g(f) = r + f·(μ − r) − f²σ²/2, maximised at f* = (μ − r)/σ², where
 * g(f*) = r + (μ − r)²/(2σ²). f* above 1 means leverage. No positive excess return → size 0.
 */
export interface ContinuousKellyInput {
  mean: number;
  vol: number;
  rate?: number;
}

export interface ContinuousKellyResult {
  mean: number;
  vol: number;
  rate: number;
  excess: number;
  fullKelly: number;
  fraction: number;
  recommended: number;
  /** Growth rate per period at full Kelly, at the recommended size, and of the risk-free rate alone. */
  growthFull: number;
  growthRecommended: number;
  reason: string | null;
}

export function continuousGrowth(mean: number, vol: number, rate: number, f: number): number {
  return rate + f * (mean - rate) - 0.5 * f * f * vol * vol;
}

export function continuousKelly(input: ContinuousKellyInput, fraction = 0.5): ContinuousKellyResult {
  if (typeof input !== 'object' || input === null) fail('continuous Kelly needs {mean, vol, rate}.');
  const k = finite('kelly fraction', fraction);
  if (!(k > 0 && k <= 1)) fail(`the Kelly fraction must be in (0, 1] (0.5 = half Kelly; got ${k}).`);
  const mean = finite('mean', input.mean);
  const vol = finite('vol', input.vol);
  const rate = input.rate === undefined ? 0 : finite('rate', input.rate);
  // A 20 typed for 20% would size a position 10,000 times too small: refuse percents.
  if (!(vol > 0) || vol > 10) fail(`vol must be a positive decimal (0.2 = 20%; got ${show(vol)}).`);
  if (Math.abs(mean) > 10 || Math.abs(rate) > 1) fail('give mean and rate as decimals (0.08 = 8%).');
  const excess = mean - rate;
  const full = excess > 0 ? excess / (vol * vol) : 0;
  const recommended = full * k;
  return {
    mean,
    vol,
    rate,
    excess,
    fullKelly: full,
    fraction: k,
    recommended,
    growthFull: continuousGrowth(mean, vol, rate, full),
    growthRecommended: continuousGrowth(mean, vol, rate, recommended),
    reason: excess > 0 ? null : `no positive excess return (μ − r = ${show(excess)}): Kelly says do not hold it long.`,
  };
}
