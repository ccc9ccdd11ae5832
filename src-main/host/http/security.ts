import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isLoopbackHostHeader, loopbackOriginAllowed } from '../../common/loopback';

/** Cookie that carries the per-run token for the page and its assets after the first load. */
export const TOKEN_COOKIE = 'forge_token';

function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

export function readCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      // A malformed escape (forge_token=%zz) cannot be our token; throwing here would turn a bad
      // cookie into a 500, or end the process on a WebSocket upgrade.
      return undefined;
    }
  }
  return undefined;
}

/**
 * The tokens a request presents: Authorization bearer, `?token=`, and the cookie. Any one that
 * matches is enough — after a server restart the browser still holds the old run's cookie while
 * the new link carries the new token.
 */
export function presentedTokens(req: IncomingMessage, url: URL): string[] {
  const out: string[] = [];
  const auth = req.headers.authorization;
  if (auth && /^bearer\s+/i.test(auth)) out.push(auth.replace(/^bearer\s+/i, '').trim());
  const query = url.searchParams.get('token');
  if (query) out.push(query);
  const cookie = readCookie(req, TOKEN_COOKIE);
  if (cookie) out.push(cookie);
  return out;
}

export function tokenMatches(presented: string[], expected: string): boolean {
  return presented.some((p) => p.length > 0 && safeEqual(p, expected));
}

/**
 * DNS-rebinding defence: the Host header must be one of this machine's names (127.0.0.1,
 * localhost, [::1]). Any port: a port forward or local proxy changes the port, never the name, and
 * the token still guards every request.
 */
export function hostAllowed(hostHeader: string | undefined): boolean {
  return isLoopbackHostHeader(hostHeader);
}

/**
 * A request with an Origin that is not our own page (on our port, or at the forwarded address the
 * request came to) is refused, so another site — or another local server's page, which the
 * browser would hand our cookie — cannot drive the API.
 */
export function originAllowed(origin: string | undefined, port: number, hostHeader: string | undefined, extra: readonly string[] = []): boolean {
  return loopbackOriginAllowed(origin, { port, host: hostHeader, extra });
}

export function isLoopbackHost(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1';
}
