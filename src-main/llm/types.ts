import type { RetryNotice, RetryPolicy } from './retry';

/**
 * Neutral shapes for talking to a model. They follow the Anthropic Messages API closely (so the
 * adapter stays thin) but belong to Forge: the agent loop never imports SDK types.
 */

export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface ToolResultBlock {
  type: 'tool_result';
  toolUseId: string;
  /** What the tool returned, as the model will read it. */
  content: string;
  isError?: boolean;
}

export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock;

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}

/**
 * One piece of the system prompt. Stable parts (identity, tools, principles) come first and are
 * cached; volatile parts (session block) come after. The conversation follows the system prompt in
 * the cached prefix, so a volatile part that changes on every call (a clock to the second) also
 * stops the conversation from being read from cache: keep it fixed for a session, or put the time
 * in the user message.
 */
export interface SystemBlock {
  text: string;
  stable: boolean;
}

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the tool's input object. */
  inputSchema: Record<string, unknown>;
}

export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  /** Set when the model's arguments were not valid JSON (e.g. cut off by max_tokens). */
  inputParseError?: string;
}

export type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'pause_turn' | 'refusal' | 'model_context_window_exceeded' | 'unknown';

export interface Usage {
  /** Input tokens billed at the full rate (after the last cache breakpoint, or all of them). */
  inputTokens: number;
  outputTokens: number;
  /** Input tokens written to the prompt cache (billed at 1.25× input). */
  cacheWriteTokens: number;
  /** Input tokens served from the prompt cache (billed at 0.1× input). */
  cacheReadTokens: number;
  /** US dollars for this call from the price table; null when the model has no price entry. */
  costUsd: number | null;
}

export interface ModelCallRequest {
  /** A routing role (agent, subagent, compact, ...); resolved to a model id by the router. */
  role?: string;
  /** An explicit model id; wins over `role`. */
  model?: string;
  system: string | SystemBlock[];
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  maxTokens: number;
  signal?: AbortSignal;
  /** Told before a transient failure is tried again (the executor records it on the task). */
  onRetry?: (notice: RetryNotice) => void;
}

export interface ModelResult {
  /** Everything the model returned, in order (text and tool_use blocks). */
  content: ContentBlock[];
  /** The tool_use blocks of `content`, parsed. */
  toolCalls: ToolCall[];
  /** The text blocks joined. */
  text: string;
  stopReason: StopReason;
  usage: Usage;
  requestId?: string;
  /** The model id that answered (or the scripted model's id). */
  model: string;
}

export type ModelStreamEvent =
  | { type: 'text_delta'; index: number; text: string }
  | { type: 'tool_input_delta'; index: number; id: string; name: string; partialJson: string }
  | { type: 'tool_call'; index: number; call: ToolCall }
  | { type: 'usage'; usage: Usage }
  /** A failed stream is being tried again: discard the partial text and tool input shown so far. */
  | { type: 'restart'; attempt: number; reason: string }
  | { type: 'done'; result: ModelResult };

export interface Model {
  /** `anthropic:<default model>` or `scripted:<name>`. */
  readonly id: string;
  /** True only for ScriptedModel; the UI labels such runs as a demo. */
  readonly isScripted: boolean;
  /** Set when the model retries transient failures itself, under this policy: callers must not retry again. */
  readonly retryPolicy?: RetryPolicy;
  call(request: ModelCallRequest): Promise<ModelResult>;
  /** Same as `call`, but reports progress as it arrives; resolves to the same result. */
  stream(request: ModelCallRequest, onEvent: (event: ModelStreamEvent) => void): Promise<ModelResult>;
}

/** Turns a routing role into a model id; see `src-main/config/models.ts`. */
export type ModelRouter = (role: string) => string;

/** Adds one call's usage into a running total (cost becomes null once any call had no price). */
export function addUsage(total: Usage, u: Usage): void {
  total.inputTokens += u.inputTokens;
  total.outputTokens += u.outputTokens;
  total.cacheReadTokens += u.cacheReadTokens;
  total.cacheWriteTokens += u.cacheWriteTokens;
  total.costUsd = total.costUsd === null || u.costUsd === null ? null : total.costUsd + u.costUsd;
}

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0, costUsd: 0 };
}

export function textOf(content: ContentBlock[]): string {
  return content
    .filter((b): b is TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join('');
}

export function systemBlocks(system: string | SystemBlock[]): SystemBlock[] {
  return typeof system === 'string' ? (system ? [{ text: system, stable: true }] : []) : system;
}
