import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTools } from '../tools';
import { connect, fixture, jsonOf, type Fixture } from './fixtures';

/**
 * `forge mcp` as it ships: the entry bundled and code-split the way electron-vite builds
 * out/main/mcp.js, with tools/list precomputed (as electron.vite.config.ts defines it), run by
 * plain node. A module hook records every module the process resolves, so the test sees what was
 * loaded before `initialize` and `tools/list` were answered, without timing anything.
 */
const root = join(import.meta.dirname, '..', '..', '..');
const outdir = mkdtempSync(join(root, 'node_modules', '.forge-stdio-lazy-'));
let f: Fixture;
let entry: string;
let traceHook: string;

beforeAll(async () => {
  f = fixture();
  await build({
    entryPoints: { mcp: join(root, 'src-main', 'mcp', 'main.ts') },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    outdir,
    outExtension: { '.js': '.mjs' },
    define: { __FORGE_MCP_TOOLS__: JSON.stringify(JSON.stringify(listTools())) },
    logLevel: 'silent',
  });
  entry = join(outdir, 'mcp.mjs');
  // Resolve hooks run on their own thread; each resolved module's URL is appended to FORGE_TRACE.
  writeFileSync(
    join(outdir, 'trace-hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(process.env.FORGE_TRACE, r.url + '\\n');
  return r;
}\n`,
  );
  traceHook = join(outdir, 'trace.mjs');
  writeFileSync(traceHook, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(outdir, 'trace-hooks.mjs')).href)});\n`);
}, 60_000);

afterAll(() => {
  f.dispose();
  rmSync(outdir, { recursive: true, force: true });
});

function spawnBuilt(trace: string) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', pathToFileURL(traceHook).href, entry, 'mcp', '--contracts', f.contractsDir, '--data', f.dataDir],
    cwd: f.workDir,
    env: { PATH: process.env.PATH ?? '', HOME: f.root, FORGE_TRACE: trace },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += String(d)));
  return { client: new Client({ name: 'lazy-test', version: '1.0.0' }), transport, stderr: () => stderr };
}

const loaded = (trace: string) => readFileSync(trace, 'utf8');
const HEAVY: Record<string, RegExp> = {
  'the MCP SDK server': /@modelcontextprotocol\/sdk\/dist\/esm\/server\/index\.js/,
  zod: /node_modules\/zod\//,
  ajv: /node_modules\/ajv\//,
  'better-sqlite3': /node_modules\/better-sqlite3\//,
  'the search module': /src-main\/search\/|search-/,
  'the tokenizer': /gpt-tokenizer/,
};

describe('the built `forge mcp` answers before it loads the server', () => {
  // If this fails, every IDE session waits for zod, ajv, the SDK and the tools to load before the
  // IDE sees the server (1.5 s on a busy machine), and some IDEs give up on the server.
  it('answers initialize and tools/list without loading the SDK server, zod, SQLite or search, and the same as the real server', async () => {
    const trace = join(f.root, 'trace.txt');
    writeFileSync(trace, '');
    const a = spawnBuilt(trace);
    await a.client.connect(a.transport);
    const listed = await a.client.listTools();

    const early = loaded(trace);
    expect(early).toMatch(/stdio-front|mcp\.mjs/); // the probe sees this process's own modules
    for (const [what, pattern] of Object.entries(HEAVY)) expect({ what, loaded: pattern.test(early) }).toEqual({ what, loaded: false });

    // What the client got is exactly what the SDK server itself gives (same client, in-memory transport).
    const real = await connect(f);
    try {
      expect(listed.tools).toEqual((await real.client.listTools()).tools);
      expect(listed.tools.map((t) => t.name)).toEqual(listTools().map((t) => t.name));
      expect(a.client.getServerVersion()).toEqual({ ...real.client.getServerVersion(), version: expect.any(String) });
      expect(a.client.getServerCapabilities()).toEqual(real.client.getServerCapabilities());
      expect(a.client.getInstructions()).toBe(real.client.getInstructions());
    } finally {
      await real.close();
    }

    // The first call that needs the server loads it, answers, and from then on the server answers everything.
    const c = jsonOf<{ format: string }>(await a.client.callTool({ name: 'forge_get_contract', arguments: { name: 'physics' } }));
    expect(c.format).toBe('yaml');
    expect((await a.client.listTools()).tools).toEqual(listed.tools);
    expect(HEAVY['the MCP SDK server']!.test(loaded(trace))).toBe(true);
    await a.client.close();
    expect(a.stderr()).toMatch(/forge mcp: local mode, contracts from /);
  }, 60_000);
});
