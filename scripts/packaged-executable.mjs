#!/usr/bin/env node
// Prints the path of the executable `npm run package` left in dist/ for this platform, so the release
// pipeline can launch the app exactly as a PM would get it (.github/workflows/release.yml). One line
// on stdout; a sentence on stderr and exit 1 when nothing was packaged.
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

/** electron-builder's unpacked layouts: linux-unpacked/<name>, mac[-arm64]/Forge.app, win[-arm64]-unpacked/Forge.exe. */
export function packagedExecutable(distDir, platform = process.platform) {
  if (!existsSync(distDir)) return null;
  const dirs = readdirSync(distDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const candidates = [];
  for (const d of dirs) {
    if (platform === 'darwin' && /^mac(-|$)/.test(d)) candidates.push(join(distDir, d, 'Forge.app', 'Contents', 'MacOS', 'Forge'));
    if (platform === 'win32' && /^win(-.*)?-unpacked$/.test(d)) candidates.push(join(distDir, d, 'Forge.exe'));
    if (platform === 'linux' && /^linux(-.*)?-unpacked$/.test(d)) candidates.push(join(distDir, d, 'forge-workbench'), join(distDir, d, 'forge'));
  }
  return candidates.find((p) => existsSync(p)) ?? null;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const found = packagedExecutable(dist);
  if (!found) {
    console.error(`No packaged Forge for ${process.platform} in ${dist}: run \`npm run package\` first.`);
    process.exit(1);
  }
  process.stdout.write(`${found}\n`);
}
