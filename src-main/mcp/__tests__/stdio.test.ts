import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgePackageRoot } from '../config';
import { FETCH_NEEDS_APP } from '../tool-kit';
import { fixture, jsonOf, textOf, type Fixture } from './fixtures';

const root = forgePackageRoot();
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const cli = join(root, 'src-main', 'host', 'cli.ts');
let f: Fixture;

beforeAll(() => {
  f = fixture();
});
afterAll(() => f.dispose());

function spawnForgeMcp(extraEnv: Record<string, string> = {}): { client: Client; transport: StdioClientTransport; stderr: () => string } {
  const transport = new StdioClientTransport({
    command: tsx,
    args: [cli, 'mcp', '--contracts', f.contractsDir, '--data', f.dataDir],
    cwd: f.workDir,
    env: { PATH: process.env.PATH ?? '', HOME: f.root, ...extraEnv },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d) => (err += String(d)));
  return { client: new Client({ name: 'stdio-test', version: '1.0.0' }), transport, stderr: () => err };
}

describe('forge mcp over stdio', () => {
  it('answers a real client, keeps logs on stderr, and keeps the scratchpad across restarts', async () => {
    const a = spawnForgeMcp();
    await a.client.connect(a.transport);
    expect(a.client.getServerVersion()?.name).toBe('forge-governance');
    expect((await a.client.listTools()).tools).toHaveLength(19);
    const c = jsonOf<{ format: string }>(await a.client.callTool({ name: 'forge_get_contract', arguments: { name: 'physics' } }));
    expect(c.format).toBe('yaml');
    const bad = await a.client.callTool({ name: 'forge_get_contract', arguments: { name: 'phases' } });
    expect(bad.isError).toBe(true);
    // Local mode has no registry and none of the PM's keys: forge_fetch says how to get it, not a vague failure.
    const fetched = await a.client.callTool({ name: 'forge_fetch', arguments: { source: 'economic', params: { series_id: 'DGS10' } } });
    expect(fetched.isError).toBe(true);
    expect(textOf(fetched)).toBe(FETCH_NEEDS_APP);
    await a.client.callTool({ name: 'forge_scratchpad', arguments: { operation: 'write', key: 'known_issues', value: 'flaky port test' } });
    await a.client.close();
    expect(a.stderr()).toMatch(/forge mcp: local mode, contracts from .*contracts/);

    const b = spawnForgeMcp();
    await b.client.connect(b.transport);
    const r = jsonOf<{ value: string }>(await b.client.callTool({ name: 'forge_scratchpad', arguments: { operation: 'read', key: 'known_issues' } }));
    expect(r.value).toBe('flaky port test');
    await b.client.close();
  }, 60_000);

  it('writes nothing but JSON-RPC frames to stdout', async () => {
    const child = spawn(tsx, [cli, 'mcp', '--contracts', f.contractsDir, '--data', f.dataDir], {
      cwd: f.workDir,
      env: { PATH: process.env.PATH ?? '', HOME: f.root },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    const msgs = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'forge_summary', arguments: {} } },
    ];
    child.stdin.write(msgs.map((m) => JSON.stringify(m)).join('\n') + '\n');
    // Wait for the answer itself (tsx compiles the CLI first, which takes many seconds on a busy machine), not a fixed time.
    for (let i = 0; i < 2000 && !out.includes('"id":2'); i++) await new Promise((r) => setTimeout(r, 25));
    child.stdin.end();
    await new Promise((r) => child.once('exit', r));
    const lines = out.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(JSON.parse(l).jsonrpc).toBe('2.0');
  }, 60_000);

  it('refuses bad options with a usage message and exit code 2', async () => {
    const child = spawn(tsx, [cli, 'mcp', '--bogus'], { env: { PATH: process.env.PATH ?? '', HOME: f.root } });
    let err = '';
    child.stderr.on('data', (d) => (err += String(d)));
    const code = await new Promise((r) => child.once('exit', r));
    expect(code).toBe(2);
    expect(err).toMatch(/Usage: forge mcp/);
  }, 60_000);
});
