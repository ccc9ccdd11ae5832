import { z } from 'zod';
import type { AnalystToolContext } from './context';
import { defineTool } from './define';

export const COMPACT_MAX_WORDS = 150;
/** Source text sent to the compaction model is capped; the model is small and fast by design. */
const MAX_SOURCE_CHARS = 60_000;

const INSTRUCTIONS =
  'You condense working material for an analyst. Answer only what the FOCUS asks. Keep numbers, dates, ids and decisions; drop process chatter and anything off the focus. Write 50 to 100 words, never more than 150. Plain prose, no preamble.';

/** Cuts a model's answer to the word limit, saying so, so an overrun never floods the context. */
export function enforceWordLimit(text: string, max = COMPACT_MAX_WORDS): { text: string; truncated: boolean; words: number } {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length <= max) return { text: words.join(' '), truncated: false, words: words.length };
  return { text: `${words.slice(0, max).join(' ')} … [cut to ${max} words: the compaction model wrote ${words.length}]`, truncated: true, words: words.length };
}

function resolveSource(ctx: AnalystToolContext, target: string): { label: string; text: string } | null {
  const fs = ctx.fs;
  const readIf = (p: string) => (fs.exists(p) && !fs.isDir(p) ? fs.readFile(p) : null);
  if (target === 'session_history') {
    const t = readIf('/session/turn_history.md');
    return t === null ? null : { label: 'session history', text: t };
  }
  if (target === 'all_results') {
    const listing = fs.listDir('/session/results/', undefined, { limit: 200 });
    const parts = listing.entries.filter((e) => !e.isDir).map((e) => `--- ${e.name} ---\n${fs.readFile(e.path)}`);
    return parts.length ? { label: `${parts.length} task results`, text: parts.join('\n\n') } : null;
  }
  if (/^[A-Za-z0-9_-]{1,80}$/.test(target)) {
    const t = readIf(`/session/results/${target}.md`);
    if (t !== null) return { label: `task ${target}`, text: t };
  }
  if (target.startsWith('/')) {
    const t = readIf(target);
    if (t !== null) return { label: target, text: t };
  }
  return null;
}

export const compactTool = defineTool({
  name: 'compact',
  description: 'Re-compress noisy context into 50–100 words on a focus. target: session_history, all_results, a task id or path.',
  input: z.object({
    target: z.string().min(1).max(1000),
    focus: z.string().min(1).max(500),
  }),
  annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
  async run(input, ctx: AnalystToolContext) {
    if (!ctx.model) return { isError: true, content: 'compact needs a model and none is configured; read the material at depth summary instead.' };
    const source = resolveSource(ctx, input.target.trim());
    if (!source?.text.trim()) {
      return {
        isError: true,
        content: `Nothing to compact at "${input.target}": use session_history, all_results, a task id with a result in /session/results/, or a file path.`,
      };
    }
    const text = source.text.length > MAX_SOURCE_CHARS ? source.text.slice(-MAX_SOURCE_CHARS) : source.text;
    const res = await ctx.model.call({
      role: 'compact',
      system: INSTRUCTIONS,
      messages: [{ role: 'user', content: `FOCUS: ${input.focus}\n\nSOURCE (${source.label}):\n${text}` }],
      maxTokens: 400,
      signal: ctx.signal,
    });
    const limited = enforceWordLimit(res.text);
    if (!limited.text) return { isError: true, content: 'The compaction model returned nothing; read the material at depth summary instead.' };
    // A digest of fetched material is still outside data.
    const untrusted = /\/context\/|all_results/.test(source.label) || input.target.includes('/context/');
    return { content: `[compact | ${source.label} | ${limited.words} words]\n${limited.text}`, ...(untrusted ? { untrusted: true } : {}) };
  },
});
