import { z } from 'zod';
import { countTokens } from '../llm';
import { ProviderError, type ProviderRegistry, type ProviderResult } from '../providers';
import type { AnalystToolContext } from './context';
import { defineTool, type ToolDefinition } from './define';

/** The summary the model sees is capped near 100 tokens; the full result waits in the session. */
export const SUMMARY_TOKEN_CAP = 120;

export function capSummary(text: string, cap = SUMMARY_TOKEN_CAP): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (countTokens(clean) <= cap) return clean;
  const words = clean.split(' ');
  let out = '';
  for (const w of words) {
    const next = out ? `${out} ${w}` : w;
    if (countTokens(next) > cap - 2) break;
    out = next;
  }
  return `${out} …`;
}

const one = (s: string, max = 160) =>
  s
    .replace(/[\r\n|]+/g, ' ')
    .trim()
    .slice(0, max);

/** A failure as the model reads it: one line naming the source and the kind of failure. */
export function fetchFailure(source: string, kind: string, message: string): string {
  return `[FETCH FAILED | ${one(source) || '?'} | ${kind}] ${one(message, 400)}`;
}

/**
 * fetch(source, params): outside data through a provider (seed §3.3). The registry validates the
 * params and enforces the session's as-of date; the full result is stored at
 * /session/context/ctx_NNN.md and the model gets `[ctx_NNN | source | label | as of … | origin | N tok]`
 * and a short summary. Every failure is one `[FETCH FAILED | source | kind]` line, never a throw.
 * Everything that comes back is marked untrusted: it is data, not instructions.
 */
export function fetchTool(providers: ProviderRegistry): ToolDefinition<z.ZodType, AnalystToolContext> {
  const catalogue = providers.catalogue();
  return defineTool({
    name: 'fetch',
    description: `Outside data. Sources {params}:\n${catalogue.join('\n') || 'none configured'}\nShows a summary; the full result goes to /session/context/.`,
    // Loose on purpose: a wrong source or params comes back as a FETCH FAILED line the model can act on.
    input: z.object({ source: z.string().max(200), params: z.unknown().optional().meta({ type: 'object' }) }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async run(input, ctx: AnalystToolContext) {
      const src = String(input.source);
      let result: ProviderResult;
      let full: string;
      let summary: string;
      try {
        result = await ctx.providers.fetch(src, input.params ?? {}, { signal: ctx.signal, asOf: ctx.asOf, now: ctx.now });
        full = result.formatFull();
        summary = result.formatSummary();
      } catch (e) {
        const kind = e instanceof ProviderError ? e.kind : 'unavailable';
        const message = e instanceof Error ? e.message : String(e);
        return { isError: true, untrusted: true, content: fetchFailure(src, kind, message) };
      }
      const fs = ctx.fs;
      const id = await fs.fs.transaction((tx) => {
        let n = 1;
        while (tx.exists(fs.resolve(`/session/context/ctx_${String(n).padStart(3, '0')}.md`))) n++;
        const ctxId = `ctx_${String(n).padStart(3, '0')}`;
        tx.writeFile(fs.resolve(`/session/context/${ctxId}.md`), full, ctx.writer);
        return ctxId;
      });
      const tokens = countTokens(full);
      return {
        untrusted: true,
        content: `[${id} | ${src} | ${one(result.label)} | as of ${one(result.asOf)} | ${one(result.source)} | ${tokens} tok]\n${capSummary(summary)}`,
      };
    },
  }) as unknown as ToolDefinition<z.ZodType, AnalystToolContext>;
}
