import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { fail, type Envelope, type ErrorCode } from '../../api/envelope';
import type { Core } from '../core';
import { hostAllowed, isLoopbackHost, originAllowed, presentedTokens, TOKEN_COOKIE, tokenMatches } from './security';
import { CompressedFiles } from './compress';
import { answerClientError, parseRequestUrl, refuseSocket } from '../../common/http-edge';
import { resolveStatic, sendFile } from './static';
import { deskListener } from './desk-listener';

export interface HeadlessHostOptions {
  core: Core;
  /** Loopback only: anything else is refused before a socket is opened. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** The built renderer (out/renderer). Without it the API still works and `/` explains. */
  rendererDir?: string;
  /** Fixed token for tests; by default a random one per run. */
  token?: string;
  maxBodyBytes?: number;
}

export interface HeadlessHost {
  readonly url: string;
  /** The URL to open in a browser: carries the token once, then a cookie takes over. */
  readonly openUrl: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

const statusFor: Record<ErrorCode, number> = {
  invalid_input: 400,
  unauthorized: 401,
  // The request was fine and the caller is who they say; the workspace lacks a setting (the model key).
  missing_key: 409,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  blocked: 422,
  guardrail_violation: 422,
  cancelled: 409,
  internal: 500,
  unavailable: 503,
};

const securityHeaders = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const data = JSON.stringify(body);
  res.writeHead(status, { ...securityHeaders, ...extra, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(data);
}

function sendEnvelope(res: ServerResponse, env: Envelope<unknown>): void {
  sendJson(res, env.ok ? 200 : (statusFor[env.error.code] ?? 500), env);
}

function sendPage(res: ServerResponse, status: number, title: string, text: string): void {
  res.writeHead(status, {
    ...securityHeaders,
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  });
  res.end(
    `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font:15px system-ui;margin:3rem;max-width:40rem"><h1 style="font-size:1.3rem">${title}</h1><p>${text}</p></body>`,
  );
}

/**
 * The desk session a call carries (x-forge-session), beside the server's bearer token: on a desk
 * the core answers only a signed-in person. Never logged or echoed. One value only: a header sent
 * twice (Node joins it with ", ") is no session at all.
 */
export const SESSION_HEADER = 'x-forge-session';
function callOf(req: IncomingMessage): { session?: string } | undefined {
  const value = req.headers[SESSION_HEADER];
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{16,200}$/.test(value)) return value === undefined ? undefined : { session: '' };
  return { session: value };
}

/** Read a request body up to a cap; over the cap the request is answered 413 and drained. */
function readBody(req: IncomingMessage, cap: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > cap) {
      req.resume();
      resolve('too_large');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > cap) over = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(over ? 'too_large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startHeadlessHost(options: HeadlessHostOptions): Promise<HeadlessHost> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) {
    throw new Error(`Forge serves only on this machine (127.0.0.1); refusing to listen on ${host}.`);
  }
  const { core } = options;
  const token = options.token ?? randomBytes(24).toString('base64url');
  const cap = options.maxBodyBytes ?? 1024 * 1024;
  const rendererDir = options.rendererDir && existsSync(options.rendererDir) ? options.rendererDir : undefined;
  const compressed = new CompressedFiles();
  let port = 0;
  // A desk's events reach only a signed-in person's socket, and a personal one only its own person's (see
  // upgrade, event-audience.ts); a PM's own workbench sends them all.
  const status = await core.invokeUnknown('desk/status', {});
  const onDesk = status.ok && (status.value as { desk?: unknown }).desk === true;

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      try {
        if (!res.headersSent) sendEnvelope(res, fail('internal', `The request failed: ${(e as Error).message}`));
        else res.destroy();
      } catch {
        // The socket is gone; there is no one left to answer.
        res.destroy();
      }
    });
  });
  // Bytes Node cannot parse as HTTP: 400 (431 for an oversized header block) and close.
  server.on('clientError', answerClientError);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = parseRequestUrl(req, port);
    if (!url) {
      sendJson(res, 400, fail('invalid_input', 'The request target is not a valid URL path; call /api/<area>/<verb> or open the URL `forge serve` printed.'));
      return;
    }
    if (!hostAllowed(req.headers.host)) {
      sendJson(res, 403, fail('forbidden', "This address is not Forge's: use the URL printed by `forge serve`."));
      return;
    }
    if (!originAllowed(req.headers.origin, port, req.headers.host)) {
      sendJson(res, 403, fail('forbidden', `Requests from ${String(req.headers.origin).slice(0, 100)} are not allowed.`));
      return;
    }
    const authorized = tokenMatches(presentedTokens(req, url), token);

    if (url.pathname.startsWith('/api/')) {
      if (!authorized) {
        sendJson(res, 401, fail('unauthorized', 'Missing or wrong token: open Forge from the URL printed by `forge serve`.'));
        return;
      }
      if (req.method !== 'POST') {
        sendJson(res, 405, fail('invalid_input', 'API procedures are called with POST.'), { allow: 'POST' });
        return;
      }
      const type = String(req.headers['content-type'] ?? '');
      if (!type.toLowerCase().startsWith('application/json')) {
        // A JSON content type cannot be sent cross-site without a CORS preflight we never grant.
        sendJson(res, 415, fail('invalid_input', 'Send the input as application/json.'));
        return;
      }
      const body = await readBody(req, cap);
      if (body === 'too_large') {
        sendJson(res, 413, fail('too_large', `The request is larger than ${Math.round(cap / 1024)} KiB.`), { connection: 'close' });
        return;
      }
      let input: unknown = {};
      if (body.length) {
        let text: string;
        try {
          // Fatal: a body that is not UTF-8 is refused, never silently changed into U+FFFD characters.
          text = new TextDecoder('utf-8', { fatal: true }).decode(body);
        } catch {
          sendJson(res, 400, fail('invalid_input', 'The request body is not valid UTF-8.'));
          return;
        }
        try {
          input = JSON.parse(text);
        } catch {
          sendJson(res, 400, fail('invalid_input', 'The request body is not valid JSON.'));
          return;
        }
      }
      let name: string;
      try {
        name = decodeURIComponent(url.pathname.slice('/api/'.length));
      } catch {
        // A malformed escape (/api/memory%ZZlist) is the caller's mistake, not a server fault.
        sendJson(
          res,
          400,
          fail(
            'invalid_input',
            `The procedure name in ${url.pathname.slice(0, 120)} has a malformed percent escape; call /api/<area>/<verb>, e.g. /api/memory/list.`,
          ),
        );
        return;
      }
      sendEnvelope(res, await core.invokeUnknown(name, input, callOf(req)));
      return;
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendJson(res, 405, fail('invalid_input', 'Only GET is served here.'));
      return;
    }
    if (!authorized) {
      sendPage(
        res,
        401,
        'Forge needs its link',
        'Open Forge with the full URL that <code>forge serve</code> printed: it carries a token that keeps other programs on this machine out.',
      );
      return;
    }
    const cookie: Record<string, string> = url.searchParams.get('token')
      ? { 'set-cookie': `${TOKEN_COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/` }
      : {};
    if (!rendererDir) {
      sendPage(
        res,
        503,
        'The Forge UI is not built',
        'Run <code>npm run build</code> (or <code>npm run serve</code>, which builds first). The API is available meanwhile.',
      );
      return;
    }
    // Single-page app: unknown paths without a file extension get index.html.
    const file = resolveStatic(rendererDir, url.pathname) ?? (/\.[a-z0-9]+$/i.test(url.pathname) ? undefined : resolveStatic(rendererDir, '/index.html'));
    if (!file) {
      sendJson(res, 404, fail('not_found', `No file at ${url.pathname.slice(0, 200)}.`));
      return;
    }
    await sendFile(req, res, file, { root: rendererDir, headers: { ...securityHeaders, ...cookie }, compressed });
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const sockets = new Set<WebSocket>();
  /** WS /events: the same Host, Origin and token checks as the API, answered on the raw socket. */
  function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const url = parseRequestUrl(req, port);
    if (!url) return refuseSocket(socket, 400, 'Bad Request');
    if (url.pathname !== '/events') return refuseSocket(socket, 404, 'Not Found');
    if (!hostAllowed(req.headers.host) || !originAllowed(req.headers.origin, port, req.headers.host)) return refuseSocket(socket, 403, 'Forbidden');
    if (!tokenMatches(presentedTokens(req, url), token)) return refuseSocket(socket, 401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      const person = onDesk ? deskListener(core) : undefined;
      // A desk socket hears desk-wide events and its own person's; the one PM's page hears them all.
      const unsubscribe = core.context.events.subscribe((message, audience) => {
        if (ws.readyState === ws.OPEN && (!person || person.hears(audience))) ws.send(JSON.stringify(message));
      });
      ws.on('close', () => {
        unsubscribe();
        person?.stop();
        sockets.delete(ws);
      });
      ws.on('error', () => ws.terminate());
      // Events flow one way; the page's only message is, on a desk, its person's session ({"session": …|null}).
      ws.on('message', (data) => person?.heard(data));
    });
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node hands the socket over without its own error handling: a reset mid-handshake would
    // otherwise be an uncaught 'error' event, and so would anything thrown below.
    socket.on('error', () => socket.destroy());
    try {
      upgrade(req, socket, head);
    } catch {
      refuseSocket(socket, 400, 'Bad Request');
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;

  return {
    url: base,
    openUrl: `${base}/?token=${encodeURIComponent(token)}`,
    port,
    token,
    async close() {
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
