#!/usr/bin/env node
// `npm run package [-- --linux|--mac|--win]`: build, then package the desktop app with electron-builder
// (electron-builder.yml). electron-builder rebuilds better-sqlite3 for Electron's ABI in place, so
// Node's build (used by the tests and `forge serve`) is restored afterwards. Where the Electron binary
// cannot be obtained, it stops with one sentence.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronPath } from './electron-binary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

if (!electronPath(root)) {
  console.error(
    'Forge cannot be packaged here: the Electron binary is not installed and could not be downloaded on this machine — package on a machine with network access to Electron releases.',
  );
  process.exit(1);
}

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  return r.status ?? 1;
};

// A build is "signed" only when the release environment holds signing credentials; the updater
// is off for every other build (src-main/app/update-policy.ts).
const signed = Boolean(process.env.CSC_LINK || process.env.CSC_NAME || process.env.WIN_CSC_LINK);
const feed = process.env.FORGE_UPDATE_URL ?? '';

let status = run(bin('electron-vite'), ['build']);
if (status === 0) {
  status = run(bin('electron-builder'), [
    '--config',
    'electron-builder.yml',
    `--config.extraMetadata.forgeSigned=${signed}`,
    `--config.extraMetadata.forgeUpdateUrl=${feed}`,
    ...process.argv.slice(2),
  ]);
}
// Put Node's build of the SQLite module back whatever happened above.
run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['rebuild', 'better-sqlite3']);
process.exit(status);
