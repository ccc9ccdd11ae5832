import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthOk, httpRequest, type RawAnswer, rawExchange, type ServeChild, startServeChild } from './http-raw-harness';

/**
 * Raw bytes at a real `forge serve` (and the MCP listener it starts) over plain TCP: request lines
 * and headers no browser or HTTP library would send, each with and without WebSocket upgrade
 * headers, at the API, the /events socket and an unknown path. One such request (`GET http://[`
 * with `Connection: Upgrade`) used to end the process — the PM's open page and every IDE attached
 * over MCP went with it. Every case must be answered with a 4xx or a closed socket, and afterwards
 * the same process must still answer an authenticated request, with nothing reaching the
 * last-resort error log.
 */

const ALLOWED = new Set([400, 401, 403, 404, 405, 426, 431]);
const UPGRADE = 'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n';

/** Request lines: `{path}` is the target under test, `{port}` the listener's port. */
const LINES: { label: string; line: string }[] = [
  { label: 'an unparsable absolute URL (the reported crash)', line: 'GET http://[ HTTP/1.1' },
  { label: 'an unparsable IPv6 authority', line: 'GET http://[::1 HTTP/1.1' },
  { label: 'credentials and a broken authority', line: 'GET http://a:b@[{path} HTTP/1.1' },
  { label: 'a malformed percent escape', line: 'GET /%zz HTTP/1.1' },
  { label: 'a malformed escape after the path', line: 'GET {path}%zz?token=%zz HTTP/1.1' },
  { label: 'an absolute URL to this listener', line: 'GET http://127.0.0.1:{port}{path} HTTP/1.1' },
  { label: 'an absolute URL to another host', line: 'GET http://evil.example{path} HTTP/1.1' },
  { label: 'a scheme-relative target', line: 'GET //evil.example{path} HTTP/1.1' },
  { label: 'an asterisk target', line: 'OPTIONS * HTTP/1.1' },
  { label: 'no HTTP version', line: 'GET {path}' },
  { label: 'an unknown HTTP version', line: 'GET {path} HTTP/9.9' },
  { label: 'a 100 KB request line', line: `GET /${'a'.repeat(100_000)} HTTP/1.1` },
  { label: 'a NUL byte in the target', line: 'GET {path}\0x HTTP/1.1' },
  { label: 'raw non-ASCII bytes in the target', line: 'GET {path}\u00ff\u00fe HTTP/1.1' },
  { label: 'CONNECT', line: 'CONNECT 127.0.0.1:{port} HTTP/1.1' },
  { label: 'an invalid method token', line: 'G@T {path} HTTP/1.1' },
  { label: 'POST where a socket is expected', line: 'POST {path} HTTP/1.1' },
];

/** Header blocks (before the optional upgrade headers). `{port}` is the listener's port. */
const HEADERS: { label: string; headers: string }[] = [
  { label: 'a loopback Host', headers: 'Host: 127.0.0.1:{port}\r\n' },
  { label: 'no Host', headers: '' },
  { label: 'two Host headers', headers: 'Host: 127.0.0.1:{port}\r\nHost: evil.example\r\n' },
  { label: 'a foreign Host', headers: 'Host: evil.example\r\n' },
  { label: 'an unparsable Host and Origin', headers: 'Host: [\r\nOrigin: http://[\r\n' },
  { label: 'a header line without a colon', headers: 'Host: 127.0.0.1:{port}\r\nThis is not a header\r\n' },
  { label: 'a NUL byte in a header value', headers: 'Host: 127.0.0.1:{port}\r\nX-Odd: a\0b\r\n' },
  { label: 'a 100 KB header', headers: `Host: 127.0.0.1:{port}\r\nX-Big: ${'b'.repeat(100_000)}\r\n` },
  { label: 'a malformed token cookie', headers: 'Host: 127.0.0.1:{port}\r\nCookie: forge_token=%E0%A4%A\r\n' },
  { label: 'a wrong bearer token', headers: 'Host: 127.0.0.1:{port}\r\nAuthorization: Bearer %zz\r\n' },
  { label: 'a foreign Origin', headers: 'Host: 127.0.0.1:{port}\r\nOrigin: http://evil.example\r\n' },
];

interface Case {
  label: string;
  bytes: Buffer;
}

