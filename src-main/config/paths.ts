import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { AppError } from '../common/errors';
import { securePrivateFolder } from '../common/private-files';

/**
 * Where a workspace lives: an explicit folder wins, then FORGE_HOME, then ~/.forge
 * (the Electron shell passes its own userData folder as the explicit choice).
 */
export function resolveDataDir(explicit?: string, env: Record<string, string | undefined> = process.env): string {
  if (explicit?.trim()) return resolve(explicit);
  if (env.FORGE_HOME?.trim()) return resolve(env.FORGE_HOME);
  return join(homedir(), '.forge');
}

/**
 * Creates the data folder owner-only (0700) and tightens what an older version left readable:
 * the folder itself and the files directly in it (forge.db and its -wal/-shm, settings, secrets,
 * the MCP token and host lock) become 0700/0600. Every entry point that opens a workspace calls it.
 */
export function prepareDataDir(dir: string): string {
  try {
    return securePrivateFolder(dir);
  } catch (e) {
    throw dataDirError(dir, e);
  }
}

/**
 * A data folder that cannot be made — its parent is read-only or someone else's, or a file has
 * its name — is a choice the PM must change, not a crash: say which folder, why, and what to do.
 * The reason is found by looking at the nearest part of the path that exists: mkdir's own code is
 * not reliable (a recursive mkdir on a read-only mount reports ENOENT).
 */
function dataDirError(dir: string, e: unknown): unknown {
  const why = blockedBecause(dir, (e as NodeJS.ErrnoException)?.code);
  if (!why) return e;
  return new AppError(
    'unavailable',
    `Forge cannot use ${dir} as its data folder: ${why}. Nothing was changed. Choose a folder you can write to (--data, or FORGE_HOME) or fix this one, and start Forge again.`,
    { cause: e },
  );
}

function blockedBecause(dir: string, code: string | undefined): string | null {
  if (code === 'ENOSPC') return 'the disk is full';
  let at = dir;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  try {
    if (!statSync(at).isDirectory()) return `${at} is a file, not a folder`;
    accessSync(at, constants.W_OK);
  } catch (probe) {
    const c = (probe as NodeJS.ErrnoException).code;
    if (c === 'EROFS') return `the disk it is on (${at}) is read-only`;
    if (c === 'EACCES' || c === 'EPERM') return `this account may not write in ${at}`;
  }
  if (code === 'EROFS') return `the disk it is on (${at}) is read-only`;
  if (code === 'EACCES' || code === 'EPERM') return `this account may not write in ${at}`;
  if (code === 'ENOTDIR' || code === 'EEXIST') return 'a file, not a folder, is in the way';
  return null;
}
