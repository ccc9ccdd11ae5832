import { z } from 'zod';

/**
 * Tasks procedures and events: the sub-agents the analyst dispatched (the Tasks screen). A task is
 * named by its session and the id the analyst gave it. Pure zod: no node, electron or DOM imports.
 */

export const taskStatus = z.enum(['queued', 'waiting', 'running', 'validating', 'ok', 'failed', 'cancelled']);
export const taskFailure = z.enum(['dependency', 'skill', 'model', 'budget_tokens', 'budget_time', 'max_rounds', 'interrupted', 'output', 'internal']);

export const taskValidation = z.object({
  contrastive: z.boolean(),
  verdict: z.enum(['pass', 'revise', 'fail', 'unclear']),
  feedback: z.string(),
  counterargument: z.string(),
});

export const taskView = z.object({
  sessionId: z.string(),
  id: z.string(),
  skill: z.string(),
  objective: z.string(),
  context: z.array(z.string()),
  notes: z.string().nullable(),
  dependsOn: z.array(z.string()),
  retryOf: z.string().nullable(),
  validate: z.boolean(),
  validateContrastive: z.boolean(),
  status: taskStatus,
  failure: taskFailure.nullable(),
  /** Why it failed, in words a PM can act on. */
  error: z.string().nullable(),
  summary: z.string().nullable(),
  /** ForgeFS path of the full output, e.g. `/session/<session>/results/<id>.md`. */
  resultPath: z.string().nullable(),
  validation: taskValidation.nullable(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  costUsd: z.number().nullable(),
  rounds: z.number().int(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  updatedAt: z.string(),
  /** Milliseconds from start to finish (or to now while running); null before it starts. */
  durationMs: z.number().nullable(),
});
export type TaskView = z.infer<typeof taskView>;

export const taskEventView = z.object({ seq: z.number().int(), at: z.string(), kind: z.string(), detail: z.string() });

const taskRef = z.object({ sessionId: z.string().min(1).max(200), id: z.string().min(1).max(80) }).strict();

export const tasksListInput = z
  .object({
    sessionId: z.string().min(1).max(200).optional(),
    status: z.array(taskStatus).max(7).optional(),
    limit: z.number().int().min(1).max(1000).optional(),
    /** Paging: only tasks created before this ISO time. */
    before: z.string().max(40).optional(),
  })
  .strict();

export const taskProcedures = {
  'tasks/list': { input: tasksListInput, output: z.object({ tasks: z.array(taskView) }) },
  'tasks/get': {
    input: taskRef,
    output: z.object({
      task: taskView,
      /** The full output (null until the task has one). */
      output: z.string().nullable(),
      events: z.array(taskEventView),
    }),
  },
  'tasks/cancel': { input: taskRef, output: z.object({ task: taskView }) },
  'tasks/retry': {
    input: taskRef.extend({ feedback: z.string().max(8000).optional() }).strict(),
    output: z.object({ task: taskView }),
  },
} as const;

export const taskEvents = {
  /** A task changed state, tokens or validation; carries the whole task. */
  'tasks/changed': taskView,
} as const;
