import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, writeSync, mkdirSync, unlinkSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Write a file so that a crash leaves either the old content or the new, never half of either:
 * write a sibling temp file, fsync it, then rename over the target. The file gets exactly `mode`
 * (set with fchmod, so the umask cannot widen or narrow it): 0600 unless the caller says otherwise.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'w', mode);
  try {
    if (process.platform !== 'win32') fchmodSync(fd, mode);
    writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, path);
}
