import { z } from 'zod';

/**
 * Decision lineage (issue #29 §3): for one Expression, everything that shaped it in time order —
 * the Views it expresses and their versions, what was read, searched and fetched, the sub-agent
 * tasks and the skill versions they ran on, the reviewer's verdict, every guardrail check with its
 * figures, the PM's decision and the Outcome or Counterfactual that followed. Built only from what
 * is stored; a step whose evidence was never stored says "not recorded". Pure zod.
 */

export const lineageStepKind = z.enum([
  'view',
  'read',
  'search',
  'fetch',
  'task',
  'skill',
  'review',
  'guardrail',
  'write',
  'proposal',
  'decision',
  'outcome',
  'counterfactual',
  'gap',
]);
export type LineageStepKind = z.infer<typeof lineageStepKind>;

export const lineageFigure = z.object({ label: z.string(), value: z.string() });

export const lineageStep = z.object({
  /** When it happened (ISO); null when the time was not recorded. */
  at: z.string().nullable(),
  kind: lineageStepKind,
  title: z.string(),
  summary: z.string(),
  /** Measured values: a guardrail's actual and limit, a fetch's as-of, a skill's version and hash. */
  figures: z.array(lineageFigure),
  /** Record or session paths the step rests on (/memory/views/V-001.md, /session/<id>/results/A.md). */
  links: z.array(z.string()),
  /** False when this step only says what was not stored. */
  recorded: z.boolean(),
});
export type LineageStep = z.infer<typeof lineageStep>;

export const expressionIdInput = z.object({ id: z.string().regex(/^E-\d{3,}$/, 'an Expression id such as E-004') }).strict();

export const lineageView = z.object({
  id: z.string(),
  title: z.string(),
  status: z.string(),
  path: z.string(),
  /** The session that proposed it, from the audit row of its first write; null for the PM's own. */
  sessionId: z.string().nullable(),
  steps: z.array(lineageStep),
});
export type LineageView = z.infer<typeof lineageView>;

export const lineageExport = z.object({
  id: z.string(),
  fileName: z.string(),
  markdown: z.string(),
});

export const lineageProcedures = {
  'lineage/expression': { input: expressionIdInput, output: lineageView },
  'lineage/export': { input: expressionIdInput, output: lineageExport },
} as const;
