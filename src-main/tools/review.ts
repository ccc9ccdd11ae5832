import { z } from 'zod';
import type { Reviewer } from '../executor';
import type { AnalystToolContext } from './context';
import { defineTool, type ToolDefinition } from './define';

/** Seed §3.6: a fresh adversarial reviewer. Mandatory before an agent-proposed Expression goes to the PM. */
export function reviewTool(reviewer: Pick<Reviewer, 'review'>) {
  return defineTool({
    name: 'review',
    description: [
      'Ask an independent, adversarial reviewer to challenge a proposed output before it is acted on.',
      'Mandatory for an Expression you propose: pass its full record text as output; the PM is only asked to approve an Expression whose latest review approved it.',
      'Also useful when you want a fresh perspective on a View or a synthesis.',
      'The reviewer sees the portfolio, the calibration of the output\'s category and relevant Process Knowledge, and reads memory and fetches data itself; it does not see your conversation.',
      'Returns VERDICT (approve / approve_with_notes / revise / escalate) and its reasons.',
    ].join('\n'),
    input: z.object({
      output: z.string().min(1).max(100_000).describe('The full text to review (e.g. the Expression record)'),
      focus: z.string().min(1).max(2000).describe('What to challenge hardest, e.g. sizing and overlap with E-001'),
    }),
    annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: true },
    async run(input, ctx: AnalystToolContext) {
      const r = await reviewer.review(ctx.fs.sessionId, input.output, input.focus, ctx.fs, ctx.signal);
      const used = [r.calibrationCategory ? `calibration: ${r.calibrationCategory}` : 'no matching calibration', r.pkUsed.length ? `PK: ${r.pkUsed.join(', ')}` : 'no matching PK'];
      const gate = r.verdict === 'approve' || r.verdict === 'approve_with_notes'
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
}): (grant: { sessionId: string; allowed: string[]; signal: AbortSignal }) => { tools: ToolDefinition<z.ZodType, AnalystToolContext>[]; context: AnalystToolContext } {
  return (grant) => ({
    tools: options.available.filter((t) => grant.allowed.includes(t.name)),
    context: { ...options.contextFor(grant.sessionId), signal: grant.signal },
  });
}
