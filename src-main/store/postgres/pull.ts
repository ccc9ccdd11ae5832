import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { isAppError } from '../../common/errors';
import { migrations } from '../migrations';
import { runMigrations } from '../open';
import { Store } from '../store';
import { PostgresNoWorkspaceError, PostgresSchemaVersionError, PullFailedError, PullTargetExistsError, PullVerificationError } from './pull-errors';
import { rowDigest } from './row-digest';
import { POSTGRES_SCHEMA_VERSION, postgresTables, SQLITE_SOURCE_COLUMNS } from './schema';
import { cursorRows, describeKey, postgresSelect, readTablePlan, type TablePlan } from './table-plan';
import { clientConfig, connectionError, parseTarget, type PostgresTarget, scrub } from './target';

/**
 * The reverse of `forge migrate`: a desk's PostgreSQL database back into a NEW SQLite workspace
 * file, every table, verified row by row (what `forge export --from postgres://…` is built on).
 *
 * PostgreSQL is only read, all of it from one snapshot (REPEATABLE READ READ ONLY), so servers
 * writing to the desk meanwhile cannot tear the copy: the file is the database as it was at one
 * instant. The file is built by Forge's own migrations (Store.open) on a temporary path beside the
 * target, the rows go in in one SQLite transaction, and Forge's own triggers rebuild what the desk
 * does not hold: memory_fts (the contentless FTS5 index is filled by memory_records' insert
 * trigger, exactly as migrations 001/019 fill it on every write) and research_passages' FTS5
 * index (filled as its rows go in). The file is then closed, opened again, and every row read back
 * from disk is compared with PostgreSQL's (row-digest.ts), in the same snapshot. Only then does the
 * file take the target's name, without ever replacing one (a hard link fails if the name exists).
 * Any failure removes the temporary file: there is either a verified workspace or no file.
 */

export interface PullProgress {
  table: string;
  rows: number;
  phase: 'copied' | 'verified';
}

export interface PullOptions {
  onProgress?: (p: PullProgress) => void | Promise<void>;
  /**
   * Test hook (never set outside tests): runs once the copy is committed to the temporary file and
   * before the check reads it back, with that file's path. A test changes a row there to prove the
   * check compares what is on disk, not what the copy meant to write.
   */
  beforeVerify?: (temporaryFile: string) => void | Promise<void>;
}

export interface PullSummary {
  /** The source with its password masked. */
  source: string;
  file: string;
  schemaVersion: number;
  tables: Array<{ table: string; rows: number }>;
}

/** The one PostgreSQL table of ours no SQLite workspace has: the migration's own record. */
const FORGE_SCHEMA = 'forge_schema';

export async function pullFromPostgres(url: string, sqlitePath: string, options: PullOptions = {}): Promise<PullSummary> {
  const source = parseTarget(url);
  const file = resolve(sqlitePath);
  refuseExisting(file);
  const client = new pg.Client(clientConfig(source, pg.types));
  // A connection lost mid-run surfaces as a query's rejection; this keeps it from being an unhandled 'error' event.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (e) {
    throw connectionError(source, e);
  }
  const temporary = join(dirname(file), `.${basename(file)}.pulling-${randomBytes(6).toString('hex')}`);
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const schemaVersion = await readSchemaVersion(client, source);
    const plans: TablePlan[] = [];
    for (const table of postgresTables) if (table !== FORGE_SCHEMA) plans.push(await readTablePlan(client, table));
    mkdirSync(dirname(file), { recursive: true });
    const tables = await copyIntoNewWorkspace(client, source, plans, temporary, options);
    await options.beforeVerify?.(temporary);
    const check = new Database(temporary, { fileMustExist: true });
    try {
      check.pragma('query_only = ON');
      for (const plan of plans) {
        const rows = await verifyTable(check, client, plan, source);
        await options.onProgress?.({ table: plan.table, rows, phase: 'verified' });
      }
      check.pragma('query_only = OFF');
      // Migrations newer than the desk's schema run on the verified rows, as on a PM's own workspace.
      runMigrations(check, migrations);
    } finally {
      check.close();
    }
    await client.query('COMMIT');
    publish(temporary, file);
    return { source: source.masked, file, schemaVersion, tables };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (isAppError(e)) throw e;
    const message = scrub(source, e instanceof Error ? e.message : String(e));
    throw new PullFailedError(`Reading the workspace from ${source.masked} stopped: ${message}. No file was written.`, new Error(message));
  } finally {
    removeDatabaseFiles(temporary);
    await client.end().catch(() => undefined);
  }
}

