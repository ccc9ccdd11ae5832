import { once } from 'node:events';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { type RetryOptions, retryDelayMs, retryWithBackoff } from './retry';
import { retryAfterMs } from './retry-after';

/**
 * The one retry loop every outside call goes through (data providers, the model client, the
 * embedders). If these fail, a user sees a rate-limited vendor turn into an error instead of a short
 * wait, a broken request hammered three times, or Stop ignored for the length of a back-off.
 */

class Transient extends Error {
  constructor(readonly retryAfter?: number) {
    super('transient');
  }
}

const classify: RetryOptions['classify'] = (e) => (e instanceof Transient ? { retry: true, retryAfterMs: e.retryAfter } : { retry: false });

/** Records every wait instead of sleeping, so back-off is checked as values, not timings. */
function recorder() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

describe('retryWithBackoff with a recorded clock', () => {
  it('doubles the wait after each failure, never beyond maxDelayMs, and stops after `attempts` calls with the last failure', async () => {
    const clock = recorder();
    let calls = 0;
    const err = await retryWithBackoff(
      async () => {
        calls++;
        throw new Transient();
      },
      { attempts: 5, baseDelayMs: 100, maxDelayMs: 300, classify, sleep: clock.sleep },
    ).catch((e) => e);
    expect(err).toBeInstanceOf(Transient);
    expect(calls).toBe(5);
    expect(clock.waits).toEqual([100, 200, 300, 300]);
  });

  it('returns the first success, after the failures before it', async () => {
    const clock = recorder();
    let calls = 0;
    const value = await retryWithBackoff(
      async (attempt) => {
        calls++;
        if (attempt < 3) throw new Transient();
        return 'answer';
      },
      { attempts: 3, baseDelayMs: 10, classify, sleep: clock.sleep },
    );
    expect(value).toBe('answer');
    expect(calls).toBe(3);
    expect(clock.waits).toEqual([10, 20]);
  });

  it('spreads the back-off by the jitter, both ways', () => {
    const at = (r: number) => retryDelayMs({ baseDelayMs: 1000, jitter: 0.2, random: () => r }, 2);
    expect(at(0)).toBe(1600);
    expect(at(0.5)).toBe(2000);
    expect(at(0.999999)).toBe(2400);
  });

  it('honours a Retry-After within the cap, and past it does what the caller chose: fail, own back-off, or wait the cap', () => {
    const base = { baseDelayMs: 100 };
    expect(retryDelayMs({ ...base, retryAfter: { maxMs: 5000, beyond: 'fail' } }, 1, 3000)).toBe(3000);
    expect(retryDelayMs({ ...base, retryAfter: { maxMs: 5000, beyond: 'fail' } }, 1, 9000)).toBe('fail');
    expect(retryDelayMs({ ...base, retryAfter: { maxMs: 5000, beyond: 'backoff' } }, 2, 9000)).toBe(200);
    expect(retryDelayMs({ ...base, retryAfter: { maxMs: 5000, beyond: 'cap' } }, 1, 9000)).toBe(5000);
  });

  it('gives up at once on a Retry-After beyond a "fail" cap, through giveUp, stamped with the attempts made', async () => {
    const clock = recorder();
    let calls = 0;
    const err = await retryWithBackoff(
      async () => {
        calls++;
        throw new Transient(120_000);
      },
      {
        attempts: 3,
        baseDelayMs: 10,
        retryAfter: { maxMs: 30_000, beyond: 'fail' },
        classify,
        sleep: clock.sleep,
        giveUp: (e, attempts) => new Error(`${(e as Error).message} after ${attempts}`),
      },
    ).catch((e) => e);
    expect((err as Error).message).toBe('transient after 1');
    expect(calls).toBe(1);
    expect(clock.waits).toEqual([]);
  });

  it('does not repeat a failure that is not transient', async () => {
    const clock = recorder();
    let calls = 0;
    const err = await retryWithBackoff(
      async () => {
        calls++;
        throw new TypeError('bad request');
      },
      { attempts: 4, baseDelayMs: 10, classify, sleep: clock.sleep },
    ).catch((e) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect(calls).toBe(1);
  });

  it('tells onRetry each wait before it starts', async () => {
    const seen: string[] = [];
    await retryWithBackoff(
      async (attempt) => {
        if (attempt === 1) throw new Transient(7);
        return 1;
      },
      { attempts: 2, baseDelayMs: 10, classify, sleep: async () => undefined, onRetry: (w) => seen.push(`${w.attempt}:${w.delayMs}`) },
    );
    expect(seen).toEqual(['1:7']);
  });
});

/** A real server on 127.0.0.1 and a caller that reads its Retry-After, as the three real callers do. */
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = undefined;
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse, n: number) => void): Promise<{ url: string; hits: () => number }> {
  let n = 0;
  server = createServer((req, res) => handler(req, res, ++n));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, hits: () => n };
}

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly retryAfter: number | undefined,
  ) {
    super(`HTTP ${status}`);
  }
}

function getWithRetries(url: string, extra: Partial<RetryOptions> = {}): Promise<string> {
  return retryWithBackoff(
    async () => {
      const res = await fetch(url);
      const text = await res.text();
      if (!res.ok) throw new HttpFailure(res.status, retryAfterMs(res.headers));
      return text;
    },
    {
      attempts: 3,
      baseDelayMs: 5,
      retryAfter: { maxMs: 30_000, beyond: 'fail' },
      classify: (e) => (e instanceof HttpFailure ? { retry: e.status === 429 || e.status >= 500, retryAfterMs: e.retryAfter } : { retry: false }),
      ...extra,
    },
  );
}

describe('retryWithBackoff against a real HTTP server on 127.0.0.1', () => {
  it('waits out a 429 for the Retry-After the server sent, then returns the 200', async () => {
    const s = await serve((_req, res, n) => {
      if (n === 1) res.writeHead(429, { 'retry-after': '2' }).end('slow down');
      else res.writeHead(200).end('ok');
    });
    const waits: number[] = [];
    const body = await getWithRetries(s.url, { sleep: async (ms) => void waits.push(ms) });
    expect(body).toBe('ok');
    expect(s.hits()).toBe(2);
    expect(waits).toEqual([2000]);
  });

  it('retries a 503 and returns the answer that follows', async () => {
    const s = await serve((_req, res, n) => {
      if (n === 1) res.writeHead(503).end('busy');
      else res.writeHead(200).end('fine');
    });
    expect(await getWithRetries(s.url)).toBe('fine');
    expect(s.hits()).toBe(2);
  });

  it('sends a 400 once: a refused request is not worth repeating', async () => {
    const s = await serve((_req, res) => res.writeHead(400).end('bad'));
    const err = await getWithRetries(s.url).catch((e) => e);
    expect(err).toBeInstanceOf(HttpFailure);
    expect((err as HttpFailure).status).toBe(400);
    expect(s.hits()).toBe(1);
  });

  it('stops at once when aborted during a 20 s Retry-After wait, without a second request', async () => {
    const controller = new AbortController();
    const s = await serve((_req, res) => {
      res.writeHead(429, { 'retry-after': '20' }).end('slow down');
    });
    const err = getWithRetries(s.url, { signal: controller.signal, onRetry: () => setTimeout(() => controller.abort(), 20) }).catch((e) => e);
    const e = await err;
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe('cancelled');
    expect(s.hits()).toBe(1);
  }, 15_000);
});
