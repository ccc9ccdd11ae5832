import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fail, ok, type Envelope } from '../../api/envelope';
import { mcpProcedures } from '../../api/mcp';
import { isProcedureName } from '../../api/procedures';
import { isAppError } from '../../common/errors';
import { packageRoot } from '../../common/package-root';
import { createGovernanceServer, createMcpService, writeHostLock, type McpService } from '../../mcp';
import type { Core } from '../core';
import { startHeadlessHost, type HeadlessHost } from '../http/server';
import { tempCore } from '../testing';
import { closeMcp, mcpHandlers, mcpStateFor, startMcpHttp } from './mcp';

/**
 * Remote mode end to end: a `forge mcp` service finds the running app through its lock file and
 * proxies every read to the real headless host over HTTP.
 */

type McpName = keyof typeof mcpProcedures;

/** Until the MCP procedures are merged into the API map, route them to their handlers here. */
function withMcpProcedures(core: Core): Core {
  if (isProcedureName('mcp/status')) return core;
  const invokeUnknown = async (name: string, input: unknown): Promise<Envelope<unknown>> => {
    if (!(name in mcpProcedures)) return core.invokeUnknown(name, input);
    const spec = mcpProcedures[name as McpName];
    const parsed = spec.input.safeParse(input ?? {});
    if (!parsed.success) return fail('invalid_input', parsed.error.message);
    try {
      const handler = mcpHandlers[name as McpName] as (i: unknown, c: typeof core.context) => unknown;
      return ok(await handler(parsed.data, core.context));
    } catch (e) {
      return isAppError(e) ? fail(e.code, e.message) : fail('internal', (e as Error).message);
    }
  };
  return { ...core, invokeUnknown, invoke: invokeUnknown as Core['invoke'] };
}

let app: ReturnType<typeof tempCore>;
let host: HeadlessHost;
let workDir: string;
let service: McpService;
let client: Client;

async function attach(s: McpService): Promise<Client> {
  const server = createGovernanceServer(s, { transport: 'memory' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const c = new Client({ name: 'remote-test', version: '1' });
  await Promise.all([server.connect(b), c.connect(a)]);
  return c;
}
const json = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0].text);

beforeAll(async () => {
  app = tempCore();
  host = await startHeadlessHost({ core: withMcpProcedures(app.core), port: 0 });
  writeHostLock(app.dataDir, { url: host.url, token: host.token });
  workDir = mkdtempSync(join(tmpdir(), 'forge-remote-'));
  service = createMcpService({ dataDir: app.dataDir, workDir, env: {} });
  client = await attach(service);
});
afterAll(async () => {
  await client.close();
  service.close();
  await closeMcp(app.core.context);
  await host.close();
  await app.dispose();
  rmSync(workDir, { recursive: true, force: true });
});

describe('forge mcp in remote mode against a live headless host', () => {
  it('finds the running app through its lock file and proxies governance reads to it', async () => {
    expect(service.mode).toBe('remote');
    expect(service.source.location).toBe(host.url);
    const summary = json(await client.callTool({ name: 'forge_summary', arguments: {} }));
    expect(summary.mode).toBe('remote');
    expect(summary.contracts).toHaveLength(15);
    expect(summary.endpoints).toContain('/api/mcp/status');
    const b = json(await client.callTool({ name: 'forge_get_contract', arguments: { name: 'boundaries' } }));
    expect(b.content.modules.mcp.mayImport).toContain('store');
    expect((await client.callTool({ name: 'forge_get_contract', arguments: { name: 'phases' } })).isError).toBe(true);
    const w = json(await client.callTool({ name: 'forge_get_phase_window', arguments: { phase_number: 5 } }));
    expect(w.phases.map((p: { name: string }) => p.name)).toEqual(['MCP server', 'Builder']);
    expect(json(await client.callTool({ name: 'forge_get_invariants', arguments: {} })).gates.length).toBeGreaterThan(3);
    expect(service.cache.stats().size).toBeGreaterThan(3); // cached under api:{path}
  });

  it("reads the app's projects and pinned builds through the API", async () => {
    const store = await mcpStateFor(app.core.context).service.projectStore();
    store.createProject({ id: 'fx-carry', name: 'FX carry monitor' });
    store.saveContract('fx-carry', 'blueprint', 'carry blueprint');
    store.pinBuild('fx-carry', 'build-7');
    await client.callTool({ name: 'forge_set_session', arguments: { project_id: 'fx-carry', build_id: 'build-7' } });
    expect(json(await client.callTool({ name: 'forge_get_project_context', arguments: {} })).name).toBe('FX carry monitor');
    expect(json(await client.callTool({ name: 'forge_get_project_contract', arguments: { contract_type: 'blueprint' } })).content).toBe('carry blueprint');
    const snap = json(await client.callTool({ name: 'forge_get_build_contracts', arguments: {} }));
    expect(snap.contracts).toEqual([{ contract_type: 'blueprint', version: 1, content: 'carry blueprint' }]);
    const missing = await client.callTool({ name: 'forge_get_project_context', arguments: { project_id: 'nope' } });
    expect(missing.isError).toBe(true);
    expect(missing.content).toEqual([{ type: 'text', text: expect.stringMatching(/no project "nope"/) }]);
  });

  it('gives a clear error, not a hang, when the app is down', async () => {
    const down = createMcpService({ dataDir: app.dataDir, workDir, env: {}, mode: 'remote', remoteUrl: 'http://127.0.0.1:9', remoteToken: 'x' });
    const c = await attach(down);
    const t0 = Date.now();
    const r = await c.callTool({ name: 'forge_list_contracts', arguments: {} });
    expect(Date.now() - t0).toBeLessThan(20_000); // a hang would last the client's 60 s request timeout
    expect(r.isError).toBe(true);
    expect((r.content as { text: string }[])[0].text).toMatch(/not reachable.*FORGEGUARD_LOCAL=1/);
    await c.close();
    down.close();
  });

  it('uses local mode when FORGEGUARD_LOCAL=1 even with a running app', () => {
    const local = createMcpService({ dataDir: app.dataDir, workDir, env: { FORGEGUARD_LOCAL: '1' } });
    expect(local.mode).toBe('local');
    local.close();
  });
});

