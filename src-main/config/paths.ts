import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Where a workspace lives: an explicit folder wins, then FORGE_HOME, then ~/.forge
 * (the Electron shell passes its own userData folder as the explicit choice).
 */
export function resolveDataDir(explicit?: string, env: Record<string, string | undefined> = process.env): string {
  if (explicit && explicit.trim()) return resolve(explicit);
  if (env.FORGE_HOME && env.FORGE_HOME.trim()) return resolve(env.FORGE_HOME);
  return join(homedir(), '.forge');
}
