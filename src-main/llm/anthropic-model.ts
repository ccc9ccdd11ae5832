import { retryAfterMs } from '../common/retry-after';
import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { toAnthropicParams } from './anthropic-request';
import { ModelError, missingApiKeyError } from './errors';
import type { ModelErrorKind } from './errors';
import { costOf, defaultPriceTable } from './pricing';
import type { PriceTable } from './pricing';
import { DEFAULT_RETRY, RetryingModel } from './retry';
import type { RetryPolicy } from './retry';
import type { ContentBlock, Model, ModelCallRequest, ModelResult, ModelRouter, ModelStreamEvent, StopReason, ToolCall, Usage } from './types';
import { textOf } from './types';

export interface AnthropicModelOptions {
  /** Reads the key from secure settings at call time, so a key added in Settings works at once. */
  apiKey?: () => string | undefined;
  /** Where ANTHROPIC_API_KEY is read when the getter has nothing; defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** Empty or undefined means Anthropic's own endpoint. A getter follows Settings edits. */
  baseURL?: string | (() => string | undefined);
  /** Retry policy for transient failures, before or after the first byte (default DEFAULT_RETRY). */
  retry?: Partial<RetryPolicy>;
  /** Shorthand for `retry.attempts = maxRetries + 1`; 0 turns retries off. */
  maxRetries?: number;
  /** Per-request timeout in ms (default 10 minutes, as the SDK). */
  timeoutMs?: number;
  /** Turns `role` into a model id. Without one, requests must name `model`. */
  router?: ModelRouter;
  /** Used when a request names neither model nor role. */
  defaultModel?: string;
  prices?: PriceTable;
}

type Block = { kind: 'text'; text: string } | { kind: 'tool'; id: string; name: string; json: string; input?: Record<string, unknown> };

/**
 * Claude through the official SDK, with prompt caching, typed errors and usage with cost.
 * Transient failures are retried here under one RetryPolicy (the SDK's own retries are off): a
 * 429/529/5xx before the first byte, a broken stream, and an overload or server error the API
 * sends inside a stream that already answered 200 — which the SDK never retries.
 */
export class AnthropicModel implements Model {
  readonly isScripted = false;
  readonly id: string;
  readonly retryPolicy: RetryPolicy;
  private client?: { key: string; baseURL: string; sdk: Anthropic };
  private readonly retrying: RetryingModel;

  constructor(private readonly options: AnthropicModelOptions = {}) {
    this.id = `anthropic:${options.defaultModel ?? 'routed'}`;
    this.retryPolicy = {
      ...DEFAULT_RETRY,
      ...options.retry,
      ...(options.maxRetries !== undefined ? { attempts: options.maxRetries + 1 } : {}),
    };
    const once: Model = {
      id: this.id,
      isScripted: false,
      call: (request) => this.callOnce(request),
      stream: (request, onEvent) => this.streamOnce(request, onEvent),
    };
    this.retrying = new RetryingModel(once, this.retryPolicy);
  }

  call(request: ModelCallRequest): Promise<ModelResult> {
    return this.retrying.call(request);
  }

  stream(request: ModelCallRequest, onEvent: (event: ModelStreamEvent) => void): Promise<ModelResult> {
    return this.retrying.stream(request, onEvent);
  }

  private async callOnce(request: ModelCallRequest): Promise<ModelResult> {
    const { sdk, model } = this.prepare(request);
    const params = toAnthropicParams(request, model);
    let requestId: string | undefined;
    let started = false;
    try {
      // asResponse (not withResponse) so a body cut off after the headers still yields the request id.
      const response = await sdk.messages.create(params, this.requestOptions(request)).asResponse();
      requestId = response.headers.get('request-id') ?? undefined;
      started = true;
      const data = (await response.json()) as Anthropic.Messages.Message;
      const content: ContentBlock[] = [];
      for (const b of data.content) {
        if (b.type === 'text') content.push({ type: 'text', text: b.text });
        else if (b.type === 'tool_use') content.push({ type: 'tool_use', id: b.id, name: b.name, input: asObject(b.input) });
      }
      const usage = this.usage(data.model || model, pickUsage(data.usage));
      return this.result(content, stopReasonOf(data.stop_reason), usage, requestId, data.model || model);
    } catch (e) {
      throw toModelError(e, request.signal, started, requestId);
    }
  }

