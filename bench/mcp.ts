/**
 * `npm run bench -- mcp [--n=2000]`: the governance MCP server's latency.
 * - stdio: `tools/call forge_get_contract` (cached) through `forge mcp` (the lean entry, bundled, on node),
 *   against a bare SDK server answering the same bytes, spawned the same way in the same run
 *   (ratio = forge / echo; a 5-byte echo is reported too);
 * - HTTP: the same call over Streamable HTTP with one reused session;
 * - 20 concurrent HTTP clients × 500 calls: errors and p95;
 * - cold start of `forge mcp` to the `initialize` response (and of the full CLI, for reference),
 *   against a bare `node -e ""` in the same run (cold_start_ratio = lean entry / node): median of
 *   11 spawns on the idle machine, then 11 more with a CPU burner on every core (`_loaded` figures).
 *   The lean entry is bundled with tools/list precomputed, as electron.vite.config.ts builds it.
 *   `--cold-only` runs just this part (its line is {"bench":"mcp-cold",…}).
 * Last line: {"bench":"mcp","stdio_p50_ms","stdio_p95_ms","echo_p50_ms","ratio","http_p50_ms","http_p95_ms",
 *             "concurrent_errors","concurrent_p95_ms","cold_start_ms","cold_node_ms","cold_start_ratio",
 *             "cold_start_loaded_ms","cold_node_loaded_ms","cold_start_target_ms","cold_start_meets_target",
 *             "cold_start_loaded_meets_target",…}.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMcpHttpServer } from '../src-main/mcp/http';
import { createMcpService } from '../src-main/mcp/service';
import { listTools } from '../src-main/mcp/tools';
import { median, percentile, report, round, timeRuns } from './_stats';
import { targets } from './_targets';

// The SDK's stdio close waits on unref'd timers; keep the loop alive until the report is printed.
const keepAlive = setInterval(() => undefined, 1_000);
const arg = (name: string, dflt: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt);
const n = arg('n', 2000);
const perClient = arg('calls', 500);
const coldOnly = process.argv.includes('--cold-only');
const COLD_TARGET_MS = targets.find((t) => t.bench === 'mcp' && t.figure === 'cold_start_ms')?.value ?? 500;
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
function bundle(entry: string, out: string, extra: string[] = []): string {
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
      ...extra,
    ],
    { cwd: root, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`esbuild failed: ${r.stderr}`);
  return join(dir, out);
}
// tools/list precomputed at build time, exactly as electron.vite.config.ts defines it for out/main/mcp.js.
const leanEntry = bundle(join(root, 'src-main', 'mcp', 'main.ts'), 'mcp.mjs', [`--define:__FORGE_MCP_TOOLS__=${JSON.stringify(JSON.stringify(listTools()))}`]);
const cliEntry = bundle(join(root, 'src-main', 'host', 'cli.ts'), 'cli.mjs'); // runs main only when named cli.*
const echoEntry = bundle(join(root, 'bench', '_mcp-echo.ts'), 'echo.mjs');
const warm = coldOnly ? undefined : await warmFigures();

/** Sections 1-3: the server's latency once running. */
async function warmFigures() {
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
    const warmup = block < 2 ? 100 : 5;
    if (block % 2 === 0) {
      stdioSamples.push(...(await timeRuns(n / 10, forgeCall, warmup)));
      echoSamples.push(...(await timeRuns(n / 10, echoCall, warmup)));
    } else {
      echoSamples.push(...(await timeRuns(n / 10, echoCall, warmup)));
      stdioSamples.push(...(await timeRuns(n / 10, forgeCall, warmup)));
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
  return {
    stdio_p50_ms: round(median(stdioSamples)),
    stdio_p95_ms: round(percentile(stdioSamples, 95)),
    echo_p50_ms: round(median(echoSamples)),
    ratio: round(median(stdioSamples) / median(echoSamples), 2),
    echo_tiny_p50_ms: round(median(tinySamples)),
    http_p50_ms: round(median(httpSamples)),
    http_p95_ms: round(percentile(httpSamples, 95)),
    concurrent_errors: errors,
    concurrent_p95_ms: round(percentile(concurrent, 95)),
    perClient,
  };
}

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
// 4. Cold start to the initialize response, interleaved with the bare-node floor so load hits both alike;
// first on the machine as it is, then with a CPU burner on every core (an IDE starting while a build runs).
async function coldFigures(spawns: number): Promise<{ lean: number[]; node: number[] }> {
  const lean: number[] = [];
  const node: number[] = [];
  for (let i = 0; i < spawns; i++) {
    node.push(await nodeBaseline());
    lean.push(await coldStart([leanEntry, '--contracts', contracts, '--data', tmp]));
  }
  return { lean, node };
}
const idle = await coldFigures(11);
const coldCli: number[] = [];
for (let i = 0; i < 3; i++) coldCli.push(await coldStart([cliEntry, 'mcp', '--contracts', contracts, '--data', tmp]));
const burners: ChildProcess[] = Array.from({ length: availableParallelism() }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
let loaded: { lean: number[]; node: number[] };
try {
  loaded = await coldFigures(11);
} finally {
  for (const b of burners) b.kill();
}
rmSync(coldDir, { recursive: true, force: true });
rmSync(tmp, { recursive: true, force: true });

if (warm) {
  console.log(`stdio forge_get_contract (cached): p50 ${warm.stdio_p50_ms} ms, p95 ${warm.stdio_p95_ms} ms`);
  console.log(`stdio bare SDK, same bytes:        p50 ${warm.echo_p50_ms} ms`);
  console.log(`stdio bare SDK, 5-byte echo:       p50 ${warm.echo_tiny_p50_ms} ms`);
  console.log(`HTTP, one session:                 p50 ${warm.http_p50_ms} ms, p95 ${warm.http_p95_ms} ms`);
  console.log(`HTTP, 20 clients x ${warm.perClient}:          ${warm.concurrent_errors} errors, p95 ${warm.concurrent_p95_ms} ms`);
}
const cold = {
  cold_start_ms: round(median(idle.lean), 1),
  cold_start_cli_ms: round(median(coldCli), 1),
  cold_node_ms: round(median(idle.node), 1),
  cold_start_ratio: round(median(idle.lean) / median(idle.node), 2),
  cold_start_loaded_ms: round(median(loaded.lean), 1),
  cold_node_loaded_ms: round(median(loaded.node), 1),
  cold_start_loaded_ratio: round(median(loaded.lean) / median(loaded.node), 2),
  cold_start_target_ms: COLD_TARGET_MS,
  cold_start_meets_target: median(idle.lean) <= COLD_TARGET_MS,
  cold_start_loaded_meets_target: median(loaded.lean) <= COLD_TARGET_MS,
};
console.log(`cold start to initialize, idle:    lean entry ${cold.cold_start_ms} ms (median of ${idle.lean.length}), full CLI ${cold.cold_start_cli_ms} ms`);
console.log(`bare node -e "" start and exit:    ${cold.cold_node_ms} ms; lean entry / node = ${cold.cold_start_ratio}`);
console.log(
  `cold start, ${burners.length} CPU burners:      lean entry ${cold.cold_start_loaded_ms} ms, node ${cold.cold_node_loaded_ms} ms (ratio ${cold.cold_start_loaded_ratio}); target ${COLD_TARGET_MS} ms: ${cold.cold_start_meets_target ? 'met' : 'MISSED'} idle, ${cold.cold_start_loaded_meets_target ? 'met' : 'MISSED'} under load`,
);
if (warm) {
  const { perClient: _, echo_tiny_p50_ms, ...figures } = warm;
  report({ bench: 'mcp', ...figures, ...cold, echo_tiny_p50_ms });
} else report({ bench: 'mcp-cold', ratio: cold.cold_start_ratio, ...cold });
clearInterval(keepAlive);
process.exit(0);
