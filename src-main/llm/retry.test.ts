import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicModel } from './anthropic-model';
import { ModelError } from './errors';
import { DEFAULT_RETRY, RetryingModel, withRetries, type RetryNotice } from './retry';
import { ScriptedModel } from './scripted-model';
import { startMockAnthropicServer, type MockAnthropicServer } from './testing/mock-anthropic-server';
import type { ModelCallRequest, ModelStreamEvent } from './types';

/**
 * The one retry policy, on the analyst's streaming path: the real SDK against the mock Messages
 * API, which answers 200 and then sends `event: error` (overloaded or api_error) part way through.
 */
const KEY = 'sk-test-key';
let mock: MockAnthropicServer;

const model = (extra: ConstructorParameters<typeof AnthropicModel>[0] = {}) =>
  new AnthropicModel({ apiKey: () => KEY, env: {}, baseURL: mock.url, defaultModel: 'claude-sonnet-5-5', retry: { baseDelayMs: 5 }, ...extra });

/** What the chat shows: text deltas appended, a restart wiping the round (as the renderer's store does). */
function screen() {
  const events: ModelStreamEvent[] = [];
  let shown = '';
  return {
    events,
    onEvent: (e: ModelStreamEvent) => {
      events.push(e);
      if (e.type === 'text_delta') shown += e.text;
      else if (e.type === 'restart') shown = '';
    },
    get shown() {
      return shown;
    },
  };
}

const ask = (notices: RetryNotice[] = []): ModelCallRequest => ({
  system: 's',
  messages: [{ role: 'user', content: 'Where is the curve going?' }],
  maxTokens: 128,
  onRetry: (n) => notices.push(n),
});

