import type { ChatMessage, SystemBlock, ToolDefinition } from './types';
import { systemBlocks } from './types';

/**
 * Offline approximation of Claude's tokenizer, used by the mock server's count_tokens, by the
 * prompt-cache accounting in tests and by the context meter. Claude's tokenizer is not published;
 * Anthropic's guidance is roughly 3.5 characters per token for English. This counter splits text
 * into runs and charges each run by kind:
 *   - letter runs: 1 token per started 5 letters ("rates" 1, "according" 2);
 *   - digit runs: 1 token per started 3 digits ("2025" 2) — BPE vocabularies group digits in threes;
 *   - a single space before a word is free (BPE merges it into the word); other whitespace runs 1;
 *   - each punctuation or symbol character 1 (JSON and code therefore count dense, as they do);
 *   - CJK characters 1 each; other non-ASCII letters 1 per 2 characters.
 * Error bars (estimated, not measured here — the real count_tokens needs the network): within
 * about ±15% of the real count on English prose and about ±25% on JSON, code and tables, with the
 * heuristic tending to over-count JSON. Good enough for a context meter and for cache thresholds;
 * never use it for billing (billing uses the usage the API returns).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: [^\x00-\x7f] is the range "any non-ASCII character", not a stray control character.
const RUN = /[A-Za-z]+|\d+|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]|[^\x00-\x7f]+|[ ]+|\s+|[^\sA-Za-z\d]/g;

export function countTokens(text: string): number {
  if (!text) return 0;
  let tokens = 0;
  let prevSpace = false;
  for (const m of text.matchAll(RUN)) {
    const run = m[0];
    const c = run.charCodeAt(0);
    if (run === ' ') {
      prevSpace = true;
      continue;
    }
    if (prevSpace && !(c >= 65 && c <= 90) && !(c >= 97 && c <= 122)) tokens += 1; // lone space not merged
    prevSpace = false;
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) tokens += Math.ceil(run.length / 5);
    else if (c >= 48 && c <= 57) tokens += Math.ceil(run.length / 3);
    else if (/\s/.test(run[0]!)) tokens += 1;
    else if (c >= 0x3040 && c <= 0xd7af) tokens += 1;
    else if (c > 0x7f) tokens += Math.ceil(run.length / 2);
    else tokens += 1;
  }
  if (prevSpace) tokens += 1;
  return tokens;
}

/** Framing the API adds around content; small fixed charges keep sums close to count_tokens. */
export const TOKEN_OVERHEAD = {
  /** Per message (role marker and separators). */
  message: 4,
  /** Per content block inside a message (block type markers). */
  block: 3,
  /** Per tool definition (wrapper around name, description, schema). */
  tool: 8,
  /** Once per request that has any tools (the tool-use preamble). */
  toolsPreamble: 40,
} as const;

/** Tokens of one tool as it travels in the tools list. */
export function countToolTokens(tool: { name: string; description?: string; input_schema?: unknown; inputSchema?: unknown }): number {
  const schema = tool.input_schema ?? tool.inputSchema ?? {};
  return TOKEN_OVERHEAD.tool + countTokens(tool.name) + countTokens(tool.description ?? '') + countTokens(JSON.stringify(schema));
}

export interface ContextTokens {
  system: number;
  tools: number;
  conversation: number;
  total: number;
}

/** What a request will occupy in the context window, by part — what the Chat screen's meter shows. */
export function countContextTokens(request: { system: string | SystemBlock[]; tools?: ToolDefinition[]; messages: ChatMessage[] }): ContextTokens {
  const system = systemBlocks(request.system).reduce((n, b) => n + countTokens(b.text), 0);
  const toolList = request.tools ?? [];
  const tools = toolList.length ? TOKEN_OVERHEAD.toolsPreamble + toolList.reduce((n, t) => n + countToolTokens(t), 0) : 0;
  let conversation = 0;
  for (const m of request.messages) {
    conversation += TOKEN_OVERHEAD.message;
    if (typeof m.content === 'string') {
      conversation += TOKEN_OVERHEAD.block + countTokens(m.content);
      continue;
    }
    for (const b of m.content) {
      conversation += TOKEN_OVERHEAD.block;
      if (b.type === 'text') conversation += countTokens(b.text);
      else if (b.type === 'tool_use') conversation += countTokens(b.name) + countTokens(JSON.stringify(b.input));
      else conversation += countTokens(b.content);
    }
  }
  return { system, tools, conversation, total: system + tools + conversation };
}
