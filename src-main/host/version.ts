import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding Forge's package.json, found by climbing from this file (source or build). */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (pkg.name === 'forge-workbench') return dir;
    } catch {
      /* keep climbing */
    }
    dir = dirname(dir);
  }
  throw new Error('Forge could not find its own package.json; is the installation complete?');
}

export function appVersion(): string {
  try {
    return String(JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')).version);
  } catch {
    return '0.0.0-unknown';
  }
}