  private async streamOnce(request: ModelCallRequest, onEvent: (event: ModelStreamEvent) => void): Promise<ModelResult> {
    const { sdk, model } = this.prepare(request);
    const params = { ...toAnthropicParams(request, model), stream: true as const };
    let requestId: string | undefined;
    let started = false;
    try {
      const { data: events, request_id } = await sdk.messages.create(params, this.requestOptions(request)).withResponse();
      requestId = request_id ?? undefined;
      started = true;
      const blocks: Block[] = [];
      let answeredBy = model;
      let stop: StopReason = 'unknown';
      let finished = false;
      const raw = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
      for await (const ev of events) {
        switch (ev.type) {
          case 'message_start':
            answeredBy = ev.message.model || model;
            Object.assign(raw, pickUsage(ev.message.usage));
            onEvent({ type: 'usage', usage: this.usage(answeredBy, raw) });
            break;
          case 'content_block_start': {
            const cb = ev.content_block;
            if (cb.type === 'text') {
              blocks[ev.index] = { kind: 'text', text: cb.text };
              if (cb.text) onEvent({ type: 'text_delta', index: ev.index, text: cb.text });
            } else if (cb.type === 'tool_use') {
              blocks[ev.index] = { kind: 'tool', id: cb.id, name: cb.name, json: '' };
            }
            break;
          }
          case 'content_block_delta': {
            const b = blocks[ev.index];
            if (ev.delta.type === 'text_delta' && b?.kind === 'text') {
              b.text += ev.delta.text;
              onEvent({ type: 'text_delta', index: ev.index, text: ev.delta.text });
            } else if (ev.delta.type === 'input_json_delta' && b?.kind === 'tool') {
              b.json += ev.delta.partial_json;
              onEvent({ type: 'tool_input_delta', index: ev.index, id: b.id, name: b.name, partialJson: ev.delta.partial_json });
            }
            break;
          }
          case 'content_block_stop': {
            const b = blocks[ev.index];
            if (b?.kind === 'tool') onEvent({ type: 'tool_call', index: ev.index, call: parseToolCall(b) });
            break;
          }
          case 'message_delta':
            stop = stopReasonOf(ev.delta.stop_reason);
            Object.assign(raw, pickUsage(ev.usage));
            onEvent({ type: 'usage', usage: this.usage(answeredBy, raw) });
            break;
          case 'message_stop':
            finished = true;
            break;
        }
      }
      // A stream that ends without message_stop is a broken answer, never a short one. (The SDK
      // ends the iteration quietly when the signal aborts, so a Stop lands here too.)
      if (!finished && request.signal?.aborted) throw new ModelError('cancelled', 'The request to Claude was stopped.', { requestId });
      if (!finished) {
        throw new ModelError('stream_interrupted', 'The answer from Claude was cut off before it finished. Try again.', {
          requestId,
        });
      }
      const content: ContentBlock[] = [];
      for (const b of blocks) {
        if (!b) continue;
        if (b.kind === 'text') content.push({ type: 'text', text: b.text });
        else {
          const call = parseToolCall(b);
          content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input });
        }
      }
      const result = this.result(content, stop, this.usage(answeredBy, raw), requestId, answeredBy, blocks);
      onEvent({ type: 'done', result });
      return result;
    } catch (e) {
      if (e instanceof ModelError) throw e;
      throw toModelError(e, request.signal, started, requestId);
    }
  }

  private prepare(request: ModelCallRequest): { sdk: Anthropic; model: string } {
    const model = request.model ?? (request.role && this.options.router ? this.options.router(request.role) : this.options.defaultModel);
    if (!model) {
      throw new ModelError('bad_request', `No model is configured for role "${request.role ?? '(none)'}". Set one in Settings → Models.`);
    }
    const env = this.options.env ?? process.env;
    const key = (this.options.apiKey?.() ?? '').trim() || (env.ANTHROPIC_API_KEY ?? '').trim();
    if (!key) throw missingApiKeyError();
    const base = typeof this.options.baseURL === 'function' ? this.options.baseURL() : this.options.baseURL;
    const baseURL = (base ?? '').trim();
    if (!this.client || this.client.key !== key || this.client.baseURL !== baseURL) {
      const sdk = new Anthropic({
        apiKey: key,
        ...(baseURL ? { baseURL } : {}),
        // Retries are ours (see RetryingModel), so the attempt count in an error is the real one.
        maxRetries: 0,
        timeout: this.options.timeoutMs ?? 600_000,
      });
      this.client = { key, baseURL, sdk };
    }
    return { sdk: this.client.sdk, model };
  }

  private requestOptions(request: ModelCallRequest): { signal?: AbortSignal } {
    return request.signal ? { signal: request.signal } : {};
  }

  private usage(model: string, raw: ReturnType<typeof pickUsage>): Usage {
    const u = {
      inputTokens: raw.input_tokens ?? 0,
      outputTokens: raw.output_tokens ?? 0,
      cacheWriteTokens: raw.cache_creation_input_tokens ?? 0,
      cacheReadTokens: raw.cache_read_input_tokens ?? 0,
    };
    return { ...u, costUsd: costOf(model, u, this.options.prices ?? defaultPriceTable) };
  }

  private result(content: ContentBlock[], stopReason: StopReason, usage: Usage, requestId: string | undefined, model: string, blocks?: Block[]): ModelResult {
    const toolCalls: ToolCall[] = blocks
      ? blocks.filter((b): b is Extract<Block, { kind: 'tool' }> => b?.kind === 'tool').map(parseToolCall)
      : content.flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name, input: b.input }] : []));
    return { content, toolCalls, text: textOf(content), stopReason, usage, model, ...(requestId ? { requestId } : {}) };
  }
}

