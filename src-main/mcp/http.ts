import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerClientError, parseRequestUrl } from '../common/http-edge';
import { isLoopbackHostHeader, loopbackOriginAllowed } from '../common/loopback';
import { MAX_HTTP_BODY_BYTES } from './config';
import { createGovernanceServer, type GovernanceServer } from './server';
import type { McpService } from './service';

/**
 * Streamable HTTP at http://127.0.0.1:<port>/mcp, on its own loopback listener. Every request
 * must carry the bearer token; Host must be one of this machine's names, on any port so port
 * forwards and local proxies work, and a browser Origin must be our own (DNS-rebinding and
 * cross-site defences, 403); bodies are capped; each session gets a random id and its own
 * server, and a terminated or unknown session answers 404.
 */

export interface McpHttpOptions {
  service: McpService;
  port?: number;
  /** Loopback only. */
  host?: string;
  /** The token to require; a getter follows rotation at once. Default: the service's token file. */
  token?: string | (() => string);
  maxBodyBytes?: number;
  /** Extra browser origins allowed (e.g. the headless UI's own origin). */
  allowedOrigins?: string[];
  /** Sessions idle this long are closed (default 30 minutes). */
  idleSessionMs?: number;
  version?: string;
}

export interface McpHttpServer {
  readonly url: string;
  readonly port: number;
  readonly sessions: number;
  close(): Promise<void>;
}

function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

function readJson(req: IncomingMessage, cap: number): Promise<{ body?: unknown; error?: 'too_large' | 'bad_json' }> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > cap) {
      req.resume();
      resolve({ error: 'too_large' });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= cap) chunks.push(c);
    });
    req.on('end', () => {
      if (size > cap) return resolve({ error: 'too_large' });
      try {
        resolve({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      } catch {
        resolve({ error: 'bad_json' });
      }
    });
    req.on('error', reject);
  });
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: GovernanceServer;
  /** The client's open GET event streams (a count, so a late close of an old one cannot hide a new one): the only way a request the server starts itself reaches it. */
  push: { streams: number };
  lastSeen: number;
}

/**
 * Notes when the client's GET event stream opens (the SDK answers it 200 and keeps it open) and when
 * it closes, so the server can ask the client for its roots the moment it can be reached.
 */
function watchEventStream(res: ServerResponse, s: Session): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    const out = writeHead(...args);
    if (args[0] === 200) {
      s.push.streams += 1;
      res.once('close', () => {
        s.push.streams -= 1;
      });
      // After the SDK has registered the stream (it did, before answering): a request sent now goes down it.
      queueMicrotask(() => s.server.askForRoots());
    }
    return out;
  }) as typeof res.writeHead;
}

export async function startMcpHttpServer(options: McpHttpOptions): Promise<McpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  if (!['127.0.0.1', 'localhost', '::1'].includes(host)) {
    throw new Error(`The MCP server listens only on this machine (127.0.0.1); refusing ${host}.`);
  }
  const { service } = options;
  const tokenOf = typeof options.token === 'function' ? options.token : options.token !== undefined ? () => options.token as string : () => service.token.get();
  const cap = options.maxBodyBytes ?? MAX_HTTP_BODY_BYTES;
  const idleMs = options.idleSessionMs ?? 30 * 60_000;
  const sessions = new Map<string, Session>();
  let port = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!isLoopbackHostHeader(req.headers.host)) {
      return jsonRpcError(res, 403, -32000, 'Forbidden: the Host header must name this machine (127.0.0.1, localhost or [::1]).');
    }
    if (!loopbackOriginAllowed(req.headers.origin, { port, host: req.headers.host, extra: options.allowedOrigins })) {
      return jsonRpcError(res, 403, -32000, 'Forbidden: requests from web pages are not allowed.');
    }
    const url = parseRequestUrl(req, port);
    if (!url) return jsonRpcError(res, 400, -32000, 'Bad request: the request target is not a valid URL path; the MCP endpoint is /mcp.');
    if (url.pathname !== '/mcp') return jsonRpcError(res, 404, -32000, 'Not found: the MCP endpoint is /mcp.');
    const auth = req.headers.authorization ?? '';
    const presented = /^bearer\s+/i.test(auth) ? auth.replace(/^bearer\s+/i, '').trim() : '';
    if (!presented || !safeEqual(presented, tokenOf())) {
      return jsonRpcError(res, 401, -32000, 'Unauthorized: send the token shown on Forge\'s MCP screen as "Authorization: Bearer <token>".', {
        'www-authenticate': 'Bearer realm="forge-mcp"',
      });
    }

    const sessionId = req.headers['mcp-session-id'];
    let body: unknown;
    if (req.method === 'POST') {
      const parsed = await readJson(req, cap);
      if (parsed.error === 'too_large')
        return jsonRpcError(res, 413, -32000, `Request too large: the limit is ${Math.round(cap / 1024)} KiB.`, { connection: 'close' });
      if (parsed.error === 'bad_json') return jsonRpcError(res, 400, -32700, 'Parse error: the body is not valid JSON.');
      body = parsed.body;
    }

    if (typeof sessionId === 'string') {
      const s = sessions.get(sessionId);
      if (!s) return jsonRpcError(res, 404, -32001, 'Session not found: it was closed or expired. Reconnect to start a new session.');
      s.lastSeen = Date.now();
      if (req.method === 'GET') watchEventStream(res, s);
      await s.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return jsonRpcError(res, 400, -32000, 'Bad request: send initialize first, then the Mcp-Session-Id header it returns.');
    }
    const push = { streams: 0 };
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomBytes(24).toString('base64url'),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, push, lastSeen: Date.now() });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    const server = createGovernanceServer(service, { transport: 'http', version: options.version, canReachClient: () => push.streams > 0 });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch((e) => {
      try {
        if (!res.headersSent) jsonRpcError(res, 500, -32603, `Internal error: ${(e as Error).message}`);
        else res.destroy();
      } catch {
        // The socket is gone; there is no one left to answer.
        res.destroy();
      }
    });
  });
  // Bytes Node cannot parse as HTTP: 400 (431 for an oversized header block) and close. MCP speaks
  // no WebSocket, so there is no 'upgrade' listener: Node serves an Upgrade request as a plain one.
  http.on('clientError', answerClientError);
  http.keepAliveTimeout = 60_000;

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  port = (http.address() as AddressInfo).port;

  const sweeper = setInterval(
    () => {
      const cutoff = Date.now() - idleMs;
      for (const [id, s] of sessions) {
        if (s.lastSeen < cutoff) {
          sessions.delete(id);
          void s.transport.close();
        }
      }
    },
    Math.min(idleMs, 60_000),
  );
  sweeper.unref();

  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    get sessions() {
      return sessions.size;
    },
    async close() {
      clearInterval(sweeper);
      for (const s of sessions.values()) await s.transport.close().catch(() => undefined);
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