beforeAll(async () => {
  mock = await startMockAnthropicServer({ apiKey: KEY });
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

describe('an overload inside a stream that already answered 200', () => {
  it('is retried, and the PM sees the answer once — not the cut-off start followed by the whole answer', async () => {
    mock.enqueue(
      {
        fault: 'error_in_stream',
        errorType: 'overloaded_error',
        afterEvents: 5,
        reply: { text: 'The curve steepens as the Fed cuts, because front-end yields fall faster.' },
      },
      { text: 'The curve steepens as the Fed cuts.' },
    );
    const view = screen();
    const notices: RetryNotice[] = [];
    const r = await model().stream(ask(notices), view.onEvent);

    expect(r.text).toBe('The curve steepens as the Fed cuts.');
    expect(mock.messageRequests().map((q) => q.status)).toEqual([200, 200]); // both attempts were 200s: the error was in the body
    expect(mock.messageRequests()).toHaveLength(2); // attempt count 2
    const restart = view.events.findIndex((e) => e.type === 'restart');
    expect(view.events.slice(0, restart).some((e) => e.type === 'text_delta')).toBe(true); // text had already reached the screen
    expect(view.events[restart]).toMatchObject({ type: 'restart', attempt: 2 });
    expect(view.shown).toBe('The curve steepens as the Fed cuts.'); // no duplicated or leftover text
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ attempt: 1 });
    expect(notices[0]!.error.kind).toBe('overloaded');
    expect(notices[0]!.error.requestId).toBe(mock.messageRequests()[0]!.requestId);
  });

  it('an api_error inside the stream is a retryable server error, not "a bug in Forge"', async () => {
    mock.enqueue({ fault: 'error_in_stream', errorType: 'api_error', afterEvents: 0 }, { text: 'Fine now.' });
    const notices: RetryNotice[] = [];
    const r = await model().stream(ask(notices), () => {});
    expect(r.text).toBe('Fine now.');
    expect(notices.map((n) => n.error.kind)).toEqual(['server_error']);
  });

  it('when every attempt overloads, the error says how many attempts were really made', async () => {
    mock.enqueue({ fault: 'error_in_stream', afterEvents: 5 }, { fault: 'error_in_stream', afterEvents: 5 }, { fault: 'error_in_stream', afterEvents: 5 });
    const view = screen();
    const err = (await model()
      .stream(ask(), view.onEvent)
      .catch((e: unknown) => e)) as ModelError;
    expect(err).toBeInstanceOf(ModelError);
    expect(err.kind).toBe('overloaded');
    expect(err.code).toBe('unavailable');
    expect(err.attempts).toBe(DEFAULT_RETRY.attempts);
    expect(mock.messageRequests()).toHaveLength(3);
    expect(err.message).toBe(
      `Claude is overloaded right now. Try again in a few minutes. Forge tried 3 times. (request id ${mock.messageRequests()[2]!.requestId})`,
    );
    expect(view.events.filter((e) => e.type === 'restart').map((e) => (e.type === 'restart' ? e.attempt : 0))).toEqual([2, 3]);
    expect(view.events.some((e) => e.type === 'done')).toBe(false);
  });

  it('with retries turned off, it fails after one attempt and claims no retry', async () => {
    mock.enqueue({ fault: 'error_in_stream' }, { text: 'never asked for' });
    const err = (await model({ maxRetries: 0 })
      .stream(ask(), () => {})
      .catch((e: unknown) => e)) as ModelError;
    expect(err.kind).toBe('overloaded');
    expect(err.attempts).toBe(1);
    expect(mock.messageRequests()).toHaveLength(1);
    expect(err.message).not.toMatch(/tried|retr/i);
  });

  it('a wrong key is not retried: one request, and no retry claimed', async () => {
    const m = new AnthropicModel({ apiKey: () => 'sk-wrong', env: {}, baseURL: mock.url, defaultModel: 'claude-sonnet-5-5', retry: { baseDelayMs: 5 } });
    const notices: RetryNotice[] = [];
    const err = (await m.stream(ask(notices), () => {}).catch((e: unknown) => e)) as ModelError;
    expect(err.kind).toBe('auth');
    expect(err.attempts).toBe(1);
    expect(notices).toEqual([]);
    expect(mock.messageRequests()).toHaveLength(1);
  });

  it('Stop during the back-off ends the call at once, without another request', async () => {
    mock.enqueue({ fault: 'error_in_stream', afterEvents: 0 }, { text: 'never asked for' });
    const ac = new AbortController();
    // A ten-minute back-off: only Stop can end the call within the test's time.
    const slow = model({ retry: { baseDelayMs: 600_000 } });
    const done = slow.stream({ ...ask(), signal: ac.signal, onRetry: () => setTimeout(() => ac.abort(), 10) }, () => {}).catch((e: unknown) => e);
    const err = (await done) as ModelError;
    expect(err.kind).toBe('cancelled');
    expect(mock.messageRequests()).toHaveLength(1);
  });
});

describe('one policy for every caller', () => {
  it('the executor never retries on top of a model that retries itself (no 3 x 3 requests)', () => {
    const claude = model();
    expect(withRetries(claude)).toBe(claude);
    const scripted = new ScriptedModel({ name: 's', turns: [{ reply: { text: 'x' } }] });
    const wrapped = withRetries(scripted, { attempts: 2, baseDelayMs: 1 });
    expect(wrapped).toBeInstanceOf(RetryingModel);
    expect(wrapped.retryPolicy).toEqual({ attempts: 2, baseDelayMs: 1 });
    expect(new AnthropicModel({}).retryPolicy).toEqual(DEFAULT_RETRY);
  });

  it('a model without retries of its own gets the same policy and the same honest count', async () => {
    let calls = 0;
    const flaky = {
      id: 'flaky',
      isScripted: true,
      call: async () => {
        calls++;
        throw new ModelError('overloaded', 'Overloaded.');
      },
      stream: async () => {
        throw new Error('unused');
      },
    };
    const err = (await new RetryingModel(flaky, { attempts: 2, baseDelayMs: 1 }).call(ask()).catch((e: unknown) => e)) as ModelError;
    expect(calls).toBe(2);
    expect(err.attempts).toBe(2);
    expect(err.message).toBe('Overloaded. Forge tried 2 times.');
  });
});
