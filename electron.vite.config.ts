import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

/**
 * Three builds from one config:
 * - main: the Electron shell entry, the headless CLI and the lean `forge mcp` entry (plain Node;
 *   never imports electron);
 * - preload: CommonJS so it runs in a sandboxed renderer, with its few dependencies bundled in;
 * - renderer: the React app, which the headless host also serves to browsers.
 */
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src-main/app/main.ts'),
          cli: resolve(__dirname, 'src-main/host/cli.ts'),
          // `forge mcp` starts here: IDEs time the spawn, so it loads the MCP server and nothing else.
          mcp: resolve(__dirname, 'src-main/mcp/main.ts'),
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
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      minify: true,
      rollupOptions: { input: resolve(__dirname, 'src-renderer/index.html') },
    },
  },
});
