import { z } from 'zod';

/**
 * The analyst's API: start a run, stop it, browse sessions, and the PM's approval gate for
 * Expressions. A run's progress arrives as `agent/*` events keyed by its run id.
 * Pure zod: no node, electron or DOM imports.
 */

const runId = z.string().min(1).max(80);
const sessionId = z.string().regex(/^[A-Za-z0-9_-]{1,80}$/);
const expressionId = z.string().regex(/^E-\d{3,}$/, 'an Expression id such as E-004');

export const usageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheWriteTokens: z.number(),
  cacheReadTokens: z.number(),
  costUsd: z.number().nullable(),
});

export const usageTotalsSchema = usageSchema.extend({
  /** Share of input tokens served from the prompt cache, 0..1. */
  cacheReadShare: z.number(),
});

/** Tokens of the context window in use, by part (the Chat screen's meter). */
export const contextTokensSchema = z.object({
  system: z.number(),
  tools: z.number(),
  conversation: z.number(),
  total: z.number(),
});

export const sessionSummarySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastActive: z.string(),
  turns: z.number().int(),
  status: z.enum(['active', 'archived']),
  /** Ended sessions open read-only. */
  readOnly: z.boolean(),
  /** The first question asked in it. */
  title: z.string(),
});

const violationSchema = z.object({
  rule: z.string(),
  actual: z.union([z.number(), z.string()]),
  limit: z.union([z.number(), z.string()]),
  message: z.string(),
});

const runStarted = z.object({ runId: z.string(), sessionId: z.string(), turn: z.number().int(), demo: z.boolean() });

export const agentProcedures = {
  /** Starts a run and returns at once. Without an API key: a `missing_key` error that says how to add one or run the demo. */
  'agent/send': {
    input: z
      .object({
        message: z.string().min(1).max(20_000),
        /** Continue this session (refused when it has ended: ended sessions are read-only). */
        sessionId: sessionId.optional(),
        /** Start a new conversation: the current one is archived. */
        newSession: z.boolean().optional(),
        /**
         * A retrospective: the session is "as of" this date (YYYY-MM-DD) and no fetch may return data
         * after it. Kept by the session for its later turns.
         */
        asOf: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD')
          .optional(),
      })
      .strict(),
    output: runStarted,
  },
  'agent/cancel': { input: z.object({ runId }).strict(), output: z.object({ cancelled: z.boolean() }) },
  /** What the Chat screen needs before the first message: is a key set, which model answers. */
  'agent/status': {
    input: z.object({}).strict(),
    output: z.object({
      hasApiKey: z.boolean(),
      model: z.string(),
      running: z.array(z.object({ runId: z.string(), sessionId: z.string(), demo: z.boolean() })),
      /** Fixed context of a run (system prompt + tool definitions), in tokens. */
      fixedContext: contextTokensSchema,
    }),
  },
  /** Runs the scripted offline demo on a copy of the sample workspace (never the PM's memory). */
  'agent/demo': { input: z.object({}).strict(), output: runStarted.extend({ dataDir: z.string() }) },
  'sessions/list': {
    input: z.object({ limit: z.number().int().min(1).max(500).optional(), offset: z.number().int().min(0).optional() }).strict(),
    output: z.object({ sessions: z.array(sessionSummarySchema), total: z.number().int() }),
  },
  'sessions/open': {
    input: z.object({ id: sessionId }).strict(),
    output: z.object({
      session: sessionSummarySchema,
      turnHistory: z.string(),
      files: z.array(z.object({ path: z.string(), updatedAt: z.string() })),
      usage: usageTotalsSchema,
    }),
  },
  /** The PM activates a proposed Expression; the guardrails run again now and may refuse. */
  'expressions/approve': {
    input: z.object({ id: expressionId }).strict(),
    output: z.object({ id: z.string(), approved: z.boolean(), status: z.string(), violations: z.array(violationSchema), message: z.string() }),
  },
  /** The PM declines a proposal; a Counterfactual starts tracking what declining cost or saved. */
  'expressions/reject': {
    input: z.object({ id: expressionId, reason: z.string().max(300).default('') }).strict(),
    output: z.object({ id: z.string(), status: z.string(), counterfactual: z.string().nullable(), message: z.string() }),
  },
} as const;

const keyed = { runId: z.string(), sessionId: z.string() };

export const agentEvents = {
  /** Streamed answer text; `reset` means a broken stream is being re-sent: drop the text shown for this round. */
  'agent/text': z.object({ ...keyed, round: z.number().int(), text: z.string(), reset: z.boolean().optional() }),
  'agent/tool-call': z.object({ ...keyed, round: z.number().int(), callId: z.string(), name: z.string(), input: z.record(z.string(), z.unknown()) }),
  'agent/tool-result': z.object({
    ...keyed,
    round: z.number().int(),
    callId: z.string(),
    name: z.string(),
    content: z.string(),
    isError: z.boolean(),
    untrusted: z.boolean(),
    durationMs: z.number(),
  }),
  'agent/usage': z.object({
    ...keyed,
    round: z.number().int(),
    model: z.string(),
    usage: usageSchema,
    context: contextTokensSchema,
    session: usageTotalsSchema,
  }),
  'agent/done': z.object({
    ...keyed,
    stop: z.enum(['answered', 'max_rounds', 'cancelled']),
    text: z.string(),
    rounds: z.number().int(),
    usage: usageTotalsSchema,
    demo: z.boolean(),
  }),
  /** A failed run: nothing half-written; `requestId` is the provider's id to quote to support. */
  'agent/error': z.object({ ...keyed, code: z.string(), message: z.string(), requestId: z.string().nullable() }),
} as const;