function refuseExisting(file: string): void {
  if (existsSync(file)) {
    throw new PullTargetExistsError(`${file} already exists; a workspace is only ever pulled into a new file, so nothing was overwritten.`);
  }
}

/** Gives the verified file its name, never replacing a file that appeared meanwhile (link fails on an existing name). */
function publish(temporary: string, file: string): void {
  try {
    linkSync(temporary, file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') refuseExisting(file);
    // A file system without hard links (some network shares): a rename, after one more look for the name.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw e;
    refuseExisting(file);
    renameSync(temporary, file);
  }
}

function removeDatabaseFiles(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true });
}

async function readSchemaVersion(client: pg.Client, source: PostgresTarget): Promise<number> {
  const { rows } = await client.query<{ table_name: string }>(
    'SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ANY($1)',
    [postgresTables],
  );
  const present = new Set(rows.map((r) => r.table_name));
  if (!present.has(FORGE_SCHEMA)) {
    throw new PostgresNoWorkspaceError(
      `The database ${source.masked} holds no Forge workspace (no ${FORGE_SCHEMA} table): move one there with forge migrate --to first. Nothing was read or written.`,
    );
  }
  const version = (await client.query<{ version: number }>(`SELECT version FROM ${FORGE_SCHEMA}`)).rows[0]?.version;
  if (version === undefined) {
    throw new PostgresNoWorkspaceError(
      `The database ${source.masked} has an empty ${FORGE_SCHEMA} table, so it is not a complete Forge workspace. No file was written.`,
    );
  }
  if (version !== POSTGRES_SCHEMA_VERSION) {
    throw new PostgresSchemaVersionError(
      version,
      POSTGRES_SCHEMA_VERSION,
      version > POSTGRES_SCHEMA_VERSION
        ? `The workspace in ${source.masked} is at schema version ${version}, newer than this Forge reads (${POSTGRES_SCHEMA_VERSION}): export it with the Forge the desk runs. No file was written.`
        : `The workspace in ${source.masked} is at schema version ${version}; this Forge reads version ${POSTGRES_SCHEMA_VERSION}. No file was written.`,
    );
  }
  const missing = postgresTables.filter((t) => !present.has(t));
  if (missing.length > 0) {
    throw new PostgresNoWorkspaceError(
      `The database ${source.masked} lacks Forge's table${missing.length > 1 ? 's' : ''} ${missing.join(', ')}, so it is not a complete workspace. No file was written.`,
    );
  }
  return version;
}

/** The SQLite name of a column (research_passages' key is FTS5's hidden rowid). */
const sqliteColumn = (plan: TablePlan, column: string) => SQLITE_SOURCE_COLUMNS[plan.table]?.[column] ?? `"${column}"`;

