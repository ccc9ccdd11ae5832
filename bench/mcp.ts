/**
 * `npm run bench -- mcp [--n=2000]`: the governance MCP server's latency.
 * - stdio: `tools/call forge_get_contract` (cached) through `forge mcp` (the lean entry, bundled, on node),
 *   against a bare SDK server answering the same bytes, spawned the same way in the same run
 *   (ratio = forge / echo; a 5-byte echo is reported too);
 * - HTTP: the same call over Streamable HTTP with one reused session;
 * - 20 concurrent HTTP clients × 500 calls: errors and p95;
 * - cold start of `forge mcp` to the `initialize` response (and of the full CLI, for reference),
 *   against a bare `node -e ""` in the same run (cold_start_ratio = lean entry / node).
 * Last line: {"bench":"mcp","stdio_p50_ms","stdio_p95_ms","echo_p50_ms","ratio","http_p50_ms","http_p95_ms",
 *             "concurrent_errors","concurrent_p95_ms","cold_start_ms","cold_node_ms","cold_start_ratio",…}.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMcpHttpServer } from '../src-main/mcp/http';
import { createMcpService } from '../src-main/mcp/service';
import { median, percentile, report, round, timeRuns } from './_stats';

// The SDK's stdio close waits on unref'd timers; keep the loop alive until the report is printed.
const keepAlive = setInterval(() => undefined, 1_000);
const arg = (name: string, dflt: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt);
const n = arg('n', 2000);
const perClient = arg('calls', 500);
const root = join(import.meta.dirname, '..');
const contracts = join(root, 'contracts');
const tmp = mkdtempSync(join(tmpdir(), 'forge-bench-mcp-'));
const env = { PATH: process.env.PATH ?? '', HOME: tmp, FORGEGUARD_LOCAL: '1' };

async function stdioClient(command: string, args: string[], extraEnv: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command, args, env: { ...env, ...extraEnv }, cwd: tmp, stderr: 'ignore' }));
  return client;
}

function check(r: unknown): void {
  if ((r as { isError?: boolean }).isError) throw new Error(JSON.stringify(r).slice(0, 300));
}

// Every server runs as the installed app runs it: bundled JavaScript under plain node (tsx's loader
// adds per-call overhead that an installed Forge does not have). `forge mcp` is the lean entry
// src-main/mcp/main.ts; the full CLI (which loads the whole core first) is timed for reference.
const coldDir = join(root, 'out', `.bench-mcp-${process.pid}`); // inside the repo, so packages resolve
mkdirSync(coldDir, { recursive: true });
// Code-split like electron-vite's build: without --splitting esbuild hoists every package behind an
// `import()` (the Anthropic SDK, SQLite) to a static import, and the cold start would time loads
// that the shipped out/main/mcp.js defers.
function bundle(entry: string, out: string): string {
  const dir = join(coldDir, out.replace(/\.mjs$/, ''));
  const r = spawnSync(
    join(root, 'node_modules', '.bin', 'esbuild'),
    [
      `${out.replace(/\.mjs$/, '')}=${entry}`,
      '--bundle',
      '--splitting',
      '--platform=node',
      '--format=esm',
      '--packages=external',
      '--out-extension:.js=.mjs',
      `--outdir=${dir}`,
      '--log-level=error',
    ],
    { cwd: root, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`esbuild failed: ${r.stderr}`);
  return join(dir, out);
}
const leanEntry = bundle(join(root, 'src-main', 'mcp', 'main.ts'), 'mcp.mjs');
const cliEntry = bundle(join(root, 'src-main', 'host', 'cli.ts'), 'cli.mjs'); // runs main only when named cli.*
const echoEntry = bundle(join(root, 'bench', '_mcp-echo.ts'), 'echo.mjs');
// 1. stdio, forge vs a bare echo server, interleaved in blocks so machine noise hits both alike.
const forge = await stdioClient(process.execPath, [leanEntry, '--contracts', contracts, '--data', tmp]);
// The baseline answers with the same bytes (stack.md), so the ratio is Forge's own overhead.
const echo = await stdioClient(process.execPath, [echoEntry], { ECHO_PAYLOAD: join(contracts, 'stack.md') });
const forgeCall = async () => check(await forge.callTool({ name: 'forge_get_contract', arguments: { name: 'stack' } }));
const echoCall = async () => check(await echo.callTool({ name: 'payload', arguments: { name: 'stack' } }));
const tinyEchoCall = async () => check(await echo.callTool({ name: 'echo', arguments: { text: 'stack' } }));
const stdioSamples: number[] = [];
const echoSamples: number[] = [];
const tinySamples: number[] = [];
// Alternate which server goes first in each block: whichever runs second is measurably faster here.
for (let block = 0; block < 10; block++) {
  const warm = block < 2 ? 100 : 5;
  if (block % 2 === 0) {
    stdioSamples.push(...(await timeRuns(n / 10, forgeCall, warm)));
    echoSamples.push(...(await timeRuns(n / 10, echoCall, warm)));
  } else {
    echoSamples.push(...(await timeRuns(n / 10, echoCall, warm)));
    stdioSamples.push(...(await timeRuns(n / 10, forgeCall, warm)));
  }
  tinySamples.push(...(await timeRuns(n / 20, tinyEchoCall, 5)));
}
await forge.close();
await echo.close();

// 2. HTTP with one reused session.
const service = createMcpService({ dataDir: tmp, contractsDir: contracts, workDir: tmp, mode: 'local', env: {} });
const http = await startMcpHttpServer({ service });
const token = service.token.get();
async function httpClient(): Promise<Client> {
  const client = new Client({ name: 'bench-http', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}
const one = await httpClient();
const httpSamples = await timeRuns(n, async () => check(await one.callTool({ name: 'forge_get_contract', arguments: { name: 'stack' } })), 200);
await one.close();

// 3. 20 concurrent clients × perClient calls.
const clients = await Promise.all(Array.from({ length: 20 }, () => httpClient()));
let errors = 0;
const concurrent: number[] = [];
await Promise.all(
  clients.map(async (c) => {
    for (let i = 0; i < perClient; i++) {
      const t0 = process.hrtime.bigint();
      try {
        check(await c.callTool({ name: 'forge_get_contract', arguments: { name: i % 2 ? 'stack' : 'boundaries' } }));
      } catch {
        errors++;
      }
      concurrent.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }),
);
await Promise.all(clients.map((c) => c.close()));
await http.close();
service.close();

function coldStart(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, cwd: tmp });
    let out = '';
    child.stdout.on('data', (d) => {
      out += String(d);
      if (out.includes('"id":1')) {
        resolve(Number(process.hrtime.bigint() - t0) / 1e6);
        child.kill();
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`forge mcp exited (${code}) before answering initialize`)));
    child.stdin.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cold', version: '1' } },
      }) + '\n',
    );
  });
}
/** The floor on this machine right now: a bare `node -e ""` start and exit. */
function nodeBaseline(): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, ['-e', ''], { env, cwd: tmp, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve(Number(process.hrtime.bigint() - t0) / 1e6));
  });
}
// 4. Cold start to the initialize response, interleaved with the bare-node floor so load hits both alike.
const cold: number[] = [];
const coldCli: number[] = [];
const coldNode: number[] = [];
for (let i = 0; i < 7; i++) {
  coldNode.push(await nodeBaseline());
  cold.push(await coldStart([leanEntry, '--contracts', contracts, '--data', tmp]));
}
for (let i = 0; i < 3; i++) coldCli.push(await coldStart([cliEntry, 'mcp', '--contracts', contracts, '--data', tmp]));
rmSync(coldDir, { recursive: true, force: true });
rmSync(tmp, { recursive: true, force: true });

