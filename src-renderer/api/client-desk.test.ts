import { describe, expect, it } from 'vitest';
import { createClient, type DeskCallSession, type ForgeBridge, SESSION_HEADER } from './client';
import { ApiError } from './errors';

/**
 * On a desk every call carries the signed-in person's session, and the server's "sign in to the
 * desk" refusal takes the window back to the sign-in form. If this failed, a signed-in PM's screens
 * would all be refused (no session sent), or a revoked session would leave them on a wall of errors
 * that tell them to reopen the server's address instead of signing in again.
 */
const REFUSAL = 'Sign in to the desk first: on a desk every call is made by a signed-in person, and this one came without a valid session.';

function deskOf(session: string | null) {
  const refusals: string[] = [];
  const desk: DeskCallSession = { session: () => session, refused: (m) => refusals.push(m) };
  return { desk, refusals };
}

describe('a desk session on every call', () => {
  // The headless host, played by a fetch answering with real Response objects (the renderer may not import Node's http).
  const sessions: (string | null)[] = [];
  const host: typeof fetch = async (_input, init) => {
    const session = new Headers(init?.headers).get(SESSION_HEADER);
    sessions.push(session);
    const body = session === 'good-session' ? { ok: true, value: { entries: [] } } : { ok: false, error: { code: 'unauthorized', message: REFUSAL } };
    return new Response(JSON.stringify(body), { status: body.ok ? 200 : 401, headers: { 'content-type': 'application/json' } });
  };

  it('sends the session header over HTTP, beside the token', async () => {
    const { desk } = deskOf('good-session');
    await createClient({ baseUrl: 'http://127.0.0.1:5123', token: 'good', fetch: host, desk }).call('memory/list', { path: '/memory/views/' });
    expect(sessions.at(-1)).toBe('good-session');
  });

  it('passes the desk’s own refusal through (not the token message) and tells the window, which shows the sign-in', async () => {
    const { desk, refusals } = deskOf('revoked-session');
    const err = await createClient({ baseUrl: 'http://127.0.0.1:5123', token: 'good', fetch: host, desk })
      .call('memory/list', { path: '/memory/views/' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toMatch(/^Sign in to the desk/);
    expect(refusals).toHaveLength(1);
  });

  it('sends the session beside the input over IPC, and nothing extra on a PM’s own workbench', async () => {
    const seen: unknown[][] = [];
    const bridge: ForgeBridge = {
      invoke: async (...args) => {
        seen.push(args);
        return { ok: true, value: {} };
      },
      on: () => () => {},
    };
    await createClient({ bridge, desk: deskOf('good-session').desk }).call('app/health', {});
    await createClient({ bridge, desk: deskOf(null).desk }).call('app/health', {});
    expect(seen).toEqual([
      ['app/health', {}, { session: 'good-session' }],
      ['app/health', {}],
    ]);
  });
});
