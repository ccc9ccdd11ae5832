import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countTokens } from '../tokens';
import { PromptCache, TooManyBreakpointsError, defaultMinCacheableTokens, flattenPrompt, totalTokens } from './prompt-cache';
import type { CacheAccount } from './prompt-cache';

/**
 * A real HTTP server on 127.0.0.1 that speaks enough of the Anthropic Messages API for the real
 * SDK client to run against it in tests: JSON and SSE answers with tool use, count_tokens, both
 * auth headers, prompt-cache accounting (see prompt-cache.ts) and injected faults.
 */

export type MockContent = { type: 'text'; text: string } | { type: 'tool_use'; id?: string; name: string; input: Record<string, unknown> };

export interface MockReply {
  text?: string;
  toolCalls?: { id?: string; name: string; input: Record<string, unknown> }[];
  /** Full control over the blocks; wins over text/toolCalls. */
  content?: MockContent[];
  stopReason?: string;
  /** Wait this long before the first byte (headers) is sent. */
  delayMs?: number;
  /** Streaming only: pause between SSE events (a slow answer the PM may stop). */
  eventDelayMs?: number;
}

export type MockFault =
  | { fault: 'rate_limit'; retryAfterMs?: number; retryAfterSeconds?: number }
  | { fault: 'overloaded'; retryAfterMs?: number }
  | { fault: 'server_error'; retryAfterMs?: number }
  | { fault: 'status'; status: number; errorType: string; message?: string }
  | { fault: 'slow_first_byte'; delayMs: number; reply?: MockReply }
  /** Streams `afterEvents` SSE events of `reply` (or of the JSON body's first bytes), then resets the socket. */
  | { fault: 'reset_mid_stream'; afterEvents?: number; reply?: MockReply }
  /**
   * What the API does when it overloads part way through an answer: HTTP 200, `afterEvents` SSE
   * events of `reply` (default 4: the first text delta is out), then `event: error` with
   * `{"type":"error","error":{"type":<errorType>}}`, and the end of the stream. A non-streaming
   * request gets the same error as its HTTP status (529 overloaded, else 500), as the API would.
   */
  | { fault: 'error_in_stream'; errorType?: 'overloaded_error' | 'api_error'; afterEvents?: number; reply?: MockReply };

export type MockStep = MockReply | MockFault;

export interface RecordedRequest {
  path: string;
  requestId: string;
  headers: Record<string, string | string[] | undefined>;
  auth: 'x-api-key' | 'bearer' | 'none';
  apiKey?: string;
  body: Record<string, unknown>;
  stream: boolean;
  /** Cache accounting for /v1/messages (before any fault decided the answer). */
  usage?: CacheAccount;
  status?: number;
  receivedAt: number;
}

export interface MockAnthropicOptions {
  /** When set, only this key is accepted; otherwise any non-empty key is. */
  apiKey?: string;
  /** Injectable clock for cache TTLs (ms). */
  clock?: () => number;
  minCacheableTokens?: (model: string) => number;
  /** Used when the queue is empty. Default: a short text answer. */
  responder?: (request: RecordedRequest) => MockStep | Promise<MockStep>;
  /** Characters per SSE text/json delta (default 12). */
  chunkSize?: number;
}

export interface MockAnthropicServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  readonly cache: PromptCache;
  /** Queue steps consumed one per /v1/messages request (retries consume their own step). */
  enqueue(...steps: MockStep[]): void;
  setResponder(responder: MockAnthropicOptions['responder']): void;
  /** Forgets queued steps, recorded requests and the prompt cache (between tests). */
  reset(): void;
  /** Steps still queued. */
  readonly pending: number;
  /** Requests to /v1/messages only. */
  messageRequests(): RecordedRequest[];
  close(): Promise<void>;
}