function pickUsage(u: unknown): Partial<Record<'input_tokens' | 'output_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens', number>> {
  const out: Record<string, number> = {};
  if (u && typeof u === 'object') {
    for (const k of ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens']) {
      const v = (u as Record<string, unknown>)[k];
      if (typeof v === 'number') out[k] = v;
    }
  }
  return out;
}

function parseToolCall(b: Extract<Block, { kind: 'tool' }>): ToolCall {
  if (!b.json.trim()) return { id: b.id, name: b.name, input: {} };
  try {
    return { id: b.id, name: b.name, input: asObject(JSON.parse(b.json)) };
  } catch (e) {
    return { id: b.id, name: b.name, input: {}, inputParseError: `arguments were not valid JSON: ${(e as Error).message}` };
  }
}

function asObject(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

const stopReasons = new Set<string>(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'pause_turn', 'refusal', 'model_context_window_exceeded']);
function stopReasonOf(s: string | null | undefined): StopReason {
  return s && stopReasons.has(s) ? (s as StopReason) : 'unknown';
}

/** Maps anything the SDK throws to a ModelError a PM can read. */
export function toModelError(e: unknown, signal: AbortSignal | undefined, streaming: boolean, requestId?: string): ModelError {
  if (e instanceof ModelError) return e;
  if (signal?.aborted || e instanceof APIUserAbortError || (e instanceof Error && e.name === 'AbortError')) {
    return new ModelError('cancelled', 'The request to Claude was stopped.', { requestId, cause: e });
  }
  if (e instanceof APIConnectionTimeoutError) {
    return new ModelError('timeout', 'Claude did not answer in time. Try again in a minute.', { requestId, cause: e });
  }
  if (e instanceof APIConnectionError) {
    return streaming
      ? new ModelError('stream_interrupted', 'The connection to Claude broke while it was answering. Try again.', { requestId, cause: e })
      : new ModelError('connection', 'Forge could not reach Claude. Check the network connection (and the API address in Settings).', { requestId, cause: e });
  }
  if (e instanceof APIError) {
    const id = e.requestID ?? requestId ?? undefined;
    const status = typeof e.status === 'number' ? e.status : undefined;
    const type = errorTypeOf(e.error);
    const [kind, text] = classify(status, type);
    // The API's own wording helps only when the request itself was wrong; otherwise it is noise.
    const detail = (kind === 'bad_request' || kind === 'not_found') && e.message ? ` Details: ${e.message}` : '';
    return new ModelError(kind, text + detail, { status, requestId: id, cause: e, retryAfterMs: retryAfterMs(e.headers) });
  }
  if (streaming) {
    return new ModelError('stream_interrupted', 'The connection to Claude broke while it was answering. Try again.', { requestId, cause: e });
  }
  return new ModelError('connection', `The call to Claude failed: ${e instanceof Error ? e.message : String(e)}`, { requestId, cause: e });
}

function errorTypeOf(body: unknown): string | undefined {
  const inner = body && typeof body === 'object' ? (body as { error?: { type?: unknown }; type?: unknown }) : undefined;
  const t = inner?.error?.type ?? inner?.type;
  return typeof t === 'string' ? t : undefined;
}

function classify(status: number | undefined, type: string | undefined): [ModelErrorKind, string] {
  if (status === 401 || type === 'authentication_error') {
    return ['auth', 'Anthropic rejected the API key. Check the key in Settings → API keys (or ANTHROPIC_API_KEY).'];
  }
  if (status === 403 || type === 'permission_error') return ['auth', 'This API key is not allowed to use that model or feature.'];
  if (status === 404 || type === 'not_found_error') return ['not_found', 'Anthropic does not know that model. Check the model ids in Settings → Models.'];
  if (status === 413 || type === 'request_too_large') return ['too_large', 'The request to Claude was too large. Compact the session and try again.'];
  if (status === 429 || type === 'rate_limit_error') return ['rate_limited', 'Anthropic is rate-limiting this API key. Wait a minute and try again.'];
  if (status === 529 || type === 'overloaded_error') return ['overloaded', 'Claude is overloaded right now. Try again in a few minutes.'];
  // An error sent inside a stream has no status; its type says what it was.
  if ((status !== undefined && status >= 500) || type === 'api_error') return ['server_error', 'Anthropic had a server error. Try again shortly.'];
  if (status === 408) return ['timeout', 'Claude did not answer in time. Try again.'];
  return ['bad_request', 'Claude refused the request as malformed. This is a bug in Forge; please report it.'];
}
