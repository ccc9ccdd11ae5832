import { describe, expect, it } from 'vitest';
import { chooseTransport, createClient, takeToken, unwrap, TOKEN_KEY, type ForgeBridge } from './client';
import { ApiError, fieldErrors, readableMessage } from './errors';

describe('transport choice', () => {
  it('uses IPC when the preload bridge is present and HTTP in a plain browser', () => {
    const bridge: ForgeBridge = { invoke: async () => ({ ok: true, value: 1 }), on: () => () => {} };
    expect(chooseTransport({ forge: bridge })).toBe('ipc');
    expect(chooseTransport({})).toBe('http');
    // Something else that happens to be called `forge` (an extension, a global) is not a bridge.
    expect(chooseTransport({ forge: { invoke: 'nope' } })).toBe('http');
  });

  it('sends calls through the bridge and unwraps its envelope', async () => {
    const seen: unknown[] = [];
    const bridge: ForgeBridge = {
      invoke: async (name, input) => {
        seen.push([name, input]);
        return { ok: true, value: { status: 'ok', uptimeSeconds: 3, checks: [] } };
      },
      on: () => () => {},
    };
    const client = createClient({ bridge });
    expect(client.transport).toBe('ipc');
    await expect(client.call('app/health', {})).resolves.toEqual({ status: 'ok', uptimeSeconds: 3, checks: [] });
    expect(seen).toEqual([['app/health', {}]]);
  });

  it('turns a rejected IPC call into an "unavailable" error a PM can read', async () => {
    const client = createClient({
      bridge: { invoke: () => Promise.reject(new Error('Error invoking remote method: boom\n at stack')), on: () => () => {} },
    });
    const err = await client.call('app/health', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('unavailable');
    expect(readableMessage(err)).not.toMatch(/stack|boom/);
  });
});

describe('envelope handling', () => {
  it('returns the value of an ok envelope', () => {
    expect(unwrap({ ok: true, value: { a: 1 } })).toEqual({ a: 1 });
  });

  it('throws a typed error carrying the code, message and field issues', () => {
    const err = (() => {
      try {
        unwrap({
          ok: false,
          error: { code: 'invalid_input', message: 'Check the fields', issues: [{ path: ['settings', 'displayName'], message: 'Too long' }] },
        });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('invalid_input');
    expect((err as ApiError).message).toBe('Check the fields');
    expect(fieldErrors(err, 'settings')).toEqual({ displayName: 'Display name: Too long.' });
  });

  it('treats a body that is not an envelope as a fault, not as data', () => {
    expect(() => unwrap('<html>proxy error</html>')).toThrow(ApiError);
    expect(() => unwrap({ value: 1 })).toThrow(ApiError);
  });

  it('never shows internal error details to the PM', () => {
    const err = new ApiError({ code: 'internal', message: 'TypeError: x is undefined at handler.ts:12' });
    expect(readableMessage(err)).not.toContain('TypeError');
  });

  it('maps nested issue paths to dotted field names', () => {
    const err = new ApiError({
      code: 'invalid_input',
      message: 'bad',
      issues: [
        { path: ['settings', 'searchWeights', 'semantic'], message: 'Too big: must be at most 1' },
        { path: ['secrets', 'anthropicApiKey'], message: 'Too long' },
      ],
    });
    expect(fieldErrors(err, 'settings')).toEqual({ 'searchWeights.semantic': 'Semantic weight: Too big: must be at most 1.' });
    expect(fieldErrors(err)).toEqual({
      'settings.searchWeights.semantic': 'Semantic weight: Too big: must be at most 1.',
      'secrets.anthropicApiKey': 'Anthropic api key: Too long.',
    });
  });
});

describe('headless token', () => {
  function scope(href: string, stored: string | null = null) {
    const store = new Map<string, string>(stored ? [[TOKEN_KEY, stored]] : []);
    const replaced: string[] = [];
    return {
      replaced,
      store,
      location: { href },
      sessionStorage: { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) },
      history: { state: null, replaceState: (_s: unknown, _t: string, url?: string | URL | null) => void replaced.push(String(url)) },
    };
  }

  it('moves the token from the address bar into this tab’s storage', () => {
    const s = scope('http://127.0.0.1:5123/?token=abc123&x=1#/views');
    expect(takeToken(s)).toBe('abc123');
    expect(s.store.get(TOKEN_KEY)).toBe('abc123');
    expect(s.replaced).toEqual(['/?x=1#/views']);
  });

  it('keeps working after a reload, when the address bar no longer has the token', () => {
    const s = scope('http://127.0.0.1:5123/#/settings', 'abc123');
    expect(takeToken(s)).toBe('abc123');
    expect(s.replaced).toEqual([]);
  });

  it('removes the query string entirely when the token was the only parameter', () => {
    const s = scope('http://127.0.0.1:5123/?token=t0k#/chat');
    takeToken(s);
    expect(s.replaced).toEqual(['/#/chat']);
  });
});

describe('HTTP transport', () => {
  // The renderer may not import Node built-ins (boundary rule), so the server side is played by a
  // fetch function answering with real Response objects, the way the headless host answers.
  const requests: { url: string; auth: string | undefined; type: string | undefined; body: string }[] = [];
  const json = (status: number, payload: unknown) => new Response(JSON.stringify(payload), { status, headers: { 'content-type': 'application/json' } });
  const host: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    const url = new URL(String(input)).pathname;
    requests.push({ url, auth: headers.get('authorization') ?? undefined, type: headers.get('content-type') ?? undefined, body: String(init?.body) });
    if (init?.method !== 'POST') return json(405, { ok: false, error: { code: 'invalid_input', message: 'POST only' } });
    if (headers.get('authorization') !== 'Bearer good') return json(401, { ok: false, error: { code: 'unauthorized', message: 'token' } });
    if (url === '/api/app/health') return json(200, { ok: true, value: { status: 'ok', uptimeSeconds: 1, checks: [] } });
    if (url === '/api/settings/set')
      return json(400, {
        ok: false,
        error: {
          code: 'invalid_input',
          message: 'Session timeout is out of range',
          issues: [{ path: ['settings', 'sessionTimeoutMinutes'], message: 'Too small' }],
        },
      });
    return new Response('<html>bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } });
  };
  const base = 'http://127.0.0.1:5123';

  it('posts JSON with the bearer token and returns the value', async () => {
    const client = createClient({ baseUrl: base, token: 'good', fetch: host });
    expect(client.transport).toBe('http');
    await expect(client.call('app/health', {})).resolves.toEqual({ status: 'ok', uptimeSeconds: 1, checks: [] });
    expect(requests.at(-1)).toEqual({ url: '/api/app/health', auth: 'Bearer good', type: 'application/json', body: '{}' });
  });

  it('reads the envelope from a 4xx answer, with field issues for the settings form', async () => {
    const client = createClient({ baseUrl: base, token: 'good', fetch: host });
    const err = await client.call('settings/set', { settings: { sessionTimeoutMinutes: 0 } }).catch((e: unknown) => e);
    expect((err as ApiError).code).toBe('invalid_input');
    expect(fieldErrors(err, 'settings')).toEqual({ sessionTimeoutMinutes: 'Session timeout: Too small.' });
    expect(JSON.parse(requests.at(-1)!.body)).toEqual({ settings: { sessionTimeoutMinutes: 0 } });
  });

  it('tells the PM to open the printed address when the token is missing or wrong', async () => {
    const err = await createClient({ baseUrl: base, token: null, fetch: host })
      .call('app/health', {})
      .catch((e: unknown) => e);
    expect((err as ApiError).code).toBe('unauthorized');
    expect((err as ApiError).message).toMatch(/npm run serve/);
    expect(requests.at(-1)!.auth).toBeUndefined();
  });

  it('reports a non-JSON answer as "not reachable" rather than crashing', async () => {
    const err = await createClient({ baseUrl: base, token: 'good', fetch: host })
      .call('app/info', {})
      .catch((e: unknown) => e);
    expect((err as ApiError).code).toBe('unavailable');
    expect((err as ApiError).message).toMatch(/HTTP 502/);
  });

  it('reports a server that is gone as "not reachable"', async () => {
    const gone: typeof fetch = () => Promise.reject(new TypeError('fetch failed'));
    const err = await createClient({ baseUrl: base, token: 'good', fetch: gone })
      .call('app/health', {})
      .catch((e: unknown) => e);
    expect((err as ApiError).code).toBe('unavailable');
    expect(readableMessage(err)).not.toContain('fetch failed');
  });
});
