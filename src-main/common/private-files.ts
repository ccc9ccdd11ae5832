import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The data folder holds the PM's memory, settings, API keys and tokens: only its owner may read
 * it. Modes are set explicitly (create, then chmod) so the result does not depend on the umask,
 * and a folder or file left readable by an older version is tightened when Forge opens it.
 * Windows has no such modes (chmod only toggles read-only there), so these are no-ops on win32.
 */

const POSIX = process.platform !== 'win32';

/**
 * Takes away every group and other permission (and, for a folder, gives the owner rwx). The
 * owner's own bits are otherwise kept, so an executable someone put in FORGE_HOME stays
 * executable. Paths owned by another account are left alone.
 */
function tighten(path: string, ownerBits = 0): void {
  try {
    const st = statSync(path);
    const mode = (st.mode & 0o700) | ownerBits;
    if ((st.mode & 0o777) === mode) return;
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return;
    chmodSync(path, mode);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // EROFS: a read-only data folder; opening it then fails with a clear message (store/read-only-folder.ts).
    if (code !== 'ENOENT' && code !== 'EPERM' && code !== 'EACCES' && code !== 'EROFS') throw e;
  }
}

/** Creates the folder (and parents) if needed and makes it owner-only (0700). */
export function ensurePrivateDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (POSIX) tighten(dir, 0o700);
  return dir;
}

/** Makes an existing file owner-only (a 0644 file becomes 0600); a missing file is fine. */
export function makePrivate(file: string): void {
  if (POSIX) tighten(file);
}

/** Creates an empty file with exactly 0600 unless it exists (then it is only tightened). */
export function createPrivateFile(file: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'wx', 0o600);
    if (POSIX) fchmodSync(fd, 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    makePrivate(file);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The data folder at 0700 and every file directly in it at 0600 — the database and its WAL and
 * shared-memory files, settings, secrets, the MCP token and host lock. Subfolders are covered by
 * the folder's own mode and stay as they are.
 */
export function securePrivateFolder(dir: string): string {
  ensurePrivateDir(dir);
  if (!POSIX) return dir;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile()) makePrivate(join(dir, entry.name));
  }
  return dir;
}
