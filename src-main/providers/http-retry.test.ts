import { afterEach, describe, expect, it } from 'vitest';
import { httpGet } from './http';
import { ProviderError } from './provider';
import { type LocalServer, sendJson, startLocalServer } from './testing';

/**
 * httpGet's retries now run through the shared loop (common/retry.ts). If these fail, a data tool
 * shows an error for a vendor that was only briefly busy, repeats a request the vendor refused, or
 * keeps the PM waiting after Stop.
 */
let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('httpGet retries against a real local server', () => {
  it('retries a 503 and returns the answer that follows', async () => {
    server = await startLocalServer((_req, res, n) => (n === 1 ? sendJson(res, 503, { error: 'busy' }) : sendJson(res, 200, { value: 7 })));
    const r = await httpGet({ url: `${server.url}/obs`, accept: 'json', retryBaseMs: 5 });
    expect(r.json).toEqual({ value: 7 });
    expect(server.requests.length).toBe(2);
  });

  it('sends a 400 once and says the request was refused', async () => {
    server = await startLocalServer((_req, res) => sendJson(res, 400, { error: 'bad series id' }));
    const e = await httpGet({ url: `${server.url}/obs`, accept: 'json', retryBaseMs: 5 }).catch((x) => x);
    expect(e).toBeInstanceOf(ProviderError);
    expect((e as ProviderError).kind).toBe('bad_params');
    expect(server.requests.length).toBe(1);
  });

  it('stops at once when the PM presses Stop during a Retry-After wait, saying so, without a second request', async () => {
    const controller = new AbortController();
    server = await startLocalServer((_req, res) => {
      sendJson(res, 429, { error: 'slow down' }, { 'retry-after': '20' });
      setTimeout(() => controller.abort(), 50);
    });
    const e = await httpGet({ url: `${server.url}/obs`, accept: 'json', signal: controller.signal }).catch((x) => x);
    expect(e).toBeInstanceOf(ProviderError);
    expect((e as ProviderError).message).toMatch(/^Stopped while waiting to retry 127\.0\.0\.1:\d+\/obs\.$/);
    expect(server.requests.length).toBe(1);
  }, 15_000);
});
