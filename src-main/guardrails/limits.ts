import { z } from 'zod';

/**
 * The PM's hard risk limits (seed configuration §14). Percentages are of portfolio NAV except
 * factor concentration, which is the share of gross exposure in one factor after the trade.
 */
export const guardrailLimits = z.object({
  /** Largest loss one Expression may carry, % of NAV. */
  maxSingleRisk: z.number().positive(),
  /** Portfolio gross exposure after the trade, % of NAV. */
  maxGross: z.number().positive(),
  /** Absolute duration contribution of one Expression, in years of portfolio duration. */
  maxDuration: z.number().positive(),
  /** Share of gross exposure in any one factor after the trade, %. */
  maxFactorConcentration: z.number().positive().max(100),
});
export type GuardrailLimits = z.infer<typeof guardrailLimits>;

export const defaultGuardrailLimits: GuardrailLimits = {
  maxSingleRisk: 5.0,
  maxGross: 200.0,
  maxDuration: 5.0,
  maxFactorConcentration: 30.0,
};
