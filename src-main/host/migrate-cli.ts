import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveDataDir } from '../config/paths';

/**
 * `forge migrate --to postgres://…`: moves a PM's workspace (every record, version and audit row)
 * into an empty PostgreSQL database for a desk, in one transaction, verified row by row before it
 * commits (src-main/store/postgres/migrate.ts). The workspace itself is only read.
 */
export const MIGRATE_USAGE = `Usage: forge migrate --to postgres://user@host:port/database [--data DIR]

Copies this workspace (memory with every version, the audit trail, tasks, builds, schedule runs,
search index, broker-note index) into an EMPTY PostgreSQL 15+ database, in one transaction, and
checks every row against the workspace before committing. Refused if the database already holds a
Forge workspace. The workspace is only read; Forge keeps running on it until a desk is set up.
  --to URL    the target database; prefer PGPASSWORD for the password (a URL on a command line is
              visible to other users of this machine); it is never printed
  --data DIR  workspace folder (default: $FORGE_HOME or ~/.forge)
`;

export async function forgeMigrateCli(args: string[]): Promise<number> {
  let values: { to?: string; data?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: { to: { type: 'string' }, data: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (e) {
    console.error(`forge migrate: ${(e as Error).message}\n\n${MIGRATE_USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(MIGRATE_USAGE);
    return 0;
  }
  if (!values.to) {
    console.error(`forge migrate: give the target database with --to postgres://…\n\n${MIGRATE_USAGE}`);
    return 2;
  }
  const dbFile = join(resolveDataDir(values.data), 'forge.db');
  // Loaded here: the PostgreSQL client is needed by this command only.
  const { migrateToPostgres } = await import('../store/postgres');
  try {
    const summary = await migrateToPostgres(dbFile, values.to, {
      onProgress: (p) => {
        if (p.phase === 'copied') console.log(`  ${p.table.padEnd(28)} ${String(p.rows).padStart(9)} rows copied`);
      },
    });
    const total = summary.tables.reduce((n, t) => n + t.rows, 0);
    console.log(
      `forge migrate: ${total} rows in ${summary.tables.length} tables from ${dbFile} → ${summary.target}, verified row by row (schema version ${summary.schemaVersion}).`,
    );
    return 0;
  } catch (e) {
    // Every message from the migration names the target with its password masked.
    console.error(`forge migrate: ${(e as Error).message}`);
    return 1;
  }
}
