import { z } from 'zod';
import type { Reviewer } from '../executor';
import type { AnalystToolContext } from './context';
import { defineTool, type ToolDefinition } from './define';

/** Seed §3.6: a fresh adversarial reviewer. Mandatory before an agent-proposed Expression goes to the PM. */
export function reviewTool(reviewer: Pick<Reviewer, 'review'>) {
  return defineTool({
    name: 'review',
    description:
      'An independent adversarial reviewer (sees portfolio, calibration, PK, memory and data; not your conversation). Required for every Expression: pass its exact record text; only text it approved can be written. Returns VERDICT approve / approve_with_notes / revise / escalate with reasons.',
    input: z.object({
      output: z.string().min(1).max(100_000),
      focus: z.string().min(1).max(2000).describe('what to challenge hardest'),
    }),
    annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: true },
    async run(input, ctx: AnalystToolContext) {
      const r = await reviewer.review(ctx.fs.sessionId, input.output, input.focus, ctx.fs, ctx.signal);
      const used = [
        r.calibrationCategory ? `calibration: ${r.calibrationCategory}` : 'no matching calibration',
        r.pkUsed.length ? `PK: ${r.pkUsed.join(', ')}` : 'no matching PK',
      ];
      const gate =
        r.verdict === 'approve' || r.verdict === 'approve_with_notes'
          ? '[recorded: this exact text may now be offered to the PM for approval]'
          : r.verdict === 'unclear'
            ? '[the reviewer gave no verdict line; review again before proposing]'
            : '[recorded: revise the text and review it again before it can be offered to the PM]';
      return { content: `VERDICT: ${r.verdict}\n${r.reasons}\n[${used.join(' | ')}]\n${gate}` };
    },
  });
}

/** The reviewer's tools for a session: read and fetch only (the Reviewer drops anything else too). */
export function reviewerToolFactory(options: {
  available: readonly ToolDefinition<z.ZodType, AnalystToolContext>[];
  contextFor: (sessionId: string) => AnalystToolContext;
}): (grant: { sessionId: string; allowed: string[]; signal: AbortSignal }) => {
  tools: ToolDefinition<z.ZodType, AnalystToolContext>[];
  context: AnalystToolContext;
} {
  return (grant) => ({
    tools: options.available.filter((t) => grant.allowed.includes(t.name)),
    context: { ...options.contextFor(grant.sessionId), signal: grant.signal },
  });
}
