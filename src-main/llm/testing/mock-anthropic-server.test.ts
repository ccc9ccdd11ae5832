import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from './mock-anthropic-server';
import type { MockAnthropicServer } from './mock-anthropic-server';

let mock: MockAnthropicServer;
const post = (path: string, body: unknown, headers: Record<string, string> = { 'x-api-key': 'k' }) =>
  fetch(`${mock.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const minimal = { model: 'claude-sonnet-5-5', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] };

beforeAll(async () => {
  mock = await startMockAnthropicServer();
});
afterAll(() => mock.close());

describe('mock Anthropic server', () => {
  it('a 429 tells the client when to come back, in seconds and in milliseconds, with a request id', async () => {
    mock.reset();
    mock.enqueue({ fault: 'rate_limit', retryAfterMs: 1500 });
    const res = await post('/v1/messages', minimal);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(res.headers.get('retry-after-ms')).toBe('1500');
    const id = res.headers.get('request-id');
    expect(id).toMatch(/^req_mock_\d+$/);
    const body = (await res.json()) as { error: { type: string }; request_id: string };
    expect(body.error.type).toBe('rate_limit_error');
    expect(body.request_id).toBe(id);
    expect(mock.requests[0]!.status).toBe(429);
  });

  it('can overload inside a stream after answering 200, as the API does, so clients can be tested against it', async () => {
    mock.reset();
    mock.enqueue({ fault: 'error_in_stream', afterEvents: 4, reply: { text: 'The start of an answer that never finishes.' } });
    const res = await post('/v1/messages', { ...minimal, stream: true });
    expect(res.status).toBe(200);
    const body = await res.text();
    const events = body
      .trim()
      .split('\n\n')
      .map((e) => e.split('\n')[0]);
    expect(events).toEqual(['event: message_start', 'event: ping', 'event: content_block_start', 'event: content_block_delta', 'event: error']);
    const last = JSON.parse(body.trim().split('\n').at(-1)!.slice('data: '.length)) as { type: string; error: { type: string } };
    expect(last).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
    // Without stream: true the same fault is an HTTP 529, as a JSON answer cannot fail half way.
    mock.enqueue({ fault: 'error_in_stream' });
    expect((await post('/v1/messages', minimal)).status).toBe(529);
  });

  it('answers from the responder once the queue is empty, and records what it was sent', async () => {
    mock.reset();
    mock.setResponder((r) => ({ text: `You said ${(r.body.messages as { content: string }[])[0]!.content}` }));
    const res = await post('/v1/messages', minimal, { authorization: 'Bearer k2' });
    const body = (await res.json()) as { content: { text: string }[]; usage: Record<string, number> };
    expect(body.content[0]!.text).toBe('You said hi');
    expect(body.usage.input_tokens).toBeGreaterThan(0);
    expect(mock.requests[0]!.apiKey).toBe('k2');
    expect(mock.requests[0]!.body.max_tokens).toBe(8);
    mock.setResponder(undefined);
  });

  it('refuses unknown routes and requests without max_tokens, as the API does', async () => {
    mock.reset();
    expect((await post('/v1/complete', minimal)).status).toBe(404);
    expect((await post('/v1/messages', { model: 'm', messages: [] })).status).toBe(400);
    const counted = await post('/v1/messages/count_tokens', { model: 'm', messages: [{ role: 'user', content: 'hello world' }] });
    expect(counted.status).toBe(200);
    expect(((await counted.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(2);
    expect(mock.pending).toBe(0);
  });
});
