#!/usr/bin/env node
// `npm run bench -- <name> [args]` runs bench/<name>.ts under tsx. Each bench prints its figures and,
// as its last line, one JSON object with a ratio against a baseline measured in the same run.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [name, ...rest] = process.argv.slice(2);
const available = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith('_'))
  .map((f) => f.slice(0, -3));
if (!name || !available.includes(name)) {
  console.error(`Usage: npm run bench -- <name>   (available: ${available.join(', ') || 'none'})`);
  process.exit(2);
}
const tsx = join(root, 'node_modules', '.bin', 'tsx');
if (!existsSync(tsx)) {
  console.error('tsx is missing: run `npm install` first.');
  process.exit(2);
}
const r = spawnSync(tsx, [join(root, 'bench', `${name}.ts`), ...rest], { stdio: 'inherit', cwd: root });
process.exit(r.status ?? 1);
