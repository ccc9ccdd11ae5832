import type { SecretStore } from '../config/secrets';
import { parseTarget, scrub } from '../store/postgres/target';
import type { CoreConfig } from './config';
import type { Core } from './core';
import { chooseWorkspaceDatabase } from './desk-database-setting';

export interface ChosenWorkspace {
  core: Core;
  /** The database the workspace runs on, masked, or undefined for the PM's own workspace. */
  shown: string | undefined;
  /** Why the saved desk database was not opened (the PM's own workspace opened instead). */
  problem: string | undefined;
}

/**
 * Builds the PM's core on the database chosen at start (--db, $FORGE_DB, Settings → Desk database,
 * or none) — for the desktop shell and `forge serve` alike. A database named by --db or FORGE_DB
 * that cannot be opened stops the start with its error, as before; one saved in Settings opens the
 * PM's own workspace instead, with the reason on the Settings screen, so a desk that is down (or a
 * mistyped URL) never locks the PM out of the screen that fixes it.
 */
export function openChosenWorkspace(
  base: Omit<CoreConfig, 'database' | 'databaseChoice' | 'secrets'> & { secrets: SecretStore },
  options: { flag?: string; env?: NodeJS.ProcessEnv; create: (config: CoreConfig) => Core },
): ChosenWorkspace {
  const choice = chooseWorkspaceDatabase({ flag: options.flag, env: options.env, dataDir: base.dataDir, secrets: base.secrets });
  if (!choice.database) return { core: options.create({ ...base, databaseChoice: { from: 'none' } }), shown: undefined, problem: undefined };
  // A URL that is not postgres:// throws here, before anything opens; its message never echoes it.
  const target = parseTarget(choice.database);
  if (choice.from !== 'setting') {
    return { core: options.create({ ...base, database: choice.database, databaseChoice: { from: choice.from } }), shown: target.masked, problem: undefined };
  }
  try {
    return { core: options.create({ ...base, database: choice.database, databaseChoice: { from: 'setting' } }), shown: target.masked, problem: undefined };
  } catch (e) {
    const problem = `The desk database saved in Settings (${target.masked}) could not be opened: ${scrub(target, (e as Error)?.message ?? String(e))} Your own workspace opened instead; fix or clear it in Settings → Desk database and restart.`;
    return { core: options.create({ ...base, databaseChoice: { from: 'none', problem } }), shown: undefined, problem };
  }
}
