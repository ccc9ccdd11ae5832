#!/usr/bin/env node
// The `forge` command. Runs the built CLI (out/main/cli.js; `forge mcp` uses the lean out/main/mcp.js);
// in a source checkout that has not been built yet it falls back to the TypeScript source through tsx.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'out', 'main', 'cli.js');
const mcpEntry = join(root, 'out', 'main', 'mcp.js');
const tsx = join(root, 'node_modules', '.bin', 'tsx');

if (process.argv[2] === 'mcp' && existsSync(mcpEntry)) {
  // The lean MCP entry reads its own arguments and exits itself when the IDE closes stdin.
  await import(pathToFileURL(mcpEntry).href);
} else if (existsSync(built)) {
  const { main } = await import(pathToFileURL(built).href);
  // One sentence, never a stack: what the PM can act on (the CLI's own errors are already worded).
  const code = await main(process.argv.slice(2)).catch((e) => {
    console.error(`forge: ${e?.message ?? String(e)}`);
    return 1;
  });
  process.exit(code);
} else if (existsSync(tsx)) {
  const r = spawnSync(tsx, [join(root, 'src-main', 'host', 'cli.ts'), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
} else {
  console.error('forge: the app is not built. Run `npm install` and then `npm run build`.');
  process.exit(1);
}
