import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

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
    if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
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
 * DNS-rebinding defence: the Host header must name the loopback address we listen on.
 * Anything else (a domain that resolves to 127.0.0.1, another port) is refused.
 */
export function hostAllowed(hostHeader: string | undefined, port: number): boolean {
  if (!hostHeader) return false;
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(hostHeader.toLowerCase());
}

/**
 * Browsers send Origin on cross-site requests and on every POST/WebSocket; a request with an
 * Origin that is not our own page is refused, so another site cannot drive the API.
 */
export function originAllowed(origin: string | undefined, port: number, extra: readonly string[] = []): boolean {
  if (origin === undefined) return true; // non-browser clients (curl, tests, the CLI) send none
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`, ...extra].includes(origin);
}

export function isLoopbackHost(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1';
}
