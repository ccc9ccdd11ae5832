import { z } from 'zod';

/**
 * The analytics provider's parameters: one variant per calculation, told apart by `calc`. Rates,
 * yields, coupons and volatilities are decimals (0.05 = 5%); maturities and expiries in years.
 * Descriptions are short on purpose: they are read by the analyst in every session.
 */

const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .describe('YYYY-MM-DD');
const asOf = date.optional().describe('valuation date YYYY-MM-DD (default: today)');

const optionMarket = {
  model: z.enum(['bsm', 'black76']).default('bsm').describe('bsm: spot with dividend yield; black76: futures/forward price'),
  type: z.enum(['call', 'put']),
  underlying: z.number().positive().describe('spot (bsm) or futures price (black76)'),
  strike: z.number().positive(),
  expiry_years: z.number().positive().max(100).optional().describe('years to expiry (0.25 = 3 months)'),
  expiry_date: date.optional().describe('or the expiry date (ACT/365 from as_of)'),
  rate: z.number().min(-1).max(1).describe('risk-free rate, continuous'),
  dividend_yield: z.number().min(-1).max(1).optional().describe('bsm: continuous dividend or foreign rate'),
  spots: z.array(z.number().positive()).min(1).max(101).optional().describe('also value it at these underlying levels'),
  as_of: asOf,
};

const bond = z.object({
  maturity: z.number().positive().max(100).describe('years'),
  coupon: z.number().min(0).max(1).describe('annual coupon; 0 for a bill'),
  price: z.number().positive().optional().describe('dirty price per 100; omit for par'),
  frequency: z
    .union([z.literal(1), z.literal(2), z.literal(4), z.literal(12)])
    .optional()
    .describe('coupons a year (default 2)'),
});

const leg = z.object({
  kind: z.enum(['call', 'put', 'underlying']),
  strike: z.number().positive().describe('strike, or entry price for the underlying'),
  quantity: z.number().describe('signed: + long, − short'),
  premium: z.number().min(0).optional().describe('per unit'),
});

const scenario = z.object({
  name: z.string().min(1).max(200),
  probability: z.number().min(0).max(1).describe('conditional on the parent'),
  value: z.number().optional().describe('leaf value'),
  children: z.array(z.unknown()).max(100).optional().describe('sub-scenarios, same shape'),
});

const numbers = z.array(z.number()).max(100_000);

const frequency = z
  .union([z.literal(1), z.literal(2), z.literal(4), z.literal(12)])
  .optional()
  .describe('coupons a year (default 2)');

