import { z } from 'zod';

/**
 * What the Expression page shows beside Approve / Reject: every hard limit checked now against the
 * computed book (passing ones too, not only the breaches), and the reviewer's verdict filed for
 * this Expression. Read-only. Pure zod: no node, electron or DOM imports.
 */

export const guardrailCheck = z.object({
  /** The guardrail rule, e.g. `max_single_risk` (the same names a blocked approval reports). */
  rule: z.enum([
    'expression_requires_view',
    'missing_risk_field',
    'max_single_risk',
    'max_gross_exposure',
    'max_factor_concentration',
    'max_duration_contribution',
  ]),
  /** What this trade makes the figure (with the rest of the book); null when it cannot be measured. */
  value: z.union([z.number(), z.string()]).nullable(),
  limit: z.union([z.number(), z.string()]),
  /** For a proposal, false exactly when approving now would be refused for this rule. */
  pass: z.boolean(),
  /** In words: the limit's own sentence when it fails, what was measured when it passes. */
  message: z.string(),
});
export type GuardrailCheck = z.infer<typeof guardrailCheck>;

export const reviewVerdictView = z.object({
  verdict: z.enum(['approve', 'approve_with_notes', 'revise', 'escalate', 'unclear']),
  focus: z.string(),
  reasons: z.string(),
  at: z.string(),
  sessionId: z.string(),
  /**
   * True: filed for this exact text (or an earlier version of it). False: the latest review in the
   * session that wrote the Expression, which may have been of a draft.
   */
  matched: z.boolean(),
});
export type ReviewVerdictView = z.infer<typeof reviewVerdictView>;

export const expressionChecksInput = z.object({ id: z.string().regex(/^E-\d{3,}$/, 'an Expression id such as E-004') }).strict();

export const expressionChecksOutput = z.object({
  id: z.string(),
  status: z.string(),
  /**
   * approval: a proposal, checked exactly as Approve will check it now (the book without it, plus
   * it). book: a trade already in the book, its figures as they stand there.
   */
  basis: z.enum(['approval', 'book']),
  /** The positions snapshot the book was computed from. */
  bookAsOf: z.string(),
  checks: z.array(guardrailCheck),
  /** Null when no review was filed (the PM's own Expressions, the sample workspace). */
  review: reviewVerdictView.nullable(),
});

export const expressionChecksProcedure = { input: expressionChecksInput, output: expressionChecksOutput } as const;
