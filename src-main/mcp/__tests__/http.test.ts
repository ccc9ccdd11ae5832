import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { request as httpRequest } from 'node:http';
import { connect as connectTcp, createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHttpServer, type McpHttpServer } from '../http';
import { createMcpService, type McpService } from '../service';
import { fixture, jsonOf, textOf, type Fixture } from './fixtures';

let f: Fixture;
let service: McpService;
let http: McpHttpServer;
let token: string;

beforeAll(async () => {
  f = fixture();
  service = createMcpService({ dataDir: f.dataDir, contractsDir: f.contractsDir, workDir: f.workDir, mode: 'local', env: {} });
  http = await startMcpHttpServer({ service, maxBodyBytes: 64 * 1024 });
  token = service.token.get();
});
afterAll(async () => {
  await http.close();
  service.close();
  f.dispose();
});

const init = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const accept = 'application/json, text/event-stream';

function post(body: unknown, headers: Record<string, string> = {}) {
  return fetch(http.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept, authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify(body),
  });
}

/** fetch cannot forge a Host header, so this one goes through node:http. */
function postWithHost(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: http.port,
        path: '/mcp',
        method: 'POST',
        headers: { host, 'content-type': 'application/json', accept, authorization: `Bearer ${token}` },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(init));
  });
}

async function connectClient(): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

describe('Streamable HTTP transport', () => {
  it('serves the same tools to a real SDK client over HTTP, with a random session id', async () => {
    const { client, transport } = await connectClient();
    expect(http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(transport.sessionId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(19);
    const w = jsonOf<{ phases: { number: number }[] }>(await client.callTool({ name: 'forge_get_phase_window', arguments: { phase_number: 2 } }));
    expect(w.phases.map((p) => p.number)).toEqual([2, 3]);
    const bad = await client.callTool({ name: 'forge_get_phase_window', arguments: { phase_number: -1 } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/phase_number/);
    expect([...service.connections.values()].some((c) => c.transport === 'http' && c.client === 'http-test 1.0.0')).toBe(true);
    const second = await connectClient();
    expect(second.transport.sessionId).not.toBe(transport.sessionId);
    await second.client.close();
    await client.close();
  });

  it('refuses a request without the token (401) or with a wrong one', async () => {
    const none = await fetch(http.url, { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify(init) });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await post(init, { authorization: 'Bearer wrong' })).status).toBe(401);
  });

  it('refuses a web page on another origin (403), so a site in the browser cannot drive the server', async () => {
    const r = await post(init, { origin: 'https://evil.example' });
    expect(r.status).toBe(403);
    expect((await post(init, { origin: `http://127.0.0.1:${http.port}` })).status).toBe(200);
  });

  it("refuses a foreign Host name (403), the DNS-rebinding defence, but accepts this machine's names on any port", async () => {
    expect(await postWithHost('evil.example')).toBe(403);
    expect(await postWithHost(`evil.example:${http.port}`)).toBe(403);
    expect(await postWithHost(`127.0.0.1.nip.io:${http.port}`)).toBe(403);
    expect(await postWithHost(`localhost:${http.port}`)).toBe(200);
    // A port forward or local proxy changes the port the client used, never the name.
    expect(await postWithHost(`127.0.0.1:${http.port + 1}`)).toBe(200);
    expect(await postWithHost('[::1]:9000')).toBe(200);
    expect(await postWithHost('localhost')).toBe(200);
  });

  it('serves a real SDK client through a port forward (localhost:<other port>), and still demands the token there', async () => {
    // A plain TCP forwarder, as `ssh -L` or a dev container's port mapping would be.
    const forward = createNetServer((inbound) => {
      const outbound = connectTcp(http.port, '127.0.0.1');
      inbound.pipe(outbound).pipe(inbound);
      const end = () => {
        inbound.destroy();
        outbound.destroy();
      };
      inbound.on('error', end);
      outbound.on('error', end);
    });
    await new Promise<void>((r) => forward.listen(0, '127.0.0.1', () => r()));
    const fport = (forward.address() as AddressInfo).port;
    try {
      const url = new URL(`http://localhost:${fport}/mcp`);
      const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } });
      const client = new Client({ name: 'forwarded', version: '1.0.0' });
      await client.connect(transport);
      expect((await client.listTools()).tools).toHaveLength(19);
      const list = jsonOf<{ contracts: unknown[] }>(await client.callTool({ name: 'forge_list_contracts', arguments: {} }));
      expect(list.contracts).toHaveLength(15);
      await client.close();
      const noToken = new Client({ name: 'forwarded', version: '1.0.0' });
      await expect(noToken.connect(new StreamableHTTPClientTransport(url))).rejects.toThrow();
      // A web page of another local server may not drive it through the forward either.
      const fromPage = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept, authorization: `Bearer ${token}`, origin: 'http://localhost:3000' },
        body: JSON.stringify(init),
      });
      expect(fromPage.status).toBe(403);
    } finally {
      forward.close();
    }
  });

  it('answers an unknown tool over HTTP with JSON-RPC error -32602 whose message carries one "MCP error" prefix', async () => {
    const { client } = await connectClient();
    try {
      const err = await client.callTool({ name: 'forge_teleport', arguments: {} }).then(
        () => undefined,
        (e: McpError) => e,
      );
      expect(err).toBeInstanceOf(McpError);
      expect(err?.code).toBe(-32602);
      expect(err?.message).toMatch(/^MCP error -32602: Unknown tool: forge_teleport\./);
      expect(err?.message.match(/MCP error/g)).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('answers 404 for an unknown session and for a session after it was terminated', async () => {
    const unknown = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': 'not-a-session', 'mcp-protocol-version': '2025-06-18' });
    expect(unknown.status).toBe(404);
    const { client, transport } = await connectClient();
    const id = transport.sessionId!;
    await transport.terminateSession();
    await client.close();
    const after = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' });
    expect(after.status).toBe(404);
    expect(((await after.json()) as { error: { code: number } }).error.code).toBe(-32001);
  });

  it('rejects an unsupported MCP-Protocol-Version and a request without a session', async () => {
    const initRes = await post(init);
    const sid = initRes.headers.get('mcp-session-id')!;
    await initRes.text();
    const bad = await post({ jsonrpc: '2.0', id: 4, method: 'tools/list' }, { 'mcp-session-id': sid, 'mcp-protocol-version': '1999-01-01' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/Unsupported protocol version/);
    const noSession = await post({ jsonrpc: '2.0', id: 5, method: 'tools/list' });
    expect(noSession.status).toBe(400);
  });

  it('caps request bodies (413) before parsing them', async () => {
    const big = { ...init, params: { ...init.params, padding: 'x'.repeat(70 * 1024) } };
    const r = await post(big);
    expect(r.status).toBe(413);
  });

  it('locks out the old token the moment it is rotated', async () => {
    const old = token;
    token = service.token.rotate();
    expect(token).not.toBe(old);
    expect((await post(init, { authorization: `Bearer ${old}` })).status).toBe(401);
    expect((await post(init)).status).toBe(200);
  });

  it('refuses to listen anywhere but loopback', async () => {
    await expect(startMcpHttpServer({ service, host: '0.0.0.0' })).rejects.toThrow(/only on this machine/);
  });
});
