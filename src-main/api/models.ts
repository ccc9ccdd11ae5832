import { z } from 'zod';

/**
 * Which model answers for each role. Routing is configuration, not intelligence: the PM trades
 * cost against quality per role in Settings → Models.
 */
export const modelRoles = ['agent', 'subagent', 'validation', 'contrastive', 'review', 'synthesis', 'compact', 'proposal', 'builder', 'planner'] as const;
export type ModelRole = (typeof modelRoles)[number];

/**
 * Current ids from the SDK's model list (@anthropic-ai/sdk 1.12, newest generation): Opus for
 * judgement-heavy roles, Sonnet for focused single-turn work, Haiku for compression. Aliases (no
 * date suffix) follow Anthropic's latest snapshot. claude-sonnet-4-5 is avoided: the SDK marks it
 * deprecated (end of life 30 Nov 2026).
 */
export const MODEL_TIERS = {
  strongest: 'claude-opus-5-5',
  middle: 'claude-sonnet-5-5',
  fastest: 'claude-haiku-5-5',
} as const;

export const defaultModelRouting: Record<ModelRole, string> = {
  agent: MODEL_TIERS.strongest,
  subagent: MODEL_TIERS.middle,
  validation: MODEL_TIERS.middle,
  contrastive: MODEL_TIERS.strongest,
  review: MODEL_TIERS.strongest,
  synthesis: MODEL_TIERS.strongest,
  compact: MODEL_TIERS.fastest,
  proposal: MODEL_TIERS.middle,
  builder: MODEL_TIERS.strongest,
  planner: MODEL_TIERS.strongest,
};

/** A model id as the API spells it: lowercase letters, digits, dots, dashes (and `scripted:` never). */
const modelId = z
  .string()
  .trim()
  .min(1, 'Enter a model id, e.g. claude-sonnet-5-5.')
  .max(100)
  .regex(/^[a-z0-9][a-z0-9.-]*$/, 'A model id has lowercase letters, digits, dots and dashes, e.g. claude-opus-5-5.');

/** Every role must name a model; missing roles take the default so old settings files still load. */
export const modelRoutingSchema = z.object(
  Object.fromEntries(modelRoles.map((r) => [r, modelId.default(defaultModelRouting[r])])) as {
    [K in ModelRole]: z.ZodDefault<typeof modelId>;
  },
);
export type ModelRouting = z.infer<typeof modelRoutingSchema>;
