import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
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
  return securePrivateFolder(dir);
}
