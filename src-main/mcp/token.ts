import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../common/atomic-file';
import { makePrivate } from '../common/private-files';
import { MCP_FILES } from './config';

/**
 * The bearer token HTTP clients present. It lives in the workspace folder (mode 600) so IDE
 * configurations keep working across restarts, and rotating it locks out every old copy at once.
 */
export class TokenFile {
  readonly path: string;
  private value: string | undefined;

  constructor(dataDir: string) {
    this.path = join(dataDir, MCP_FILES.token);
  }

  get(): string {
    if (this.value) return this.value;
    try {
      const t = readFileSync(this.path, 'utf8').trim();
      if (t.length >= 32) {
        makePrivate(this.path); // an older copy may be readable by others
        this.value = t;
        return t;
      }
    } catch {
      /* first run */
    }
    return this.rotate();
  }

  rotate(): string {
    this.value = randomBytes(32).toString('base64url');
    writeFileAtomic(this.path, this.value, 0o600);
    return this.value;
  }
}
