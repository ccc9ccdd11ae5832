import { z } from 'zod';

/**
 * Analytics procedures for the UI: one option priced (or its volatility implied from a price),
 * and a yield curve bootstrapped, fitted and sampled for a chart. The same calculations the
 * analyst reaches through the `analytics` provider. Pure zod: no node, electron or DOM imports.
 * Rates, yields, coupons and volatilities are decimals (0.05 = 5%); times in years.
 */

export const optionInput = z
  .object({
    /** bsm: spot with a continuous dividend yield; black76: futures or forward price. */
    model: z.enum(['bsm', 'black76']).default('bsm'),
    type: z.enum(['call', 'put']),
    underlying: z.number().positive(),
    strike: z.number().positive(),
    expiryYears: z.number().positive().max(100),
    rate: z.number().min(-1).max(1),
    dividendYield: z.number().min(-1).max(1).optional(),
    /** Give a volatility to price the option... */
    vol: z.number().positive().max(10).optional(),
    /** ...or a market price to imply the volatility. */
    price: z.number().positive().optional(),
    /** Underlying levels to value the option at as well (a chart's grid), answered in the same response. */
    spots: z.array(z.number().positive()).min(1).max(101).optional(),
  })
  .strict();

export const optionOutput = z.object({
  model: z.enum(['bsm', 'black76']),
  type: z.enum(['call', 'put']),
  price: z.number(),
  vol: z.number(),
  /** Set when the volatility was implied from the price given. */
  impliedVol: z.object({ vol: z.number(), iterations: z.number().int(), tolerance: z.number() }).nullable(),
  /** Vega per 1.00 of vol, theta per year, rho per 1.00 of rate, dividendRho (∂V/∂q) per 1.00 of dividend yield. */
  greeks: z.object({ delta: z.number(), gamma: z.number(), vega: z.number(), theta: z.number(), rho: z.number(), dividendRho: z.number() }),
  d1: z.number(),
  d2: z.number(),
  forward: z.number(),
  /** No-arbitrage bounds of the price. */
  bounds: z.object({ lower: z.number(), upper: z.number() }),
  /** The option at each of the `spots` asked for (same vol), in their order; null when none were. */
  grid: z.array(z.object({ underlying: z.number(), price: z.number(), delta: z.number(), gamma: z.number() })).nullable(),
});

const bond = z
  .object({
    maturity: z.number().positive().max(100),
    coupon: z.number().min(0).max(1),
    /** Dirty price per 100 face; omitted: a par bond. */
    price: z.number().positive().optional(),
    frequency: z.union([z.literal(1), z.literal(2), z.literal(4), z.literal(12)]).optional(),
  })
  .strict();

export const curveInput = z
  .object({
    /** Bonds to bootstrap... */
    bonds: z.array(bond).max(200).optional(),
    /** ...or zero rates by maturity. */
    points: z
      .array(z.object({ maturity: z.number().positive().max(100), rate: z.number().min(-1).max(1) }).strict())
      .max(2000)
      .optional(),
    model: z.enum(['ns', 'nss', 'both']).default('ns'),
    chartPoints: z.number().int().min(2).max(1000).default(61),
  })
  .strict();

const curveFit = z.object({
  params: z.object({
    model: z.enum(['ns', 'nss']),
    beta0: z.number(),
    beta1: z.number(),
    beta2: z.number(),
    lambda1: z.number(),
    beta3: z.number().optional(),
    lambda2: z.number().optional(),
  }),
  rmse: z.number(),
  maxError: z.number(),
  residuals: z.array(z.number()),
});

export const curveOutput = z.object({
  zeros: z.array(z.object({ maturity: z.number(), zeroContinuous: z.number(), zeroAnnual: z.number(), discountFactor: z.number() })),
  forwards: z.array(z.object({ from: z.number(), to: z.number(), rate: z.number() })),
  ns: curveFit.nullable(),
  nss: curveFit.nullable(),
  chart: z.array(
    z.object({
      maturity: z.number(),
      linear: z.number(),
      monotone: z.number(),
      ns: z.number().nullable(),
      nss: z.number().nullable(),
      nsForward: z.number().nullable(),
    }),
  ),
});

export const analyticsProcedures = {
  'analytics/option': { input: optionInput, output: optionOutput },
  'analytics/curve': { input: curveInput, output: curveOutput },
} as const;
