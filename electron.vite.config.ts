import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

/** Vite's own warning threshold, kept for every renderer chunk but Monaco's (see `renderer.build`). */
const CHUNK_BUDGET_KB = 500;

/**
 * Warns when a renderer chunk other than Monaco's grows past the budget, the way Vite's own check
 * would: raising `chunkSizeWarningLimit` for Monaco must not silence it for the app's own code.
 */
function chunkBudget(exempt: RegExp): Plugin {
  return {
    name: 'forge-chunk-budget',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || exempt.test(chunk.name)) continue;
        const kb = Buffer.byteLength(chunk.code) / 1000;
        if (kb > CHUNK_BUDGET_KB)
          this.warn(`${chunk.fileName} is ${kb.toFixed(0)} kB, over the ${CHUNK_BUDGET_KB} kB budget: load what it carries lazily (import()).`);
      }
    },
  };
}

/**
 * What `forge version` and About call the exact build (src-main/host/build-info.ts reads it as
 * `__FORGE_BUILD__`): the commit built from, with "-modified" when the tree had uncommitted
 * changes, and when. A build from an export without git says "unknown" rather than failing.
 */
function buildStamp(): { commit: string; builtAt: string } {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: __dirname, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  let commit = 'unknown';
  try {
    commit = git('rev-parse', '--short=12', 'HEAD');
    if (git('status', '--porcelain', '--untracked-files=no') !== '') commit += '-modified';
  } catch {
    // No git here (a source archive): the version and build date still identify the build.
  }
  return { commit, builtAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') };
}

/**
 * The governance server's tools/list answer as JSON text (`__FORGE_MCP_TOOLS__`, read by
 * src-main/mcp/stdio-front.ts): `forge mcp` answers tools/list from it before zod and the tool
 * modules are loaded, so converting the zod schemas happens here, once per build. Computed by
 * running the tools module itself, so it cannot drift from what the server would list.
 */
function mcpToolsList(): string {
  const script = "import('./src-main/mcp/tools.ts').then((m) => process.stdout.write(JSON.stringify(m.listTools())))";
  return execFileSync(resolve(__dirname, 'node_modules', '.bin', 'tsx'), ['-e', script], { cwd: __dirname, encoding: 'utf8' });
}

/**
 * Three builds from one config:
 * - main: the Electron shell entry (also the packaged app's stdio MCP entry, `Forge --mcp`), the
 *   headless CLI, the lean `forge mcp` entry (plain Node; never imports electron) and the utility
 *   process that runs `.mjs` skill scripts in the desktop app;
 * - preload: CommonJS so it runs in a sandboxed renderer, with its few dependencies bundled in;
 * - renderer: the React app, which the headless host also serves to browsers.
 */
export default defineConfig({
  main: {
    define: { __FORGE_BUILD__: JSON.stringify(buildStamp()), __FORGE_MCP_TOOLS__: JSON.stringify(mcpToolsList()) },
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src-main/app/main.ts'),
          cli: resolve(__dirname, 'src-main/host/cli.ts'),
          // `forge mcp` starts here: IDEs time the spawn, so it loads the MCP server and nothing else.
          mcp: resolve(__dirname, 'src-main/mcp/main.ts'),
          // The desktop app runs each `.mjs` skill script in a utility process started from this module.
          'skill-script-host': resolve(__dirname, 'src-main/app/skill-script-host.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src-preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    plugins: [react(), chunkBudget(/^monaco$/)],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      minify: true,
      // Monaco's editor core is one ~3 MB module graph, fetched only when an editor or a diff opens
      // (skills/monaco.ts already registers just the features and grammars Forge uses). All of it
      // loads together, so cutting it into pieces would add requests and save nothing. The limit
      // is raised for it alone; `chunkBudget` keeps the 500 kB warning for every other chunk.
      chunkSizeWarningLimit: 3_100,
      rollupOptions: { input: resolve(__dirname, 'src-renderer/index.html') },
    },
  },
});
