import { z } from 'zod';

/**
 * The hard limits and the computed book. Pure zod: no node, electron or DOM imports.
 * The book is never read from prose: the last positions snapshot plus the Expressions activated
 * since, minus those closed since (src-main/guardrails/book.ts).
 */
const limits = z.object({
  maxSingleRisk: z.number(),
  maxGross: z.number(),
  maxDuration: z.number(),
  maxFactorConcentration: z.number(),
});

export const limitUsage = z.object({
  rule: z.enum(['max_gross_exposure', 'max_factor_concentration', 'max_single_risk', 'max_duration_contribution']),
  value: z.number(),
  limit: z.number(),
  /** The factor with the largest share, or the Expression with the largest figure. */
  detail: z.string().optional(),
});

export const openExpression = z.object({
  id: z.string(),
  viewId: z.string().nullable(),
  notional: z.number().nullable(),
  maxLossPct: z.number().nullable(),
  durationImpact: z.number().nullable(),
  factor: z.string().nullable(),
  /** When it went live; null for a trade that predates activation stamps (held by the snapshot). */
  since: z.string().nullable(),
  /** True when the positions snapshot already holds it; false when the book adds it on top. */
  inSnapshot: z.boolean(),
});

export const book = z.object({
  asOf: z.string(),
  navMusd: z.number().nullable(),
  gross: z.number(),
  net: z.number(),
  duration: z.number(),
  factors: z.record(z.string(), z.number()),
  open: z.array(openExpression),
  usage: z.array(limitUsage),
  closedSinceSnapshot: z.array(z.string()),
  /** Live Expressions whose notional cannot be read: no new trade passes while any exist. */
  unmeasured: z.array(z.string()),
  /** The snapshot's rows, as imported. */
  positions: z.array(
    z.object({ instrument: z.string(), factor: z.string(), exposurePct: z.number(), duration: z.number(), expression: z.string().nullable() }),
  ),
});
export type BookView = z.infer<typeof book>;

export const guardrailProcedures = {
  'guardrails/limits': {
    input: z.object({}).strict(),
    output: z.object({
      limits,
      /** Which limits the PM's /portfolio/constraints.md sets; the others are Forge's defaults. */
      fromConstraints: z.object({ maxSingleRisk: z.boolean(), maxGross: z.boolean(), maxDuration: z.boolean(), maxFactorConcentration: z.boolean() }),
      /** Each limit against the computed book now. */
      usage: z.array(limitUsage),
    }),
  },
  'portfolio/book': {
    input: z.object({}).strict(),
    output: book,
  },
  /**
   * Replaces the positions snapshot with a CSV exported from the PM's order/risk system (columns
   * in the README). The whole file is validated first; any error names its row and column and
   * nothing changes. The previous snapshot is kept as /portfolio/state_before_<time>.md.
   */
  'portfolio/import': {
    input: z
      .object({
        csv: z
          .string()
          .min(1)
          .max(2 * 1024 * 1024),
        /** When the positions were taken (YYYY-MM-DD or ISO timestamp); default: now. */
        asOf: z.string().max(40).optional(),
        /** NAV in USD millions; default: the current snapshot's. */
        navMusd: z.number().positive().max(1e9).optional(),
      })
      .strict(),
    output: z.object({ rows: z.number(), asOf: z.string(), previousKeptAs: z.string().nullable(), book }),
  },
} as const;

export const portfolioEvents = {
  /** The book changed: an Expression was approved, closed or written, or positions were imported. */
  'portfolio/changed': z.object({}),
} as const;