function cases(port: number, paths: string[], auth?: string): Case[] {
  const out: Case[] = [];
  for (const path of paths)
    for (const { label: l, line } of LINES)
      for (const { label: h, headers } of HEADERS)
        for (const upgrade of [false, true]) {
          const fill = (s: string) => s.replaceAll('{path}', path).replaceAll('{port}', String(port));
          const text = `${fill(line)}\r\n${fill(headers)}${auth ? `Authorization: Bearer ${auth}\r\n` : ''}${upgrade ? UPGRADE : ''}\r\n`;
          // latin1: each character is one byte, so NUL and 0xff go out exactly as written.
          out.push({ label: `${path} · ${l} · ${h}${upgrade ? ' · upgrade' : ''}${auth ? ' · valid token' : ''}`, bytes: Buffer.from(text, 'latin1') });
        }
  return out;
}

/** Runs every case, a few sockets at a time, and returns the ones answered outside `ok`. */
async function runTable(port: number, table: Case[], ok: (a: RawAnswer, c: Case) => boolean): Promise<string[]> {
  const bad: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < table.length) {
      const c = table[next++]!;
      const a = await rawExchange(port, c.bytes);
      if (!ok(a, c)) bad.push(`${c.label} → ${a.hung ? 'no answer (hung)' : a.closed ? 'closed' : a.status}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return bad;
}

const unauthenticatedOk = (a: RawAnswer) => !a.hung && (a.closed || ALLOWED.has(a.status ?? 0));

let serve: ServeChild;

beforeAll(async () => {
  serve = await startServeChild();
}, 120_000);

afterAll(async () => {
  await serve?.stop();
});

describe('raw requests at a running forge serve', () => {
  it('the reported request (GET http://[ with upgrade headers) is answered 400 and the process keeps serving', { timeout: 60_000 }, async () => {
    const bytes = `GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:${serve.port}\r\n${UPGRADE}\r\n`;
    expect(await rawExchange(serve.port, bytes)).toEqual({ status: 400, closed: false, hung: false });
    const plain = `GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:${serve.port}\r\n\r\n`;
    expect(await rawExchange(serve.port, plain)).toEqual({ status: 400, closed: false, hung: false });
    expect(serve.exited()).toBeNull();
    expect(await healthOk(serve)).toBe(true);
  });

  it('every malformed line and header, with and without upgrade, at the API, /events and an unknown path: a 4xx or a close, never a crash', {
    timeout: 300_000,
  }, async () => {
    const table = cases(serve.port, ['/api/app/health', '/events', '/nope']);
    expect(await runTable(serve.port, table, unauthenticatedOk)).toEqual([]);
    expect(serve.exited()).toBeNull();
    expect(await healthOk(serve)).toBe(true);
    // Nothing escaped to the last-resort handler: each case was answered where it arrived.
    expect(serve.stderr()).not.toMatch(/unexpected error/);
  });

  it('the same table with a valid token: never a server error, never a crash', { timeout: 300_000 }, async () => {
    // With the token, deeper code runs (the upgrade itself, the procedure call); it must still answer.
    const table = cases(serve.port, ['/api/app/health', '/events'], serve.token);
    // 503 is the "Forge UI is not built" page an authorized GET gets in a checkout without out/renderer.
    const answered = (a: RawAnswer) => !a.hung && (a.closed || (a.status !== undefined && a.status > 0 && (a.status < 500 || a.status === 503)));
    expect(await runTable(serve.port, table, answered)).toEqual([]);
    expect(serve.exited()).toBeNull();
    expect(await healthOk(serve)).toBe(true);
    expect(serve.stderr()).not.toMatch(/unexpected error/);
  });
});

describe('raw requests at the MCP listener forge serve starts', () => {
  it('every malformed line and header, with and without upgrade: a 4xx or a close, and MCP still initializes', { timeout: 300_000 }, async () => {
    expect(serve.mcpPort).toBeGreaterThan(0);
    const reported = `GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:${serve.mcpPort}\r\n${UPGRADE}\r\n`;
    expect(await rawExchange(serve.mcpPort, reported)).toEqual({ status: 400, closed: false, hung: false });
    const table = cases(serve.mcpPort, ['/mcp', '/nope']);
    expect(await runTable(serve.mcpPort, table, unauthenticatedOk)).toEqual([]);
    expect(serve.exited()).toBeNull();
    const init = await httpRequest(serve.mcpPort, {
      method: 'POST',
      path: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${serve.mcpToken}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
      }),
    });
    expect(init.status).toBe(200);
    expect(init.body).toContain('"serverInfo"');
    expect(serve.stderr()).not.toMatch(/unexpected error/);
  });
});
