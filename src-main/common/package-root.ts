import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder holding Forge's own package.json, found by climbing from this file — the same answer
 * from the TypeScript source (tsx, tests) and from the bundle in out/main. Bundled resources
 * (skills/, resources/, contracts/) are looked up from here, never by climbing to the first
 * folder of that name (src-main/skills is code, not the skills).
 */
export function packageRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (let i = 0; i < 10; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (pkg.name === 'forge-workbench') return dir;
    } catch {
      /* keep climbing */
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  throw new Error('Forge could not find its own package.json; is the installation complete?');
}
