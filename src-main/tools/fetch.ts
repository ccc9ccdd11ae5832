import { z } from 'zod';
import { countTokens } from '../llm';
import type { FetchResult, ProviderRegistry } from '../providers';
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

const one = (s: string) =>
  s
    .replace(/[\r\n|]+/g, ' ')
    .trim()
    .slice(0, 160);

/**
 * fetch(source, params): outside data through a provider (seed §3.3). The full result is stored at
 * /session/context/ctx_NNN.md; the model gets `[ctx_NNN | source | label | N tok]` and a short
 * summary. Everything that comes back is marked untrusted: it is data, not instructions.
 */
export function fetchTool(providers: ProviderRegistry): ToolDefinition<z.ZodType, AnalystToolContext> {
  const names = providers.names();
  const source = names.length ? z.enum(names as [string, ...string[]]) : z.string().min(1).max(64);
  const catalogue = providers
    .list()
    .map((p) => `${p.name}: ${p.description}`)
    .join('; ');
  return defineTool({
    name: 'fetch',
    description: `Outside data. Sources: ${catalogue || 'none configured'}. Returns a header and short summary; the full result is saved at /session/context/ctx_NNN.md.`,
    input: z.object({ source, params: z.record(z.string(), z.unknown()).default({}) }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async run(input, ctx: AnalystToolContext) {
      const src = String(input.source);
      const provider = ctx.providers.get(src);
      if (!provider) {
        return { isError: true, content: `[FETCH FAILED | ${one(src)}] Unknown source. Available: ${ctx.providers.names().join(', ') || 'none'}.` };
      }
      let result: FetchResult;
      try {
        result = await provider.fetch(input.params ?? {}, ctx.signal);
      } catch (e) {
        const err = e as Error;
        return { isError: true, untrusted: true, content: `[FETCH FAILED | ${src}] ${err?.name ?? 'Error'}: ${one(err?.message ?? String(e))}` };
      }
      const fs = ctx.fs;
      const id = await fs.fs.transaction((tx) => {
        let n = 1;
        while (tx.exists(fs.resolve(`/session/context/ctx_${String(n).padStart(3, '0')}.md`))) n++;
        const ctxId = `ctx_${String(n).padStart(3, '0')}`;
        tx.writeFile(fs.resolve(`/session/context/${ctxId}.md`), result.full, ctx.writer);
        return ctxId;
      });
      const tokens = countTokens(result.full);
      return {
        untrusted: true,
        content: `[${id} | ${src} | ${one(result.label)} | ${tokens} tok]\n${capSummary(result.summary)}`,
      };
    },
  }) as unknown as ToolDefinition<z.ZodType, AnalystToolContext>;
}