async function copyIntoNewWorkspace(
  client: pg.Client,
  source: PostgresTarget,
  plans: TablePlan[],
  temporary: string,
  options: PullOptions,
): Promise<Array<{ table: string; rows: number }>> {
  // Forge's own schema at the desk's version: its triggers, not anything read from the desk, build the indexes.
  const store = Store.open(temporary, { migrations: migrations.slice(0, POSTGRES_SCHEMA_VERSION) });
  const db = store.db;
  const counts: Array<{ table: string; rows: number }> = [];
  try {
    for (const plan of plans) {
      const sqliteColumns = new Set((db.prepare('SELECT name FROM pragma_table_xinfo(?)').all(plan.table) as { name: string }[]).map((r) => r.name));
      const missing = plan.columns.filter((c) => !SQLITE_SOURCE_COLUMNS[plan.table]?.[c] && !sqliteColumns.has(c));
      if (missing.length > 0) {
        throw new PostgresSchemaVersionError(
          POSTGRES_SCHEMA_VERSION,
          POSTGRES_SCHEMA_VERSION,
          `The desk's table ${plan.table} has column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} this Forge's workspace does not: it was changed outside Forge. No file was written.`,
        );
      }
    }
    // Parents before children (postgresTables' order), so Forge's foreign keys hold row by row.
    db.exec('BEGIN IMMEDIATE');
    for (const plan of plans) {
      // The insert trigger logged every copied record as a new change; the desk's own log replaces that.
      if (plan.table === 'memory_changes') db.exec('DELETE FROM memory_changes');
      const insert = db.prepare(
        `INSERT INTO "${plan.table}" (${plan.columns.map((c) => sqliteColumn(plan, c)).join(', ')}) VALUES (${plan.columns.map(() => '?').join(', ')})`,
      );
      let rows = 0;
      for await (const row of cursorRows(client, `forge_pull_${plan.table}`, postgresSelect(plan))) {
        try {
          insert.run(row);
        } catch (e) {
          throw new PullFailedError(
            `SQLite refused ${plan.table} row ${describeKey(plan, row)} from ${source.masked}: ${scrub(source, (e as Error).message)}. No file was written.`,
            e,
          );
        }
        rows++;
      }
      counts.push({ table: plan.table, rows });
      await options.onProgress?.({ table: plan.table, rows, phase: 'copied' });
    }
    for (const plan of plans) if (plan.identity) await keepCounter(db, client, plan);
    db.exec('COMMIT');
    return counts;
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw e;
  } finally {
    store.close();
  }
}

/**
 * An AUTOINCREMENT table's counter is set to the highest id PostgreSQL's sequence ever handed out
 * (at least the highest copied): an id the desk gave a row since deleted (an audit entry trimmed, a
 * change log row) is never handed out again by the workspace.
 */
async function keepCounter(db: Database.Database, client: pg.Client, plan: TablePlan): Promise<void> {
  const sql = (db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").pluck().get(plan.table) as string | undefined) ?? '';
  if (!/AUTOINCREMENT/i.test(sql)) return;
  const sequence = (await client.query<{ name: string | null }>('SELECT pg_get_serial_sequence($1, $2) AS name', [plan.table, plan.identity])).rows[0]?.name;
  let handedOut = 0n;
  if (sequence) {
    const state = (await client.query<{ last_value: bigint; is_called: boolean }>(`SELECT last_value, is_called FROM ${sequence}`)).rows[0];
    if (state) handedOut = state.is_called ? BigInt(state.last_value) : BigInt(state.last_value) - 1n;
  }
  const copied = (db.prepare(`SELECT coalesce(max("${plan.identity}"), 0) FROM "${plan.table}"`).pluck().safeIntegers(true).get() as bigint) ?? 0n;
  const seq = handedOut > copied ? handedOut : copied;
  db.prepare('DELETE FROM sqlite_sequence WHERE name = ?').run(plan.table);
  if (seq > 0n) db.prepare('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)').run(plan.table, seq);
}

/** Every row of the file as read back from disk against PostgreSQL's, in key order, in the same snapshot. */
async function verifyTable(check: Database.Database, client: pg.Client, plan: TablePlan, source: PostgresTarget): Promise<number> {
  const keyOrder = plan.key.map((k) => sqliteColumn(plan, k)).join(', ');
  const written = check
    .prepare(`SELECT ${plan.columns.map((c) => `${sqliteColumn(plan, c)} AS "${c}"`).join(', ')} FROM "${plan.table}" ORDER BY ${keyOrder}`)
    .raw(true)
    .safeIntegers(true)
    .iterate() as IterableIterator<unknown[]>;
  const fail = (row: readonly unknown[], what: string) => {
    const key = describeKey(plan, row);
    return new PullVerificationError(plan.table, key, `Verification failed: ${plan.table} row ${key} ${what}. No file was written.`);
  };
  let count = 0;
  try {
    for await (const expected of cursorRows(client, `forge_check_${plan.table}`, postgresSelect(plan))) {
      const next = written.next();
      if (next.done) throw fail(expected, `is in ${source.masked} but not in the new workspace`);
      if (!rowDigest(expected).equals(rowDigest(next.value))) throw fail(expected, `differs between ${source.masked} and the new workspace`);
      count++;
    }
    const extra = written.next();
    if (!extra.done) throw fail(extra.value, `is in the new workspace but not in ${source.masked}`);
    return count;
  } finally {
    // An unfinished read would keep the connection busy and refuse its close.
    written.return?.();
  }
}
