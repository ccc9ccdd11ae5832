import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The app's version, read from the nearest package.json above this file (source or build). */
export function appVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (pkg.name === 'forge-workbench') return String(pkg.version);
    } catch {
      /* keep climbing */
    }
    dir = dirname(dir);
  }
  return '0.0.0-unknown';
}
