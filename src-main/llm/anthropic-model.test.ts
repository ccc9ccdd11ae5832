import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicModel } from './anthropic-model';
import { ModelError } from './errors';
import { costOf } from './pricing';
import type { ModelStreamEvent, ToolDefinition } from './types';
import { startMockAnthropicServer } from './testing/mock-anthropic-server';
import type { MockAnthropicServer } from './testing/mock-anthropic-server';

const KEY = 'sk-test-key';
const MODEL = 'claude-sonnet-5-5';
let mock: MockAnthropicServer;

const readTool: ToolDefinition = {
  name: 'read',
  description: 'Read a memory file.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

function model(extra: Partial<ConstructorParameters<typeof AnthropicModel>[0]> = {}) {
  // Short back-off so retries do not slow the suite; the attempt count is the shared default (3).
  return new AnthropicModel({ apiKey: () => KEY, env: {}, baseURL: mock.url, defaultModel: MODEL, retry: { baseDelayMs: 5 }, ...extra });
}

beforeAll(async () => {
  mock = await startMockAnthropicServer({ apiKey: KEY });
});
afterAll(() => mock.close());
beforeEach(() => {
  mock.reset();
  mock.setResponder(undefined);
});

describe('AnthropicModel against the mock Anthropic server', () => {
  it('returns the tool call the model asked for, so the analyst can run it', async () => {
    mock.enqueue({ text: 'Let me look.', toolCalls: [{ name: 'read', input: { path: '/memory/views/V-001.md', depth: 'header' } }] });
    const r = await model().call({
      system: 'You are the analyst.',
      messages: [{ role: 'user', content: 'What is V-001?' }],
      tools: [readTool],
      maxTokens: 512,
    });
    expect(r.text).toBe('Let me look.');
    expect(r.stopReason).toBe('tool_use');
    expect(r.toolCalls).toHaveLength(1);
    expect(r.toolCalls[0]!.name).toBe('read');
    expect(r.toolCalls[0]!.input).toEqual({ path: '/memory/views/V-001.md', depth: 'header' });
    expect(r.requestId).toMatch(/^req_mock_/);
    expect(r.model).toBe(MODEL);
    const sent = mock.messageRequests()[0]!;
    expect(sent.body.model).toBe(MODEL);
    expect(sent.body.max_tokens).toBe(512);
  });

  it('streams text and assembles tool input from input_json_delta pieces', async () => {
    const input = { path: '/memory/views/', query: 'status:active rates "curve steepener"', depth: 'summary' };
    mock.enqueue({ text: 'Checking the active Views on rates before answering.', toolCalls: [{ name: 'read', input }] });
    const events: ModelStreamEvent[] = [];
    const r = await model().stream({ system: 'x', messages: [{ role: 'user', content: 'rates?' }], tools: [readTool], maxTokens: 256 }, (e) => events.push(e));
    const deltas = events.filter((e) => e.type === 'tool_input_delta');
    expect(deltas.length).toBeGreaterThan(3); // arrived in pieces, not as one blob
    expect(deltas.map((d) => (d.type === 'tool_input_delta' ? d.partialJson : '')).join('')).toBe(JSON.stringify(input));
    expect(r.toolCalls[0]!.input).toEqual(input);
    expect(
      events
        .filter((e) => e.type === 'text_delta')
        .map((e) => (e.type === 'text_delta' ? e.text : ''))
        .join(''),
    ).toBe(r.text);
    expect(r.text).toBe('Checking the active Views on rates before answering.');
    const call = events.find((e) => e.type === 'tool_call');
    expect(call?.type === 'tool_call' && call.call.input).toEqual(input);
    expect(events[events.length - 1]!.type).toBe('done');
    expect(r.usage.outputTokens).toBeGreaterThan(0);
    expect(mock.messageRequests()[0]!.stream).toBe(true);
  });

  it('accepts the key as x-api-key and as a Bearer token, and refuses a request without one', async () => {
    await model().call({ system: 's', messages: [{ role: 'user', content: 'hi' }], maxTokens: 16 });
    expect(mock.requests[0]!.auth).toBe('bearer'); // what SDK 1.12 sends
    const body = JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    const viaHeader = await fetch(`${mock.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body });
    expect(viaHeader.status).toBe(200);
    expect(mock.requests[1]!.auth).toBe('x-api-key');
    const none = await fetch(`${mock.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(none.status).toBe(401);
    expect(none.headers.get('request-id')).toMatch(/^req_mock_/);
  });

  it('a wrong key becomes a "missing_key" error telling the PM to check Settings (not the page\'s access-link alarm)', async () => {
    const m = new AnthropicModel({ apiKey: () => 'sk-wrong', env: {}, baseURL: mock.url, defaultModel: MODEL });
    const err = await m.call({ system: 's', messages: [{ role: 'user', content: 'hi' }], maxTokens: 16 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).code).toBe('missing_key');
    expect((err as ModelError).status).toBe(401);
    expect((err as ModelError).message).toContain('Settings');
    expect((err as ModelError).requestId).toMatch(/^req_mock_/);
  });

  it('without any key the PM is told where to add one, and nothing is sent', async () => {
    const m = new AnthropicModel({ apiKey: () => undefined, env: {}, baseURL: mock.url, defaultModel: MODEL });
    const err = (await m.call({ system: 's', messages: [{ role: 'user', content: 'hi' }], maxTokens: 16 }).catch((e: unknown) => e)) as ModelError;
    expect(err.kind).toBe('missing_key');
    expect(err.code).toBe('missing_key');
    expect(err.message).toContain('Settings → API keys');
    expect(err.message).toContain('ANTHROPIC_API_KEY');
    expect(mock.requests).toHaveLength(0);
    // The environment variable is the fallback when secure settings hold nothing.
    const fromEnv = new AnthropicModel({ apiKey: () => undefined, env: { ANTHROPIC_API_KEY: KEY }, baseURL: mock.url, defaultModel: MODEL });
    expect((await fromEnv.call({ system: 's', messages: [{ role: 'user', content: 'hi' }], maxTokens: 16 })).text).toBe('OK.');
  });

  it('a 429 is retried by the SDK after retry-after-ms, and the answer comes through', async () => {
    mock.enqueue({ fault: 'rate_limit', retryAfterMs: 5 }, { text: 'Second time lucky.' });
    // The back-off is ten minutes: the answer arriving within the test's time proves retry-after-ms was honoured.
    const r = await model({ retry: { baseDelayMs: 600_000 } }).call({ system: 's', messages: [{ role: 'user', content: 'hi' }], maxTokens: 16 });
    expect(r.text).toBe('Second time lucky.');
    expect(mock.messageRequests().map((q) => q.status)).toEqual([429, 200]);
  });

  it('529 overloaded on every attempt ends in a typed, retryable error with the last request id and the true attempt count', async () => {
    mock.enqueue({ fault: 'overloaded' }, { fault: 'overloaded' }, { fault: 'overloaded' });
    const err = (await model()
      .call({ system: 's', messages: [{ role: 'user', content: 'hi' }], maxTokens: 16 })
      .catch((e: unknown) => e)) as ModelError;
    expect(err).toBeInstanceOf(ModelError);
    expect(err.kind).toBe('overloaded');
    expect(err.code).toBe('unavailable');
    expect(err.status).toBe(529);
    expect(err.retryable).toBe(true);
    const sent = mock.messageRequests();
    expect(sent).toHaveLength(3); // the shared default policy: 3 attempts
    expect(err.attempts).toBe(3);
    expect(err.message).toContain('Forge tried 3 times');
    expect(err.requestId).toBe(sent[2]!.requestId);
    expect(err.message).toContain(sent[2]!.requestId);
  });

  it('500 on every retry of a stream ends in a server_error carrying the request id', async () => {
    mock.enqueue({ fault: 'server_error' }, { fault: 'server_error' });
    const m = model({ maxRetries: 1 });
    const events: ModelStreamEvent[] = [];
    const err = (await m
      .stream({ system: 's', messages: [{ role: 'user', content: 'hi' }], maxTokens: 16 }, (e) => events.push(e))
      .catch((e: unknown) => e)) as ModelError;
    expect(err.kind).toBe('server_error');
    expect(err.status).toBe(500);
    expect(err.requestId).toBe(mock.messageRequests()[1]!.requestId);
    expect(events.some((e) => e.type === 'done')).toBe(false);
  });

  it('a connection reset mid-stream is an error, never a half answer passed off as complete', async () => {
    mock.enqueue({ fault: 'reset_mid_stream', afterEvents: 5 });
    const events: ModelStreamEvent[] = [];
    const m = model({ maxRetries: 0 });
    const err = (await m
      .stream({ system: 's', messages: [{ role: 'user', content: 'hi' }], maxTokens: 64 }, (e) => events.push(e))
      .catch((e: unknown) => e)) as ModelError;
    expect(err).toBeInstanceOf(ModelError);
    expect(err.kind).toBe('stream_interrupted');
    expect(err.retryable).toBe(true);
    expect(err.requestId).toBe(mock.messageRequests()[0]!.requestId);
    expect(events.some((e) => e.type === 'text_delta')).toBe(true); // it really was cut mid-answer
    expect(events.some((e) => e.type === 'done')).toBe(false);
    expect(err.attempts).toBe(1);
    expect(err.message).not.toMatch(/tried|retr/i); // no retry happened, so none is claimed
  });

  it('a reset mid-stream is re-sent by policy, telling the UI to drop the partial text', async () => {
    mock.enqueue({ fault: 'reset_mid_stream', afterEvents: 5 }, { text: 'The whole answer.' });
    const events: ModelStreamEvent[] = [];
    const r = await model().stream({ system: 's', messages: [{ role: 'user', content: 'hi' }], maxTokens: 64 }, (e) => events.push(e));
    expect(r.text).toBe('The whole answer.');
    const restart = events.findIndex((e) => e.type === 'restart');
    expect(restart).toBeGreaterThan(0);
    const after = events
      .slice(restart)
      .filter((e) => e.type === 'text_delta')
      .map((e) => (e.type === 'text_delta' ? e.text : ''));
    expect(after.join('')).toBe('The whole answer.');
  });

  it('a JSON answer cut off mid-body is re-sent, then fails with its request id and the number of attempts', async () => {
    mock.enqueue({ fault: 'reset_mid_stream' }, { text: 'Recovered.' });
    expect((await model().call({ system: 's', messages: [{ role: 'user', content: 'hi' }], maxTokens: 16 })).text).toBe('Recovered.');
    mock.reset();
    mock.enqueue({ fault: 'reset_mid_stream' }, { fault: 'reset_mid_stream' });
    const err = (await model({ maxRetries: 1 })
      .call({ system: 's', messages: [{ role: 'user', content: 'hi' }], maxTokens: 16 })
      .catch((e: unknown) => e)) as ModelError;
    expect(err).toBeInstanceOf(ModelError);
    expect(err.kind).toBe('stream_interrupted');
    expect(err.code).toBe('unavailable');
    expect(mock.messageRequests()).toHaveLength(2);
    expect(err.attempts).toBe(2);
    expect(err.message).toContain('Forge tried 2 times');
    expect(err.requestId).toBe(mock.messageRequests()[1]!.requestId);
  });

  it('Stop cancels a call waiting on a slow first byte, without waiting for it', async () => {
    mock.enqueue({ fault: 'slow_first_byte', delayMs: 120_000 });
    const ac = new AbortController();
    let t0 = 0;
    // Stop once the request is at the server and waiting (on a loaded machine it may take a while to get there).
    const waitThenStop = setInterval(() => {
      if (mock.messageRequests().length === 0) return;
      clearInterval(waitThenStop);
      t0 = Date.now();
      ac.abort();
    }, 5);
    const err = (await model()
      .stream({ system: 's', messages: [{ role: 'user', content: 'hi' }], maxTokens: 16, signal: ac.signal }, () => {})
      .catch((e: unknown) => e)) as ModelError;
    clearInterval(waitThenStop);
    const elapsed = Date.now() - t0;
    expect(err.kind).toBe('cancelled');
    expect(err.code).toBe('cancelled');
    expect(elapsed).toBeLessThan(20_000); // the first byte would come after two minutes
    expect(mock.messageRequests()).toHaveLength(1); // an abort is never retried
  });

  it('Stop during a slow streamed answer ends it at once, with no result passed off as complete', async () => {
    // Long enough (about 10 s of events) that the Stop always lands mid-answer, even on a loaded machine.
    mock.enqueue({ text: 'A long answer that trickles in. '.repeat(200), eventDelayMs: 20 });
    const ac = new AbortController();
    const events: ModelStreamEvent[] = [];
    let t0 = 0;
    const done = model().stream({ system: 's', messages: [{ role: 'user', content: 'hi' }], maxTokens: 500, signal: ac.signal }, (e) => {
      events.push(e);
      if (e.type === 'text_delta' && !t0) {
        setTimeout(() => {
          t0 = Date.now();
          ac.abort();
        }, 30);
      }
    });
    const err = (await done.catch((e: unknown) => e)) as ModelError;
    expect(err.kind).toBe('cancelled');
    expect(Date.now() - t0).toBeLessThan(5000); // the rest of the answer would take about 10 s
    expect(events.some((e) => e.type === 'done')).toBe(false);
    expect(events.some((e) => e.type === 'restart')).toBe(false); // a Stop is never re-sent
  });

  it('a slow first byte that does arrive is simply waited for', async () => {
    mock.enqueue({ fault: 'slow_first_byte', delayMs: 40, reply: { text: 'Late but fine.' } });
    const r = await model().call({ system: 's', messages: [{ role: 'user', content: 'hi' }], maxTokens: 16 });
    expect(r.text).toBe('Late but fine.');
  });

  it('prices each call from its usage, cache writes at 1.25x and reads at 0.1x the input price', async () => {
    const big = 'The macro regime view is tracked across growth, inflation and policy. '.repeat(120);
    const req = { system: [{ text: big, stable: true }], messages: [{ role: 'user' as const, content: 'first' }], maxTokens: 16 };
    const m = model({ defaultModel: 'claude-opus-5-5' });
    const first = await m.call(req);
    expect(first.usage.cacheWriteTokens).toBeGreaterThan(1024);
    const second = await m.call(req);
    expect(second.usage.cacheReadTokens).toBe(first.usage.cacheWriteTokens);
    const u = second.usage;
    const expected = (u.inputTokens * 5 + u.cacheWriteTokens * 6.25 + u.cacheReadTokens * 0.5 + u.outputTokens * 25) / 1e6;
    expect(u.costUsd).toBeCloseTo(expected, 12);
    expect(first.usage.costUsd!).toBeGreaterThan(u.costUsd!); // the cached call is cheaper
    expect(costOf('some-unknown-model', u)).toBeNull();
  });

  it('routes a role to its configured model', async () => {
    const m = new AnthropicModel({
      apiKey: () => KEY,
      env: {},
      baseURL: mock.url,
      router: (role) => (role === 'compact' ? 'claude-haiku-5-5' : 'claude-opus-5-5'),
    });
    await m.call({ role: 'compact', system: 's', messages: [{ role: 'user', content: 'hi' }], maxTokens: 16 });
    await m.call({ role: 'compact', model: 'claude-sonnet-5-5', system: 's', messages: [{ role: 'user', content: 'hi' }], maxTokens: 16 });
    expect(mock.messageRequests().map((r) => r.body.model)).toEqual(['claude-haiku-5-5', 'claude-sonnet-5-5']);
  });
});