export async function startMockAnthropicServer(options: MockAnthropicOptions = {}): Promise<MockAnthropicServer> {
  const requests: RecordedRequest[] = [];
  const queue: MockStep[] = [];
  const cache = new PromptCache(options.clock ?? Date.now, options.minCacheableTokens ?? defaultMinCacheableTokens);
  let responder = options.responder;
  let seq = 0;
  const timers = new Set<NodeJS.Timeout>();
  const chunk = options.chunkSize ?? 12;

  const wait = (ms: number, res: ServerResponse) =>
    new Promise<boolean>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve(true);
      }, ms);
      timers.add(t);
      // The client gave up (abort): stop waiting so nothing is written to a dead socket.
      // (IncomingMessage 'close' fires once the body is read; the response's fires on disconnect.)
      res.once('close', () => {
        clearTimeout(t);
        timers.delete(t);
        resolve(false);
      });
    });

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) sendError(res, 500, 'api_error', String(e), 'req_mock_internal');
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = `req_mock_${String(++seq).padStart(4, '0')}`;
    res.setHeader('request-id', requestId);
    const raw = await readBody(req);
    let body: Record<string, unknown> = {};
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      return sendError(res, 400, 'invalid_request_error', 'Request body is not valid JSON.', requestId);
    }
    const path = (req.url ?? '').split('?')[0]!;
    const { auth, key } = authOf(req);
    const rec: RecordedRequest = {
      path,
      requestId,
      headers: req.headers,
      auth,
      ...(key ? { apiKey: key } : {}),
      body,
      stream: body.stream === true,
      receivedAt: Date.now(),
    };
    requests.push(rec);
    const status = (s: number) => {
      rec.status = s;
      return s;
    };

    if (req.method !== 'POST' || (path !== '/v1/messages' && path !== '/v1/messages/count_tokens')) {
      return sendError(res, status(404), 'not_found_error', `No route ${req.method} ${path}.`, requestId);
    }
    if (!key || (options.apiKey !== undefined && key !== options.apiKey)) {
      return sendError(res, status(401), 'authentication_error', 'invalid x-api-key', requestId);
    }
    if (typeof body.model !== 'string' || !Array.isArray(body.messages)) {
      return sendError(res, status(400), 'invalid_request_error', 'model and messages are required.', requestId);
    }
    const blocks = flattenPrompt(body);
    if (path === '/v1/messages/count_tokens') {
      status(200);
      return sendJson(res, 200, { input_tokens: totalTokens(blocks) });
    }
    if (typeof body.max_tokens !== 'number') {
      return sendError(res, status(400), 'invalid_request_error', 'max_tokens: Field required', requestId);
    }

    let step: MockStep = queue.length ? queue.shift()! : responder ? await responder(rec) : { text: 'OK.' };
    if ('fault' in step) {
      const f = step;
      const retryHeaders = (ms: number | undefined, secs?: number): Record<string, string> => ({
        'retry-after': String(secs ?? Math.max(1, Math.ceil((ms ?? 1) / 1000))),
        'retry-after-ms': String(ms ?? 1),
      });
      if (f.fault === 'rate_limit') {
        return sendError(
          res,
          status(429),
          'rate_limit_error',
          'Number of request tokens has exceeded your rate limit.',
          requestId,
          retryHeaders(f.retryAfterMs, f.retryAfterSeconds),
        );
      }
      if (f.fault === 'overloaded') return sendError(res, status(529), 'overloaded_error', 'Overloaded', requestId, retryHeaders(f.retryAfterMs));
      if (f.fault === 'server_error') return sendError(res, status(500), 'api_error', 'Internal server error', requestId, retryHeaders(f.retryAfterMs));
      if (f.fault === 'status') return sendError(res, status(f.status), f.errorType, f.message ?? f.errorType, requestId);
      if (f.fault === 'error_in_stream') {
        const errorType = f.errorType ?? 'overloaded_error';
        const message = errorType === 'overloaded_error' ? 'Overloaded' : 'Internal server error';
        if (!rec.stream) return sendError(res, status(errorType === 'overloaded_error' ? 529 : 500), errorType, message, requestId);
        const reply = f.reply ?? { text: 'This answer starts, then the API overloads part way through it.' };
        const account = accountOrFail(rec, blocks, res, requestId);
        if (!account) return;
        status(200);
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        for (const e of sseEvents(reply, String(body.model), account, requestId, chunk).slice(0, f.afterEvents ?? 4)) res.write(e);
        res.end(sse('error', { error: { type: errorType, message } }));
        return;
      }
      if (f.fault === 'slow_first_byte') {
        if (!(await wait(f.delayMs, res))) return;
        step = f.reply ?? { text: 'OK.' };
      } else {
        // reset_mid_stream
        const reply = f.reply ?? { text: 'This answer will be cut off part way through, so nobody should ever see it whole.' };
        const account = accountOrFail(rec, blocks, res, requestId);
        if (!account) return;
        status(200);
        const events = sseEvents(reply, String(body.model), account, requestId, chunk);
        res.writeHead(200, rec.stream ? { 'content-type': 'text/event-stream' } : { 'content-type': 'application/json' });
        if (rec.stream) for (const e of events.slice(0, f.afterEvents ?? 4)) res.write(e);
        else res.write('{"id":"msg_');
        await new Promise((r) => setTimeout(r, 5));
        res.socket?.destroy();
        return;
      }
    }
    const reply = step as MockReply;
    if (reply.delayMs && !(await wait(reply.delayMs, res))) return;
    const account = accountOrFail(rec, blocks, res, requestId);
    if (!account) return;
    status(200);
    if (rec.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const e of sseEvents(reply, String(body.model), account, requestId, chunk)) {
        res.write(e);
        if (reply.eventDelayMs && !(await wait(reply.eventDelayMs, res))) return;
      }
      res.end();
    } else {
      sendJson(res, 200, messageJson(reply, String(body.model), account, requestId));
    }
  }

  function accountOrFail(rec: RecordedRequest, blocks: ReturnType<typeof flattenPrompt>, res: ServerResponse, requestId: string) {
    try {
      rec.usage = cache.account(rec.apiKey ?? '', String(rec.body.model), blocks);
      return rec.usage;
    } catch (e) {
      if (!(e instanceof TooManyBreakpointsError)) throw e;
      rec.status = 400;
      sendError(res, 400, 'invalid_request_error', e.message, requestId);
      return undefined;
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    cache,
    enqueue: (...steps) => void queue.push(...steps),
    setResponder: (r) => {
      responder = r;
    },
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      cache.clear();
    },
    get pending() {
      return queue.length;
    },
    messageRequests: () => requests.filter((r) => r.path === '/v1/messages'),
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function authOf(req: IncomingMessage): { auth: RecordedRequest['auth']; key?: string } {
  const x = req.headers['x-api-key'];
  if (typeof x === 'string' && x.trim()) return { auth: 'x-api-key', key: x.trim() };
  const a = req.headers.authorization;
  const m = typeof a === 'string' ? /^Bearer\s+(.+)$/i.exec(a.trim()) : null;
  if (m) return { auth: 'bearer', key: m[1]!.trim() };
  return { auth: 'none' };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, type: string, message: string, requestId: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { type: 'error', error: { type, message }, request_id: requestId }, headers);
}

