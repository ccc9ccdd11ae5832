#!/usr/bin/env node
// `npm run test:loaded [-- vitest args]` runs the unit suite while CPU-burning processes keep every
// core busy (two by default; FORGE_TEST_BURNERS=N changes it). A PM's laptop or a shared CI box is
// rarely idle: a test that passes only on a quiet machine asserts speed, and speed belongs to the
// benchmarks. `npm test` runs the unit suite this way, so every CI run proves it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const vitest = join(root, 'node_modules', '.bin', 'vitest');
if (!existsSync(vitest)) {
  console.error('vitest is missing: run `npm install` first.');
  process.exit(2);
}

const count = Number.parseInt(process.env.FORGE_TEST_BURNERS ?? '2', 10);
const burners = [];
// A tight loop with no I/O: each one takes a whole core at normal priority, like a compile or a
// second app would. `-e` keeps it self-contained; it exits with its parent (the 'disconnect' guard).
const burn = 'process.on("disconnect",()=>process.exit(0));for(;;){Math.sqrt(Math.random())}';
for (let i = 0; i < (Number.isFinite(count) && count > 0 ? count : 0); i++) {
  burners.push(spawn(process.execPath, ['-e', burn], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] }));
}
console.log(`test:loaded: ${burners.length} CPU-burning processes running beside the unit suite`);

const stopBurners = () => {
  for (const b of burners) if (b.exitCode === null) b.kill('SIGKILL');
};
process.on('exit', stopBurners);
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    stopBurners();
    process.exit(130);
  });
}

const run = spawn(vitest, ['run', ...process.argv.slice(2)], { stdio: 'inherit', cwd: root });
run.on('close', (code, signal) => {
  stopBurners();
  process.exit(code ?? (signal ? 1 : 0));
});
