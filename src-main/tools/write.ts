import { z } from 'zod';
import type { AnalystToolContext } from './context';
import { defineTool } from './define';
import { applyWrite } from './write-pipeline';

export const writeTool = defineTool({
  name: 'write',
  description:
    'Write a memory record or session note. Record: `# <id|new> — title`, `key: value` lines, `---`, body with ## SUMMARY; /memory/<category>/new.md assigns the id. Expressions need view_id, notional, max_loss_pct, duration_impact, factor (e.g. us_rates), pass the hard limits and a review of this exact text, and land as proposed.',
  input: z.object({
    path: z.string().min(1).max(1000),
    content: z.string().min(1).max(200_000),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(input, ctx: AnalystToolContext) {
    const out = await applyWrite(ctx.fs.fs, ctx.fs.resolve(input.path), input.content, ctx.writer, {
      limits: () => ctx.limits(), // read only when an Expression is checked: a broken constraints.md refuses trades, not notes
      now: ctx.now,
      ...(ctx.reviews ? { review: (content: string) => ctx.reviews!.approvalFor(ctx.writer.sessionId ?? ctx.fs.sessionId, content) } : {}),
    });
    return { content: out.message, ...(out.ok ? {} : { isError: true }) };
  },
});