export const analyticsParams = z.discriminatedUnion('calc', [
  z.object({ calc: z.literal('option_price'), ...optionMarket, vol: z.number().positive().max(10).describe('volatility (0.2 = 20%)') }),
  z.object({ calc: z.literal('implied_vol'), ...optionMarket, price: z.number().positive().describe('option market price') }),
  z.object({
    calc: z.literal('bootstrap'),
    bonds: z.array(bond).min(1).max(200).describe('bills/bonds; zero rates solved in maturity order'),
    as_of: asOf,
  }),
  z.object({
    calc: z.literal('fit_curve'),
    model: z.enum(['ns', 'nss', 'both']).default('ns').describe('Nelson–Siegel, Svensson or both'),
    points: z
      .array(z.object({ maturity: z.number().positive(), rate: z.number() }))
      .max(2000)
      .optional()
      .describe('zero rates by maturity'),
    bonds: z.array(bond).max(200).optional().describe('or bonds: bootstrapped first'),
    as_of: asOf,
  }),
  z.object({
    calc: z.literal('bond_risk'),
    maturity: z.number().positive().max(100),
    coupon: z.number().min(0).max(1),
    yield: z.number().min(-1).max(1),
    frequency: z.union([z.literal(1), z.literal(2), z.literal(4), z.literal(12)]).optional(),
    compounding: z.enum(['continuous', 'annual', 'semiannual', 'quarterly', 'monthly']).default('semiannual').describe('of the yield'),
    as_of: asOf,
  }),
  z.object({
    calc: z.literal('payoff'),
    legs: z.array(leg).min(1).max(20),
    prices: z.array(z.number().min(0)).max(500).optional().describe('underlying prices at expiry'),
    multiplier: z.number().positive().optional(),
    as_of: asOf,
  }),
  z.object({
    calc: z.literal('scenario_tree'),
    scenarios: z.array(scenario).min(1).max(100).describe('each a leaf {name, probability, value} or a branch {name, probability, children}'),
    percentiles: z.array(z.number().gt(0).lt(100)).max(20).optional(),
    as_of: asOf,
  }),
  z.object({
    calc: z.literal('zscore_halflife'),
    series: numbers.optional().describe('the spread, oldest first'),
    a: numbers.optional().describe('or two legs: spread = a − hedge_ratio·b'),
    b: numbers.optional(),
    hedge_ratio: z.union([z.number(), z.literal('ols')]).optional(),
    window: z.number().int().min(3).optional().describe('rolling z window'),
    level: z.enum(['1%', '5%', '10%']).default('5%').describe('ADF test level'),
    lags: z
      .union([z.number().int().min(0), z.literal('aic')])
      .default('aic')
      .describe('ADF lag order'),
    as_of: asOf,
  }),
  z.object({
    calc: z.literal('kelly'),
    probability: z.number().min(0).max(1).optional().describe('binary form: win probability'),
    odds: z.number().positive().optional().describe('net gain per unit staked if right'),
    loss: z.number().positive().optional().describe('loss per unit if wrong (default 1)'),
    outcomes: z
      .array(z.object({ probability: z.number().min(0).max(1), return: z.number() }))
      .max(1000)
      .optional()
      .describe('or scenarios with return per unit'),
    fraction: z.number().gt(0).max(1).default(0.5).describe('of full Kelly'),
    as_of: asOf,
  }),
  z.object({
    calc: z.literal('adf'),
    series: numbers.describe('oldest first'),
    regression: z.enum(['c', 'ct', 'n']).default('c').describe('c: constant; ct: constant + trend; n: neither'),
    lags: z
      .union([z.number().int().min(0), z.literal('aic')])
      .default('aic')
      .describe('lag order'),
    level: z.enum(['1%', '5%', '10%']).default('5%'),
    as_of: asOf,
  }),
  z.object({
    calc: z.literal('var'),
    method: z.enum(['historical', 'normal', 'both']).optional().describe('default: both with returns, normal with mean/stdev'),
    returns: numbers.optional().describe('period returns (decimals) or P&L, oldest first'),
    mean: z.number().optional().describe('normal: mean return per period'),
    stdev: z.number().positive().optional().describe('normal: stdev per period'),
    confidence: z.number().gt(0.5).lt(1).default(0.99),
    value: z.number().positive().optional().describe('position size: VaR in money'),
    as_of: asOf,
  }),
  z.object({
    calc: z.literal('kelly_continuous'),
    mean: z.number().describe('expected return per period (0.08 = 8%)'),
    vol: z.number().positive().describe('volatility, same period'),
    rate: z.number().optional().describe('risk-free rate (default 0)'),
    fraction: z.number().gt(0).max(1).default(0.5).describe('of full Kelly'),
    as_of: asOf,
  }),
  z.object({
    calc: z.literal('bond_yield'),
    maturity_date: date.optional().describe('with settlement (default as_of): dates set the coupon schedule'),
    settlement: date.optional(),
    day_count: z.enum(['act/act', '30/360', 'act/365', 'act/360']).default('act/act').describe('with dates'),
    maturity: z.number().positive().max(100).optional().describe('or years from settlement'),
    coupon: z.number().min(0).max(1),
    frequency,
    clean_price: z.number().positive().optional().describe('per 100: solve the yield'),
    dirty_price: z.number().positive().optional().describe('or the dirty price'),
    yield: z.number().min(-1).max(1).optional().describe('or a yield: price the bond'),
    as_of: asOf,
  }),
  z.object({
    calc: z.literal('par_yields'),
    points: z
      .array(z.object({ maturity: z.number().positive().max(100), rate: z.number().min(-1).max(1) }))
      .min(1)
      .max(2000)
      .describe('zero rates by maturity'),
    compounding: z.enum(['continuous', 'annual', 'semiannual', 'quarterly', 'monthly']).default('continuous').describe('of the zero rates given'),
    tenors: z.array(z.number().positive().max(100)).max(500).optional().describe('default: the maturities'),
    frequency,
    as_of: asOf,
  }),
  z.object({
    calc: z.literal('svensson'),
    beta0: z.number().min(-1).max(1).describe("decimals (GSW's BETA0 3.9 → 0.039)"),
    beta1: z.number().min(-2).max(2),
    beta2: z.number(),
    beta3: z.number(),
    tau1: z.number().positive().max(1000).describe('years'),
    tau2: z.number().describe('years (ignored if beta3 is 0)'),
    maturities: z.array(z.number().positive().max(100)).max(500).optional(),
    forward_starts: z.array(z.number().min(0).max(100)).max(100).optional().describe('forward par yields starting in (default 1, 4, 9)'),
    forward_tenor: z.number().positive().max(50).optional().describe('years (default 1)'),
    frequency,
    as_of: asOf,
  }),
]);

export type AnalyticsParams = z.output<typeof analyticsParams>;
export type AnalyticsCalc = AnalyticsParams['calc'];
