import { contentTypeOf } from '../common/content-type';
import { resolveStatic } from '../host/http/static';

/**
 * The renderer is served from a custom `app://forge/` origin rather than `file://` (Electron's
 * checklist item 18): a file: page can read any other file: URL the OS lets it, and every file:
 * page shares one origin. The protocol handler answers only for files inside the built renderer
 * folder and sends the CSP as a real header (a meta tag cannot carry `frame-ancestors`).
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'forge';
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * Scripts only from the app itself; inline styles are allowed because React sets `style`
 * attributes (scripts stay strict). No network: in the desktop app every call goes through IPC.
 * Monaco starts its workers from blob: URLs.
 */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const appResponseHeaders: Readonly<Record<string, string>> = {
  'content-security-policy': APP_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

export type AppAsset =
  | { status: 200; file: string; headers: Record<string, string> }
  | { status: 403 | 404 | 405; reason: string; headers: Record<string, string> };

/**
 * What `app://` answers for a request, as a pure function so every refusal is testable without
 * Electron: another host, a method other than GET/HEAD, a path that escapes the renderer folder
 * (`..`, encoded slashes, NUL) or a missing file.
 */
export function resolveAppAsset(method: string, url: string, rendererDir: string): AppAsset {
  const headers = { ...appResponseHeaders };
  if (method !== 'GET' && method !== 'HEAD') return { status: 405, reason: 'Only GET and HEAD are served.', headers };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { status: 404, reason: 'Not a URL.', headers };
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return { status: 403, reason: 'Not the app.', headers };
  // An encoded slash or backslash could smuggle a path separator past the URL parser.
  if (/%2f|%5c/i.test(parsed.pathname)) return { status: 404, reason: 'Not found.', headers };
  const file = resolveStatic(rendererDir, parsed.pathname === '/' ? '/index.html' : parsed.pathname);
  if (!file) return { status: 404, reason: 'Not found.', headers };
  const type = contentTypeOf(file);
  return { status: 200, file, headers: { ...headers, 'content-type': type, 'cache-control': 'no-cache' } };
}

/** Is this frame URL our own renderer (the app:// origin, the built file or the dev server)? */
export function isAppOrigin(frameUrl: string, appUrl: string): boolean {
  try {
    const f = new URL(frameUrl);
    const a = new URL(appUrl);
    // Custom schemes have an opaque origin ("null") in the URL standard: compare scheme and host.
    if (a.protocol === `${APP_SCHEME}:`) return f.protocol === a.protocol && f.host === a.host;
    if (a.protocol === 'file:') return f.protocol === 'file:' && f.pathname === a.pathname;
    return f.origin === a.origin;
  } catch {
    return false;
  }
}