function contentOf(reply: MockReply): MockContent[] {
  if (reply.content) return reply.content;
  const out: MockContent[] = [];
  if (reply.text) out.push({ type: 'text', text: reply.text });
  for (const c of reply.toolCalls ?? []) out.push({ type: 'tool_use', ...c });
  return out.length ? out : [{ type: 'text', text: '' }];
}

function wireContent(reply: MockReply, requestId: string): Record<string, unknown>[] {
  return contentOf(reply).map((b, i) =>
    b.type === 'text' ? { type: 'text', text: b.text } : { type: 'tool_use', id: b.id ?? `toolu_${requestId}_${i}`, name: b.name, input: b.input },
  );
}

function outputTokens(content: Record<string, unknown>[]): number {
  return (
    content.reduce((n, b) => n + (b.type === 'text' ? countTokens(String(b.text)) : countTokens(String(b.name)) + countTokens(JSON.stringify(b.input))), 0) || 1
  );
}

function usageJson(a: CacheAccount, output: number) {
  return {
    input_tokens: a.inputTokens,
    output_tokens: output,
    cache_creation_input_tokens: a.cacheCreationTokens,
    cache_read_input_tokens: a.cacheReadTokens,
  };
}

function stopOf(reply: MockReply, content: Record<string, unknown>[]): string {
  return reply.stopReason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
}

function messageJson(reply: MockReply, model: string, a: CacheAccount, requestId: string) {
  const content = wireContent(reply, requestId);
  return {
    id: `msg_${requestId}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopOf(reply, content),
    stop_sequence: null,
    usage: usageJson(a, outputTokens(content)),
  };
}

function sse(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

function pieces(s: string, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out.length ? out : [''];
}

/** The SSE events of one answer, in the API's order. */
function sseEvents(reply: MockReply, model: string, a: CacheAccount, requestId: string, chunk: number): string[] {
  const content = wireContent(reply, requestId);
  const msg = messageJson(reply, model, a, requestId);
  const events = [sse('message_start', { message: { ...msg, content: [], stop_reason: null, usage: usageJson(a, 1) } }), sse('ping', {})];
  content.forEach((b, index) => {
    if (b.type === 'text') {
      events.push(sse('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      for (const p of pieces(String(b.text), chunk)) events.push(sse('content_block_delta', { index, delta: { type: 'text_delta', text: p } }));
    } else {
      events.push(sse('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } }));
      for (const p of pieces(JSON.stringify(b.input), chunk)) {
        events.push(sse('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: p } }));
      }
    }
    events.push(sse('content_block_stop', { index }));
  });
  events.push(sse('message_delta', { delta: { stop_reason: msg.stop_reason, stop_sequence: null }, usage: { output_tokens: msg.usage.output_tokens } }));
  events.push(sse('message_stop', {}));
  return events;
}
