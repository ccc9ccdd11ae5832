#!/usr/bin/env node
// The `forge` command. Runs the built CLI (out/main/cli.js); in a source checkout that has not been
// built yet it falls back to running the TypeScript source through tsx.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'out', 'main', 'cli.js');
if (existsSync(built)) {
  const { main } = await import(pathToFileURL(built).href);
  process.exit(await main(process.argv.slice(2)));
}
const tsx = join(root, 'node_modules', '.bin', 'tsx');
if (!existsSync(tsx)) {
  console.error('forge: the app is not built. Run `npm install` and then `npm run build`.');
  process.exit(1);
}
const r = spawnSync(tsx, [join(root, 'src-main', 'host', 'cli.ts'), ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(r.status ?? 1);
