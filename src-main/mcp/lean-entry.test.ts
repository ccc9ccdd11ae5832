import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `forge mcp` is spawned by the IDE for every session and timed until it answers `initialize`.
 * What it imports statically is loaded before that answer; everything else must wait behind an
 * `import()` or a first-use require. The import graph is read from a code-split bundle of the
 * entry (as electron-vite splits out/main/mcp.js), so this checks structure, not a stopwatch.
 */
const root = join(import.meta.dirname, '..', '..');
const outdir = mkdtempSync(join(root, 'node_modules', '.forge-lean-entry-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

/** Packages the entry loads: before `initialize` can be answered (its static imports), or at any time (`import()` too). */
function packagesOf(meta: Metafile, entry: string, eagerOnly: boolean): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const i of meta.outputs[file]?.imports ?? []) {
      if (eagerOnly && i.kind !== 'import-statement') continue;
      if (i.external) packages.add(i.path);
      else visit(i.path);
    }
  };
  visit(entry);
  return packages;
}

describe('the lean `forge mcp` entry', () => {
  // Each heavy package here adds hundreds of ms to every IDE session's start (the Anthropic SDK alone ~1 s on this machine;
  // the MCP SDK with zod and ajv ~300 ms): the stdio front answers initialize and tools/list before any of them loads.
  it('loads only what answering initialize needs: no MCP SDK, zod, model SDK, SQLite, YAML parser or tokenizer', async () => {
    const r = await build({
      entryPoints: { mcp: join(root, 'src-main', 'mcp', 'main.ts') },
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      packages: 'external',
      outdir,
      metafile: true,
      write: false,
      logLevel: 'silent',
    });
    const entry = Object.keys(r.metafile.outputs).find((f) => r.metafile.outputs[f]?.entryPoint?.endsWith('src-main/mcp/main.ts'));
    expect(entry).toBeDefined();
    const eager = [...packagesOf(r.metafile, entry!, true)];
    // Sanity: the graph is read right (the server is reachable, behind an import()).
    expect([...packagesOf(r.metafile, entry!, false)]).toContain('@modelcontextprotocol/sdk/server/index.js');
    const heavy = eager.filter((p) =>
      /^(@modelcontextprotocol\/sdk|zod|ajv|@anthropic-ai\/sdk|better-sqlite3|yaml|gpt-tokenizer|@huggingface\/transformers|onnxruntime)/.test(p),
    );
    expect(heavy).toEqual([]);
  }, 60_000);
});