describe('MCP screen procedures', () => {
  it('report status with the HTTP transport, rotate the token and give copy-ready snippets', async () => {
    const ctx = app.core.context;
    const http = await startMcpHttp(ctx);
    const own = await attach(mcpStateFor(ctx).service);
    await own.callTool({ name: 'forge_list_contracts', arguments: {} });
    await own.close();
    const status = await mcpHandlers['mcp/status']({}, ctx);
    expect(status.mode).toBe('local');
    expect(status.transports.http).toMatchObject({ running: true, url: http.url, port: http.port });
    expect(status.tools).toHaveLength(19);
    expect(status.tools.find((t) => t.name === 'forge_clear_artifacts')?.annotations.destructiveHint).toBe(true);
    expect(status.exposeAnalystTools).toBe(false);

    const before = mcpStateFor(ctx).service.token.get();
    const rotated = await mcpHandlers['mcp/rotate-token']({}, ctx);
    const after = mcpStateFor(ctx).service.token.get();
    expect(after).not.toBe(before);
    expect(rotated.tokenPreview).toBe(`${after.slice(0, 4)}…${after.slice(-4)}`);

    const hidden = await mcpHandlers['mcp/config-snippets']({}, ctx);
    expect(hidden.snippets.map((s) => `${s.client}/${s.transport}`)).toEqual([
      'claude_desktop/stdio',
      'cursor/stdio',
      'vscode/stdio',
      'claude_code/stdio',
      'claude_desktop/http',
      'cursor/http',
      'vscode/http',
      'claude_code/http',
    ]);
    expect(JSON.stringify(hidden)).not.toContain(after);
    const revealed = await mcpHandlers['mcp/config-snippets']({ revealToken: true }, ctx);
    const cursor = JSON.parse(revealed.snippets.find((s) => s.client === 'cursor' && s.transport === 'http')!.text);
    expect(cursor.mcpServers.forge).toEqual({ url: http.url, headers: { Authorization: `Bearer ${after}` } });
    const desktop = JSON.parse(revealed.snippets[0].text);
    // The launcher is this installation's node + bin/forge.mjs: it works without `forge` on PATH.
    expect(desktop.mcpServers.forge).toEqual({ command: process.execPath, args: [join(packageRoot(), 'bin', 'forge.mjs'), 'mcp', '--data', ctx.dataDir] });

    expect((await mcpHandlers['mcp/set-options']({ exposeAnalystTools: true }, ctx)).exposeAnalystTools).toBe(true);
    const calls = (await mcpHandlers['mcp/calls']({ limit: 5 }, ctx)).calls;
    expect(calls[0]).toMatchObject({ tool: 'forge_list_contracts', ok: true, error: null });
    expect(status.tools.find((t) => t.name === 'forge_list_contracts')?.calls).toBe(1);
  });
});
