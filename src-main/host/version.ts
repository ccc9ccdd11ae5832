import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../common/package-root';

export { packageRoot };

export function appVersion(): string {
  try {
    return String(JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')).version);
  } catch {
    return '0.0.0-unknown';
  }
}
