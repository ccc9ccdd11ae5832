import { TOKEN_OVERHEAD, type ContextTokens } from '../llm/tokens';
import { type ChatMessage, type SystemBlock, systemBlocks, type ToolDefinition } from '../llm/types';
import { countSpecTokens } from '../specs/tokens';

/**
 * The builder's token counts — the Builds screen's context meter, the compaction threshold, the
 * fixed context stored on a build and the builder bench — measured with a real BPE tokenizer
 * (o200k_base, the one the spec packages are sized with), not llm/tokens.ts's characters
 * heuristic, which stays for the mock server and the prompt-cache accounting.
 *
 * What is counted is what Forge sends: the system text, each tool as it travels (name, description,
 * JSON schema), each message's blocks. The small framing charges of llm/tokens.ts (role markers,
 * block markers, the tool wrapper) are kept so the parts still add up the way the API bills them.
 * Claude's own tokenizer is not published; o200k is a published BPE of the same family and counts
 * English and code within a few percent of it, where the heuristic was ±15–25%. Not counted: the
 * hidden tool-use system prompt the API adds when tools are present (a few hundred tokens, listed
 * per model in Anthropic's tool-use pricing tables) — it is the API's, not the builder's.
 */

/** Long texts recur every turn (the first message, tool results); counting each once keeps a turn cheap. */
const MEMO_MIN_CHARS = 256;
const MEMO_MAX_ENTRIES = 2000;
const memo = new Map<string, number>();

/** Tokens of one text, o200k BPE. */
export function builderTokens(text: string): number {
  if (!text) return 0;
  if (text.length < MEMO_MIN_CHARS) return countSpecTokens(text);
  const hit = memo.get(text);
  if (hit !== undefined) return hit;
  const n = countSpecTokens(text);
  // A bounded map, oldest first out: a long build must not keep every tool result it ever counted.
  if (memo.size >= MEMO_MAX_ENTRIES) memo.delete(memo.keys().next().value as string);
  memo.set(text, n);
  return n;
}

/** One tool as it travels in the request's tools list. */
export function builderToolTokens(tool: ToolDefinition): number {
  return TOKEN_OVERHEAD.tool + builderTokens(tool.name) + builderTokens(tool.description) + builderTokens(JSON.stringify(tool.inputSchema ?? {}));
}

/** Every tool, with the preamble charged once when there is any. */
export function builderToolsTokens(tools: readonly ToolDefinition[]): number {
  return tools.length ? TOKEN_OVERHEAD.toolsPreamble + tools.reduce((n, t) => n + builderToolTokens(t), 0) : 0;
}

/** One message with its framing. */
export function builderMessageTokens(m: ChatMessage): number {
  let n = TOKEN_OVERHEAD.message;
  if (typeof m.content === 'string') return n + TOKEN_OVERHEAD.block + builderTokens(m.content);
  for (const b of m.content) {
    n += TOKEN_OVERHEAD.block;
    if (b.type === 'text') n += builderTokens(b.text);
    else if (b.type === 'tool_use') n += builderTokens(b.name) + builderTokens(JSON.stringify(b.input));
    else n += builderTokens(b.content);
  }
  return n;
}

/** What a builder request occupies in the model's window, by part: the context meter's figures. */
export function countBuilderContext(request: {
  system: string | SystemBlock[];
  tools?: readonly ToolDefinition[];
  messages: readonly ChatMessage[];
}): ContextTokens {
  const system = systemBlocks(request.system).reduce((n, b) => n + builderTokens(b.text), 0);
  const tools = builderToolsTokens(request.tools ?? []);
  const conversation = request.messages.reduce((n, m) => n + builderMessageTokens(m), 0);
  return { system, tools, conversation, total: system + tools + conversation };
}
