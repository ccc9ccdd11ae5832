#!/usr/bin/env node
// `npm start`: build, rebuild better-sqlite3 for Electron's ABI into .electron-native/ (so the Node
// build that tests and `forge serve` use stays intact), then launch Electron. Where the Electron
// binary cannot be obtained, say so in one sentence and point to `npm run serve`.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, cpSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronPath } from './electron-binary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

const electron = electronPath(root);
if (!electron) {
  console.error(
    'Forge cannot start the desktop app: the Electron binary is not installed and could not be downloaded on this machine — run `npm run serve` to use Forge in your browser instead.',
  );
  process.exit(1);
}

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

run(bin('electron-vite'), ['build']);

const target = join(root, '.electron-native', 'better_sqlite3.node');
if (!existsSync(target)) {
  // Rebuild a copy of better-sqlite3 against Electron's headers; node_modules keeps Node's build.
  const version = execFileSync(electron, ['--version']).toString().trim().replace(/^v/, '');
  const work = mkdtempSync(join(tmpdir(), 'forge-native-'));
  cpSync(join(root, 'node_modules', 'better-sqlite3'), join(work, 'better-sqlite3'), { recursive: true });
  const r = spawnSync(
    process.platform === 'win32' ? 'npx.cmd' : 'npx',
    ['--yes', 'node-gyp', 'rebuild', '--release', `--target=${version}`, '--dist-url=https://electronjs.org/headers'],
    { cwd: join(work, 'better-sqlite3'), stdio: 'inherit' },
  );
  if (r.status !== 0) {
    console.error(
      'Forge could not rebuild its SQLite module for Electron (it needs Electron headers from the network) — run `npm run serve` to use Forge in your browser instead.',
    );
    process.exit(1);
  }
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(join(work, 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'), target);
  rmSync(work, { recursive: true, force: true });
}

const child = spawn(electron, [root], { cwd: root, stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
