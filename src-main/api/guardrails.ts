import { z } from 'zod';

/** The hard limits in force, for the Portfolio screen. Pure zod: no node, electron or DOM imports. */
const limits = z.object({
  maxSingleRisk: z.number(),
  maxGross: z.number(),
  maxDuration: z.number(),
  maxFactorConcentration: z.number(),
});

export const guardrailProcedures = {
  'guardrails/limits': {
    input: z.object({}).strict(),
    output: z.object({
      limits,
      /** Which limits the PM's /portfolio/constraints.md sets; the others are Forge's defaults. */
      fromConstraints: z.object({ maxSingleRisk: z.boolean(), maxGross: z.boolean(), maxDuration: z.boolean(), maxFactorConcentration: z.boolean() }),
    }),
  },
} as const;