const stdioP50 = median(stdioSamples);
const echoP50 = median(echoSamples);
console.log(`stdio forge_get_contract (cached): p50 ${round(stdioP50)} ms, p95 ${round(percentile(stdioSamples, 95))} ms over ${stdioSamples.length} calls`);
console.log(`stdio bare SDK, same bytes:        p50 ${round(echoP50)} ms, p95 ${round(percentile(echoSamples, 95))} ms`);
console.log(`stdio bare SDK, 5-byte echo:       p50 ${round(median(tinySamples))} ms`);
console.log(`HTTP, one session:                 p50 ${round(median(httpSamples))} ms, p95 ${round(percentile(httpSamples, 95))} ms`);
console.log(`HTTP, 20 clients x ${perClient}:          ${errors} errors, p95 ${round(percentile(concurrent, 95))} ms`);
console.log(`cold start to initialize:          lean entry ${round(median(cold), 1)} ms (median of ${cold.length}), full CLI ${round(median(coldCli), 1)} ms`);
console.log(`bare node -e "" start and exit:    ${round(median(coldNode), 1)} ms; lean entry / node = ${round(median(cold) / median(coldNode), 2)}`);
report({
  bench: 'mcp',
  stdio_p50_ms: round(stdioP50),
  stdio_p95_ms: round(percentile(stdioSamples, 95)),
  echo_p50_ms: round(echoP50),
  ratio: round(stdioP50 / echoP50, 2),
  http_p50_ms: round(median(httpSamples)),
  http_p95_ms: round(percentile(httpSamples, 95)),
  concurrent_errors: errors,
  concurrent_p95_ms: round(percentile(concurrent, 95)),
  cold_start_ms: round(median(cold), 1),
  cold_start_cli_ms: round(median(coldCli), 1),
  cold_node_ms: round(median(coldNode), 1),
  cold_start_ratio: round(median(cold) / median(coldNode), 2),
  echo_tiny_p50_ms: round(median(tinySamples)),
});
clearInterval(keepAlive);
process.exit(0);
