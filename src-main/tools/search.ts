import { z } from 'zod';
import type { AnalystToolContext } from './context';
import { defineTool } from './define';

export const searchTool = defineTool({
  name: 'search',
  description:
    "Find by meaning. scope: all (default: memory, this session's files, broker notes), a folder (/memory/pk/), session or research. filters as in folder queries (weight>=0.4, since:2026-03). Returns ranked headers.",
  input: z.object({
    scope: z.string().max(300).optional(),
    query: z.string().min(1).max(2000),
    filters: z.string().max(2000).optional(),
    max_results: z.number().int().min(1).max(50).optional(),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(input, ctx: AnalystToolContext) {
    if (!ctx.search) {
      return { isError: true, content: 'Search is not available in this workspace; list folders with read(path, query=...) instead.' };
    }
    const res = await ctx.search({
      scope: input.scope ?? 'all',
      sessionId: ctx.fs.sessionId,
      query: input.query,
      filters: input.filters ?? null,
      maxResults: input.max_results ?? 5,
      // A retrospective never sees a broker note dated after its as-of day.
      asOf: ctx.asOf,
    });
    // Broker-note passages are outside content: the whole result is then framed as data.
    return { content: res.formatted, untrusted: res.results.some((r) => r.passage !== undefined) };
  },
});
