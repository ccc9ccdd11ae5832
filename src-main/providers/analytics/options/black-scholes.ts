import { normCdf, normPdf } from '../numeric/normal';
import { decimalRate, fail, positive } from '../numeric/validate';
import { otmBlack } from './black-otm';

/**
 * European option prices and greeks: Black–Scholes–Merton on a spot with a continuous dividend
 * yield q (Hull, ch. 15 and 17), and Black (1976) on a futures or forward price (Hull, ch. 18).
 * Both are the generalised formula with cost of carry b (Haug, *The Complete Guide to Option
 * Pricing Formulas*, §1.1.6): b = r − q for BSM, b = 0 for Black-76.
 *   c = S·e^{(b−r)T}·N(d1) − K·e^{−rT}·N(d2),  d1 = [ln(S/K) + (b + σ²/2)T] / (σ√T),  d2 = d1 − σ√T.
 */

export type OptionModel = 'bsm' | 'black76';
export type OptionType = 'call' | 'put';

export interface OptionInput {
  model: OptionModel;
  type: OptionType;
  /** Spot price (BSM) or futures/forward price (Black-76). */
  underlying: number;
  strike: number;
  /** Years to expiry. */
  expiry: number;
  /** Continuously compounded risk-free rate, decimal. */
  rate: number;
  /** Continuous dividend (or foreign-rate) yield, decimal; BSM only. */
  dividendYield?: number;
  /** Volatility, decimal per year. */
  vol: number;
}

export interface OptionGreeks {
  /** ∂V/∂underlying. */
  delta: number;
  /** ∂²V/∂underlying². */
  gamma: number;
  /** ∂V/∂σ per 1.00 of volatility (divide by 100 for one vol point). */
  vega: number;
  /** ∂V/∂t per year of calendar time (divide by 365 for one day). */
  theta: number;
  /** ∂V/∂r per 1.00 of rate (divide by 10,000 for one basis point). For Black-76 the futures price is held fixed. */
  rho: number;
  /**
   * Dividend rho (Haug's "phi", rho-2): ∂V/∂q per 1.00 of the continuous dividend yield (divide
   * by 10,000 for one basis point), with spot and r held fixed: call −T·S·e^{−qT}·N(d1), put
   * +T·S·e^{−qT}·N(−d1). 0 for Black-76, whose futures price already embeds any yield.
   */
  dividendRho: number;
}

export interface OptionValue extends OptionGreeks {
  price: number;
  d1: number;
  d2: number;
  /** The forward price of the underlying at expiry: S·e^{(r−q)T} for BSM, F for Black-76. */
  forward: number;
  /** e^{−rT}. */
  discount: number;
}

/** Validates the market inputs shared by pricing and implied volatility. */
export function checkOptionMarket(input: Omit<OptionInput, 'vol'>): void {
  if (input.model !== 'bsm' && input.model !== 'black76') fail(`model must be "bsm" or "black76" (got ${String(input.model)}).`);
  if (input.type !== 'call' && input.type !== 'put') fail(`type must be "call" or "put" (got ${String(input.type)}).`);
  positive(input.model === 'bsm' ? 'spot' : 'futures price', input.underlying);
  positive('strike', input.strike);
  positive('expiry (years)', input.expiry);
  if (input.expiry > 100) fail(`expiry is ${input.expiry} years; give it in years (0.5 = six months).`);
  decimalRate('rate', input.rate);
  if (input.dividendYield !== undefined) {
    decimalRate('dividend yield', input.dividendYield);
    if (input.model === 'black76' && input.dividendYield !== 0) fail('Black-76 prices an option on a futures price: leave the dividend yield out.');
  }
}

/** Cost of carry b: r − q for BSM, 0 for Black-76. */
export function carry(input: Pick<OptionInput, 'model' | 'rate' | 'dividendYield'>): number {
  return input.model === 'black76' ? 0 : input.rate - (input.dividendYield ?? 0);
}

export function optionValue(input: OptionInput): OptionValue {
  checkOptionMarket(input);
  const sigma = positive('volatility', input.vol);
  // 1000% a year is beyond any traded volatility: a larger number is a percent typed as a decimal.
  if (sigma > 10) fail(`volatility is ${sigma}; give it as a decimal (0.2 = 20%).`);
  const { type, underlying: S, strike: K, expiry: T, rate: r } = input;
  const b = carry(input);
  const sqrtT = Math.sqrt(T);
  const sd = sigma * sqrtT;
  const d1 = (Math.log(S / K) + (b + 0.5 * sigma * sigma) * T) / sd;
  const d2 = d1 - sd;
  const carryDf = Math.exp((b - r) * T);
  const df = Math.exp(-r * T);
  const nd1 = normPdf(d1);
  const gamma = (carryDf * nd1) / (S * sd);
  const vega = S * carryDf * nd1 * sqrtT;
  const decay = (-S * carryDf * nd1 * sigma) / (2 * sqrtT);
  // The price is the out-of-the-money price plus the intrinsic value of the forward, both positive:
  // computed as F·Φ(d1) − K·Φ(d2) a far out-of-the-money price would be the difference of two
  // nearly equal numbers and keep only a few of its digits.
  const F = S * Math.exp(b * T);
  const otm = otmBlack(F, K, sd, { p: 0, q: 0, vega: 0, d1: 0, d2: 0 }).p;
  const intrinsic = type === 'call' ? Math.max(F - K, 0) : Math.max(K - F, 0);
  const price = df * (otm + intrinsic);
  let delta: number;
  let theta: number;
  let rho: number;
  let dividendRho: number;
  if (type === 'call') {
    const n1 = normCdf(d1);
    const n2 = normCdf(d2);
    delta = carryDf * n1;
    theta = decay - (b - r) * S * carryDf * n1 - r * K * df * n2;
    rho = input.model === 'black76' ? -T * price : K * T * df * n2;
    dividendRho = input.model === 'black76' ? 0 : -T * S * carryDf * n1;
  } else {
    const n1 = normCdf(-d1);
    const n2 = normCdf(-d2);
    delta = -carryDf * n1;
    theta = decay + (b - r) * S * carryDf * n1 + r * K * df * n2;
    rho = input.model === 'black76' ? -T * price : -K * T * df * n2;
    dividendRho = input.model === 'black76' ? 0 : T * S * carryDf * n1;
  }
  return { price, delta, gamma, vega, theta, rho, dividendRho, d1, d2, forward: F, discount: df };
}

/** No-arbitrage bounds of a European option's price: lower = discounted intrinsic value of the forward, upper = the discounted forward (call) or strike (put). */
export function priceBounds(input: Omit<OptionInput, 'vol'>): { lower: number; upper: number } {
  const b = carry(input);
  const df = Math.exp(-input.rate * input.expiry);
  const fwd = input.underlying * Math.exp((b - input.rate) * input.expiry); // S·e^{−qT}, or F·e^{−rT}
  const pvStrike = input.strike * df;
  return input.type === 'call' ? { lower: Math.max(fwd - pvStrike, 0), upper: fwd } : { lower: Math.max(pvStrike - fwd, 0), upper: pvStrike };
}
