import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server on 127.0.0.1 for provider tests: it serves what each test's handler writes
 * (vendor-shaped fixtures and faults) and records every request so a test can count the calls
 * a cache should have saved.
 */
export interface LocalServer {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  /** Every request received, in order: path with query, and headers. */
  requests: { url: string; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

export type LocalHandler = (req: IncomingMessage, res: ServerResponse, n: number) => void | Promise<void>;

export async function startLocalServer(handler: LocalHandler): Promise<LocalServer> {
  const requests: LocalServer['requests'] = [];
  const server = createServer((req, res) => {
    requests.push({ url: req.url ?? '/', headers: req.headers });
    Promise.resolve(handler(req, res, requests.length)).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(e));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes a JSON body with a status (application/json unless told otherwise). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(text);
}
