import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../common/atomic-file';
import { InvalidInputError } from '../common/errors';
import type { SecretStore } from '../config/secrets';
import { parseTarget } from '../store/postgres/target';

/**
 * Settings → Desk database, as kept on this machine: the URL without its password in
 * `<data>/desk-database.json` (a machine's connection, not part of the workspace, so an export
 * never carries it), the password in the app's secret store (the OS keychain on the desktop).
 */
export const DESK_DATABASE_FILE = 'desk-database.json';
export const DESK_PASSWORD_SECRET = 'deskDatabasePassword' as const;
/** What a masked URL shows for the password: saving it back keeps the saved password. */
const MASK = '***';

export type DeskDatabaseSource = 'flag' | 'environment' | 'setting' | 'none';

/** The saved URL without its password, or undefined (none saved, or a file this version cannot read). */
export function readDeskDatabaseSetting(dataDir: string): string | undefined {
  const file = join(dataDir, DESK_DATABASE_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const url = (JSON.parse(readFileSync(file, 'utf8')) as { url?: unknown }).url;
    if (typeof url !== 'string' || !url) return undefined;
    parseTarget(url);
    return url;
  } catch {
    // A damaged file (or a hand-edited URL that is not postgres://) means no desk: the PM's own
    // workspace opens and Settings can save the URL again, rather than the app refusing to start.
    return undefined;
  }
}

/** The URL with `password` in it (or as it is when there is none). */
export function withPassword(url: string, password: string | undefined): string {
  if (!password) return url;
  const u = new URL(url);
  u.password = encodeURIComponent(password);
  return u.toString();
}

export function withoutPassword(url: string): string {
  const u = new URL(url);
  u.password = '';
  return u.toString();
}

/** The saved desk database ready to connect to (password from the secret store), or undefined. */
export function savedDeskDatabase(dataDir: string, secrets: SecretStore): string | undefined {
  const url = readDeskDatabaseSetting(dataDir);
  return url ? withPassword(url, secrets.get(DESK_PASSWORD_SECRET)) : undefined;
}

/**
 * Saves (or, with '', clears) the desk database for the next start. The password part goes to the
 * secret store first, so a keychain that refuses it leaves the setting as it was.
 */
export function saveDeskDatabaseSetting(dataDir: string, secrets: SecretStore, url: string): void {
  const file = join(dataDir, DESK_DATABASE_FILE);
  if (!url) {
    secrets.set(DESK_PASSWORD_SECRET, undefined);
    rmSync(file, { force: true });
    return;
  }
  // Refuses a URL that is not postgres:// or names no host, without echoing it (it may hold a password).
  const target = parseTarget(url);
  if (target.password === MASK) {
    if (!secrets.get(DESK_PASSWORD_SECRET))
      throw new InvalidInputError(`No password is saved for ${target.masked}; type the password in the URL instead of ${MASK}.`);
  } else {
    secrets.set(DESK_PASSWORD_SECRET, target.password || undefined);
  }
  writeFileAtomic(file, `${JSON.stringify({ url: withoutPassword(url) }, null, 2)}\n`, 0o600);
}

/** A URL typed in Settings, ready to test: "***" as the password means the saved one. */
export function urlToTry(url: string, secrets: SecretStore): string {
  const target = parseTarget(url);
  return target.password === MASK ? withPassword(withoutPassword(url), secrets.get(DESK_PASSWORD_SECRET)) : url;
}

export interface WorkspaceDatabaseChoice {
  /** The URL to open (with its password), or undefined for the PM's own workspace on this machine. */
  database: string | undefined;
  from: DeskDatabaseSource;
}

/**
 * Which database the workspace opens at start: `--db`, else $FORGE_DB, else the saved setting,
 * else none. The command line and environment override the setting so a script or a desk's server
 * unit always gets what it names, whatever a PM saved on the machine.
 */
export function chooseWorkspaceDatabase(options: { flag?: string; env?: NodeJS.ProcessEnv; dataDir: string; secrets: SecretStore }): WorkspaceDatabaseChoice {
  if (options.flag) return { database: options.flag, from: 'flag' };
  const fromEnv = (options.env ?? process.env).FORGE_DB;
  if (fromEnv) return { database: fromEnv, from: 'environment' };
  const saved = savedDeskDatabase(options.dataDir, options.secrets);
  return saved ? { database: saved, from: 'setting' } : { database: undefined, from: 'none' };
}
