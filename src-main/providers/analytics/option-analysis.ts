import { fail, positive } from './numeric/validate';
import { type OptionInput, type OptionModel, type OptionType, optionValue, priceBounds } from './options/black-scholes';
import { DEFAULT_IV_TOLERANCE, impliedVol } from './options/implied-vol';

/**
 * One option, priced or implied: with a volatility it returns the price and greeks; with a market
 * price it solves the implied volatility and returns the greeks at that volatility. Shared by the
 * analytics provider (the analyst) and the `analytics/option` procedure (the UI).
 */

export interface OptionRequest {
  model: OptionModel;
  type: OptionType;
  underlying: number;
  strike: number;
  expiry: number;
  rate: number;
  dividendYield?: number;
  vol?: number;
  price?: number;
  /** Underlying levels to value the option at too (same vol, rate, expiry): a chart's grid in one call. */
  spots?: number[];
}

/** The option at one underlying level, at the analysis' volatility. */
export interface OptionGridPoint {
  underlying: number;
  price: number;
  delta: number;
  gamma: number;
}

/** Enough for a smooth chart; more is a request for a table nobody reads. */
export const MAX_GRID_SPOTS = 101;

export interface OptionAnalysis {
  model: OptionModel;
  type: OptionType;
  price: number;
  vol: number;
  /** Set when the volatility was implied from a price. */
  impliedVol: { vol: number; iterations: number; tolerance: number } | null;
  greeks: { delta: number; gamma: number; vega: number; theta: number; rho: number; dividendRho: number };
  d1: number;
  d2: number;
  forward: number;
  bounds: { lower: number; upper: number };
  /** The option at each of `spots`, in the order given; null when no spots were asked for. */
  grid: OptionGridPoint[] | null;
}

export function analyseOption(req: OptionRequest): OptionAnalysis {
  if ((req.vol === undefined) === (req.price === undefined))
    fail('give either a volatility (to price the option) or a market price (to imply the volatility), not both.');
  if (req.spots !== undefined) {
    if (req.spots.length < 1 || req.spots.length > MAX_GRID_SPOTS) fail(`spots takes 1 to ${MAX_GRID_SPOTS} underlying levels (got ${req.spots.length}).`);
    req.spots.forEach((s, i) => {
      positive(`spots[${i}]`, s);
    });
  }
  // A plain literal (no spread): V8 reads spread-built objects' fields far more slowly in the solver.
  const market: Omit<OptionInput, 'vol'> = {
    model: req.model,
    type: req.type,
    underlying: req.underlying,
    strike: req.strike,
    expiry: req.expiry,
    rate: req.rate,
    dividendYield: req.dividendYield,
  };
  let implied: OptionAnalysis['impliedVol'] = null;
  let vol = req.vol;
  if (req.price !== undefined) {
    const iv = impliedVol({
      model: market.model,
      type: market.type,
      underlying: market.underlying,
      strike: market.strike,
      expiry: market.expiry,
      rate: market.rate,
      dividendYield: market.dividendYield,
      price: req.price,
    });
    implied = { vol: iv.vol, iterations: iv.iterations, tolerance: DEFAULT_IV_TOLERANCE };
    vol = iv.vol;
  }
  const v = optionValue({ ...market, vol: vol! });
  const grid =
    req.spots?.map((s): OptionGridPoint => {
      const g = optionValue({ ...market, underlying: s, vol: vol! });
      return { underlying: s, price: g.price, delta: g.delta, gamma: g.gamma };
    }) ?? null;
  return {
    model: req.model,
    type: req.type,
    price: req.price ?? v.price,
    vol: vol!,
    impliedVol: implied,
    greeks: { delta: v.delta, gamma: v.gamma, vega: v.vega, theta: v.theta, rho: v.rho, dividendRho: v.dividendRho },
    d1: v.d1,
    d2: v.d2,
    forward: v.forward,
    bounds: priceBounds(market),
    grid,
  };
}
