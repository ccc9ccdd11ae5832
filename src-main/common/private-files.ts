import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The data folder holds the PM's memory, settings, API keys and tokens: only its owner may read
 * it. Modes are set explicitly (create, then chmod) so the result does not depend on the umask,
 * and a folder or file left readable by an older version is tightened when Forge opens it.
 * Windows has no such modes (chmod only toggles read-only there), so these are no-ops on win32.
 */

const POSIX = process.platform !== 'win32';

/** chmod that leaves files we do not own alone (e.g. FORGE_HOME pointed at a shared folder). */
function tighten(path: string, mode: number): void {
  try {
    const st = statSync(path);
    if ((st.mode & 0o777) === mode) return;
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return;
    chmodSync(path, mode);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM' && code !== 'EACCES') throw e;
  }
}

/** Creates the folder (and parents) if needed and makes it owner-only (0700). */
export function ensurePrivateDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (POSIX) tighten(dir, 0o700);
  return dir;
}

/** Makes an existing file owner-only (0600); a missing file is fine. */
export function makePrivate(file: string): void {
  if (POSIX) tighten(file, 0o600);
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
