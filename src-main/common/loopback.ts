/**
 * Host and Origin checks shared by Forge's two loopback listeners (the app's API and the MCP
 * server). DNS rebinding works by giving a foreign name (evil.example) the address 127.0.0.1, so
 * the Host header must be one of this machine's own names; the port is not checked, so port
 * forwarding and local proxies work. The token (or cookie) still guards every request.
 */

const LOOPBACK_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$/;

/** True when a Host header names this machine: 127.0.0.1, localhost or [::1], on any port. */
export function isLoopbackHostHeader(host: string | undefined): boolean {
  return !!host && LOOPBACK_HOST.test(host.trim().toLowerCase());
}

/**
 * Browsers send Origin on cross-site requests and on every POST and WebSocket. Allowed: no Origin
 * (curl, IDEs, the CLI), this listener's own page on any loopback name, a page served through the
 * same forwarded address the request came to (Origin equals http://<Host>), and `extra`. A page of
 * another local server (http://localhost:3000) is refused: the browser would attach Forge's cookie
 * to it, since cookies are not kept apart by port.
 */
export function loopbackOriginAllowed(origin: string | undefined, opts: { port: number; host?: string; extra?: readonly string[] }): boolean {
  if (origin === undefined) return true;
  const o = origin.toLowerCase();
  if ([`http://127.0.0.1:${opts.port}`, `http://localhost:${opts.port}`, `http://[::1]:${opts.port}`].includes(o)) return true;
  if (opts.host && isLoopbackHostHeader(opts.host) && o === `http://${opts.host.trim().toLowerCase()}`) return true;
  return (opts.extra ?? []).includes(origin);
}
