import type Anthropic from '@anthropic-ai/sdk';
import type { ChatMessage, ContentBlock, ModelCallRequest } from './types';
import { systemBlocks } from './types';

type Params = Anthropic.Messages.MessageCreateParamsNonStreaming;
type BlockParam = Anthropic.Messages.ContentBlockParam;
type TextParam = Anthropic.Messages.TextBlockParam;

/** The API accepts at most this many cache_control breakpoints in one request. */
export const MAX_CACHE_BREAKPOINTS = 4;

const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * Builds the Messages API body with prompt-cache breakpoints placed where a conversation's prefix
 * stays the same between calls (the cache matches prefixes in the order tools → system → messages):
 *   1. the last tool definition (the tool list rarely changes);
 *   2. the end of the stable system prefix (the leading run of blocks marked stable);
 *   3. the last user message (written now, read back by the next call);
 *   4. the user message before it (what the previous call wrote, so it is read even when a long
 *      tool-use round pushed it beyond the API's 20-block lookback).
 */
export function toAnthropicParams(request: ModelCallRequest, model: string): Params {
  const params: Params = { model, max_tokens: request.maxTokens, messages: [] };

  const tools = request.tools ?? [];
  if (tools.length) {
    params.tools = tools.map((t, i) => ({
      name: t.name,
      description: t.description,
      input_schema: t.inputSchema as Anthropic.Messages.Tool.InputSchema,
      ...(i === tools.length - 1 ? { cache_control: EPHEMERAL } : {}),
    }));
  }

  const blocks = systemBlocks(request.system);
  if (blocks.length) {
    let stableEnd = -1;
    while (stableEnd + 1 < blocks.length && blocks[stableEnd + 1]!.stable) stableEnd++;
    params.system = blocks.map(
      (b, i): TextParam => (i === stableEnd ? { type: 'text', text: b.text, cache_control: EPHEMERAL } : { type: 'text', text: b.text }),
    );
  }

  const userIdx: number[] = [];
  request.messages.forEach((m, i) => {
    if (m.role === 'user') userIdx.push(i);
  });
  const marked = new Set(userIdx.slice(-2));
  params.messages = request.messages.map((m, i) => toMessageParam(m, marked.has(i)));
  return params;
}

function toMessageParam(m: ChatMessage, breakpoint: boolean): Anthropic.Messages.MessageParam {
  // The API refuses empty text blocks; a model turn that was only tool calls can carry one.
  const kept = typeof m.content === 'string' ? [] : m.content.filter((b) => b.type !== 'text' || b.text !== '');
  const blocks: BlockParam[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (kept.length ? kept : m.content).map(toBlockParam);
  if (!breakpoint || blocks.length === 0) {
    return { role: m.role, content: typeof m.content === 'string' ? m.content : blocks };
  }
  const last = blocks[blocks.length - 1]!;
  blocks[blocks.length - 1] = { ...last, cache_control: EPHEMERAL } as BlockParam;
  return { role: m.role, content: blocks };
}

function toBlockParam(b: ContentBlock): BlockParam {
  switch (b.type) {
    case 'text':
      return { type: 'text', text: b.text };
    case 'tool_use':
      return { type: 'tool_use', id: b.id, name: b.name, input: b.input };
    case 'tool_result':
      return { type: 'tool_result', tool_use_id: b.toolUseId, content: b.content, ...(b.isError ? { is_error: true } : {}) };
  }
}
