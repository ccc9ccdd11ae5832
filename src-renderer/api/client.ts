import type { ApiErrorBody, ProcedureInput, ProcedureName, ProcedureOutput } from '../../src-main/api';
import { useDeskSession } from '../desk/session';
import { ApiError } from './errors';

/**
 * The renderer's one way to call the core. Inside Electron the preload exposes `window.forge`
 * (IPC); in a browser served by `forge serve` we speak HTTP to the same handlers. Either way the
 * answer is the `{ok, value} | {ok:false, error}` envelope, unwrapped here into a value or an
 * ApiError.
 */

/** The shape the preload exposes. Declared here (not on Window) so it never clashes with the preload's own typing. */
export interface ForgeBridge {
  invoke(name: string, input: unknown, call?: { session?: string }): Promise<unknown>;
  on(event: string, cb: (payload: unknown) => void): () => void;
}

export type TransportKind = 'ipc' | 'http';

export interface ForgeClient {
  readonly transport: TransportKind;
  /** The headless access token (null inside Electron). */
  readonly token: string | null;
  call<N extends ProcedureName>(name: N, input: ProcedureInput<N>): Promise<ProcedureOutput<N>>;
}

export const TOKEN_KEY = 'forge.token';

function isBridge(value: unknown): value is ForgeBridge {
  return typeof value === 'object' && value !== null && typeof (value as ForgeBridge).invoke === 'function' && typeof (value as ForgeBridge).on === 'function';
}

/** IPC when a real preload bridge is present, HTTP otherwise. */
export function chooseTransport(scope: { forge?: unknown }): TransportKind {
  return isBridge(scope.forge) ? 'ipc' : 'http';
}

export function bridgeOf(scope: { forge?: unknown }): ForgeBridge | null {
  return isBridge(scope.forge) ? scope.forge : null;
}

interface TokenScope {
  location: { href: string };
  sessionStorage: Pick<Storage, 'getItem' | 'setItem'>;
  history: Pick<History, 'replaceState' | 'state'>;
}

/**
 * Moves `?token=` from the address bar into sessionStorage so it survives reloads of this tab
 * but is not left visible (screenshots, screen sharing, copied links).
 */
export function takeToken(scope: TokenScope): string | null {
  const url = new URL(scope.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    scope.sessionStorage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete('token');
    const clean = url.pathname + (url.search === '?' ? '' : url.search) + url.hash;
    scope.history.replaceState(scope.history.state, '', clean);
    return fromUrl;
  }
  return scope.sessionStorage.getItem(TOKEN_KEY);
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as ApiErrorBody).code === 'string' && typeof (value as ApiErrorBody).message === 'string';
}

/** Turns an envelope into its value, or throws the ApiError it carries. Anything else is a transport fault. */
export function unwrap<T>(raw: unknown): T {
  if (typeof raw === 'object' && raw !== null && 'ok' in raw) {
    const env = raw as { ok: unknown; value?: unknown; error?: unknown };
    if (env.ok === true) return env.value as T;
    if (env.ok === false && isErrorBody(env.error)) throw new ApiError(env.error);
  }
  throw new ApiError({
    code: 'internal',
    message: 'Forge sent an answer this window does not understand. Reload the window; if it persists, restart Forge.',
  });
}

const unreachable = (detail: string) =>
  new ApiError({
    code: 'unavailable',
    message: `Forge is not reachable (${detail}). Check that Forge is still running, then try again.`,
  });

/**
 * On a desk every call carries the signed-in person's session (HTTP: the x-forge-session header,
 * beside the page's token; IPC: beside the input). `refused` hears the server's "sign in to the
 * desk" refusal of a call, so the window can go back to the sign-in form.
 */
export interface DeskCallSession {
  session(): string | null;
  refused(message: string): void;
}

/** The server's refusal of a desk call without a good session (src-main/host/desk-calls.ts, SIGN_IN_TO_THE_DESK). */
export const isDeskSignInRefusal = (e: unknown): e is ApiError => e instanceof ApiError && e.code === 'unauthorized' && /^Sign in to the desk/.test(e.message);

export const SESSION_HEADER = 'x-forge-session';

export interface ClientOptions {
  bridge?: ForgeBridge | null;
  /** Origin of the headless host; '' means the page's own origin. */
  baseUrl?: string;
  token?: string | null;
  fetch?: typeof fetch;
  desk?: DeskCallSession;
}

export function createClient(opts: ClientOptions): ForgeClient {
  const bridge = opts.bridge ?? null;
  const desk = opts.desk;
  const heard = (err: unknown) => {
    if (desk && isDeskSignInRefusal(err)) desk.refused(err.message);
    return err;
  };
  if (bridge) {
    return {
      transport: 'ipc',
      token: null,
      async call(name, input) {
        let raw: unknown;
        const session = desk?.session();
        try {
          raw = await (session ? bridge.invoke(name, input ?? {}, { session }) : bridge.invoke(name, input ?? {}));
        } catch {
          throw unreachable('the window lost its link to the app');
        }
        try {
          return unwrap(raw);
        } catch (err) {
          throw heard(err);
        }
      },
    };
  }
  const base = opts.baseUrl ?? '';
  const token = opts.token ?? null;
  const doFetch = opts.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  return {
    transport: 'http',
    token,
    async call(name, input) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (token) headers.authorization = `Bearer ${token}`;
      const session = desk?.session();
      if (session) headers[SESSION_HEADER] = session;
      let res: Response;
      try {
        res = await doFetch(`${base}/api/${name}`, { method: 'POST', headers, body: JSON.stringify(input ?? {}) });
      } catch {
        throw unreachable('no answer from the local server');
      }
      let body: unknown;
      try {
        body = await res.json();
      } catch {
        if (res.status === 401) body = { ok: false, error: { code: 'unauthorized', message: '' } };
        else throw unreachable(`HTTP ${res.status} without a readable answer`);
      }
      try {
        return unwrap(body);
      } catch (err) {
        // Without a token the server cannot know who we are; tell the PM how to get back in. A desk
        // call's refusal is about the person (wrong password, session ended), in the desk's own words.
        if (isDeskSignInRefusal(err)) throw heard(err);
        if (err instanceof ApiError && err.code === 'unauthorized' && !name.startsWith('desk/')) {
          throw new ApiError({
            code: 'unauthorized',
            message: 'This browser tab has no valid access token. Open the address printed by `npm run serve` (it ends with ?token=…).',
          });
        }
        throw err;
      }
    },
  };
}

/** The client for this window: IPC inside Electron, HTTP (token from the URL or this tab's storage) elsewhere. */
export function windowClient(): ForgeClient {
  const scope = globalThis as unknown as { forge?: unknown } & TokenScope;
  const bridge = bridgeOf(scope);
  // The desk session lives in this window's memory only (desk/session.ts); read at each call.
  const desk: DeskCallSession = {
    session: () => useDeskSession.getState().current?.session ?? null,
    refused: () => {
      const { current, signedOut } = useDeskSession.getState();
      if (current) signedOut('Your session has ended (signed out elsewhere, expired, or your access changed). Sign in again.');
    },
  };
  if (bridge) return createClient({ bridge, desk });
  return createClient({ token: takeToken(scope), desk });
}
