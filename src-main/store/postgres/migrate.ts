import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import { isAppError } from '../../common/errors';
import { MigrationFailedError, MigrationRowError, MigrationSourceError, MigrationVerificationError, PostgresTargetNotEmptyError } from './errors';
import { rowDigest } from './row-digest';
import { isSkipped, POSTGRES_SCHEMA_VERSION, postgresAfterCopy, postgresSchema, postgresTables, SQLITE_SOURCE_COLUMNS } from './schema';
import { cursorRows, describeKey, postgresSelect, readTablePlan, type TablePlan } from './table-plan';
import { clientConfig, connectionError, parseTarget, type PostgresTarget, scrub } from './target';

/**
 * `forge migrate --to postgres://…`: a PM's SQLite workspace into an empty PostgreSQL database,
 * every table, every version and audit row, verified row by row.
 *
 * All of it is one PostgreSQL transaction: create the schema, copy each table (multi-row INSERTs in
 * batches), set the identity sequences past the copied keys, then — still inside it — read every
 * row back and compare its digest (row-digest.ts) with the SQLite row's, in primary-key order. Any
 * difference, any refused row, any lost connection rolls everything back: the target is either
 * the whole workspace, verified, or exactly as it was. The SQLite side is read-only, in one read
 * transaction, so a Forge still running on the workspace cannot tear the copy (WAL snapshot).
 */

export interface MigrationProgress {
  table: string;
  rows: number;
  phase: 'copied' | 'verified';
}

export interface MigrateOptions {
  /** Awaited when it returns a promise (the tests use that to cut the connection at a known point). */
  onProgress?: (p: MigrationProgress) => void | Promise<void>;
  /**
   * Test hook: changes a row on its way into PostgreSQL (never set outside tests). It proves the
   * verification catches what a faulty driver, encoding or network would do to a value.
   */
  alterRowBeforeInsert?: (table: string, columns: readonly string[], row: unknown[]) => unknown[];
}

export interface MigrationSummary {
  /** The target with its password masked. */
  target: string;
  schemaVersion: number;
  tables: Array<{ table: string; rows: number }>;
}

/** A table as PostgreSQL holds it, with the SELECT list that reads it from SQLite (in `columns` order). */
interface SourcePlan extends TablePlan {
  sqliteSelect: string;
}

const MAX_PARAMS = 30_000;
const MAX_BATCH_ROWS = 500;
const MAX_BATCH_BYTES = 8 * 1024 * 1024;
/** Serialises migrations into one database: the second waits, then finds the schema and is refused. */
const LOCK_KEY = 0x466f7267; // "Forg"

export async function migrateToPostgres(sqlitePath: string, url: string, options: MigrateOptions = {}): Promise<MigrationSummary> {
  const target = parseTarget(url);
  const source = openSource(sqlitePath);
  try {
    const client = new pg.Client(clientConfig(target, pg.types));
    // A connection lost mid-run surfaces as a query's rejection; this keeps it from being an unhandled 'error' event.
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (e) {
      throw connectionError(target, e);
    }
    try {
      await refuseExistingWorkspace(client, target);
      return await copyAndVerify(source, client, target, sqlitePath, options);
    } finally {
      await client.end().catch(() => undefined);
    }
  } finally {
    source.close();
  }
}

function openSource(path: string): Database.Database {
  if (!existsSync(path)) throw new MigrationSourceError(`There is no Forge workspace database at ${path}.`);
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version !== POSTGRES_SCHEMA_VERSION) {
      throw new MigrationSourceError(
        version < POSTGRES_SCHEMA_VERSION
          ? `The workspace ${path} is at schema version ${version}; this Forge moves version ${POSTGRES_SCHEMA_VERSION}. Open it once with this Forge (it upgrades it), then migrate.`
          : `The workspace ${path} is at schema version ${version}, newer than this Forge (${POSTGRES_SCHEMA_VERSION}). Migrate it with the Forge that wrote it.`,
      );
    }
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
    const unknown = tables.filter((t) => !postgresTables.includes(t) && !isSkipped(t));
    const absent = postgresTables.filter((t) => t !== 'forge_schema' && !tables.includes(t));
    if (unknown.length > 0 || absent.length > 0) {
      throw new MigrationSourceError(
        `The workspace ${path} does not have the tables this Forge moves (${[...unknown.map((t) => `unexpected ${t}`), ...absent.map((t) => `missing ${t}`)].join(', ')}); nothing was copied.`,
      );
    }
    // One snapshot for the whole run: a Forge writing to the workspace meanwhile cannot tear the copy.
    db.exec('BEGIN');
    db.prepare('SELECT 1 FROM workspace_meta LIMIT 1').all();
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

async function refuseExistingWorkspace(client: pg.Client, target: PostgresTarget): Promise<void> {
  const { rows } = await client.query<{ table_name: string }>(
    'SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ANY($1) ORDER BY table_name',
    [postgresTables],
  );
  if (rows.length > 0) {
    const names = rows.map((r) => r.table_name);
    throw new PostgresTargetNotEmptyError(
      `The database ${target.masked} already holds a Forge workspace (${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}). Forge never merges into or overwrites one: give an empty database. Nothing was changed.`,
    );
  }
}

async function copyAndVerify(
  source: Database.Database,
  client: pg.Client,
  target: PostgresTarget,
  sqlitePath: string,
  options: MigrateOptions,
): Promise<MigrationSummary> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await refuseExistingWorkspace(client, target);
    for (const statement of postgresSchema) await client.query(statement);
    const plans: SourcePlan[] = [];
    for (const table of postgresTables) if (table !== 'forge_schema') plans.push(await planTable(client, source, table));
    const counts: Array<{ table: string; rows: number }> = [];
    for (const plan of plans) {
      const rows = await copyTable(source, client, plan, options);
      counts.push({ table: plan.table, rows });
      await options.onProgress?.({ table: plan.table, rows, phase: 'copied' });
    }
    for (const plan of plans) if (plan.identity) await advanceSequence(source, client, plan);
    for (const plan of plans) {
      const rows = await verifyTable(source, client, plan);
      await options.onProgress?.({ table: plan.table, rows, phase: 'verified' });
    }
    for (const statement of postgresAfterCopy) await client.query(statement);
    await client.query('INSERT INTO forge_schema (version, source) VALUES ($1, $2)', [POSTGRES_SCHEMA_VERSION, sqlitePath]);
    await client.query('COMMIT');
    return { target: target.masked, schemaVersion: POSTGRES_SCHEMA_VERSION, tables: counts };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (isAppError(e)) throw e;
    // A driver or server fault mid-run (connection lost, a statement refused): typed, password-free.
    const message = scrub(target, e instanceof Error ? e.message : String(e));
    throw new MigrationFailedError(
      `The migration to ${target.masked} stopped: ${message}. Everything was rolled back; nothing was written.`,
      new Error(message),
    );
  }
}

async function planTable(client: pg.Client, source: Database.Database, table: string): Promise<SourcePlan> {
  const plan = await readTablePlan(client, table);
  const { columns } = plan;
  const mapped = SQLITE_SOURCE_COLUMNS[table] ?? {};
  const sqliteColumns = new Set((source.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map((r) => r.name));
  const missing = columns.filter((c) => !mapped[c] && !sqliteColumns.has(c));
  if (missing.length > 0) throw new MigrationSourceError(`The workspace's table ${table} has no column ${missing.join(', ')}; nothing was copied.`);
  return {
    ...plan,
    sqliteSelect: columns.map((c) => (mapped[c] ? `${mapped[c]} AS "${c}"` : `"${c}"`)).join(', '),
  };
}

function sqliteRows(source: Database.Database, plan: SourcePlan): IterableIterator<unknown[]> {
  const keyOrder = plan.key.map((k) => SQLITE_SOURCE_COLUMNS[plan.table]?.[k] ?? `"${k}"`).join(', ');
  return source.prepare(`SELECT ${plan.sqliteSelect} FROM "${plan.table}" ORDER BY ${keyOrder}`).raw(true).safeIntegers(true).iterate() as IterableIterator<
    unknown[]
  >;
}

async function copyTable(source: Database.Database, client: pg.Client, plan: SourcePlan, options: MigrateOptions): Promise<number> {
  const perRow = plan.columns.length;
  const maxRows = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMS / perRow)));
  let batch: unknown[][] = [];
  let bytes = 0;
  let total = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const params: unknown[] = [];
    const tuples = batch.map((row) => `(${row.map((v) => `$${params.push(toParam(v))}`).join(', ')})`);
    try {
      await client.query(`INSERT INTO "${plan.table}" (${plan.columns.map((c) => `"${c}"`).join(', ')}) VALUES ${tuples.join(', ')}`, params);
    } catch (e) {
      const err = e as { message?: string; detail?: string; severity?: string };
      if (!err.severity) throw e; // not the server refusing a row: a lost connection, mapped by the caller
      const first = batch[0] as unknown[];
      const last = batch[batch.length - 1] as unknown[];
      throw new MigrationRowError(
        plan.table,
        describeKey(plan, first),
        `PostgreSQL refused a row of ${plan.table} between ${describeKey(plan, first)} and ${describeKey(plan, last)}: ${err.message}${err.detail ? ` (${err.detail})` : ''}. Nothing was written.`,
        e,
      );
    }
    total += batch.length;
    batch = [];
    bytes = 0;
  };
  for (const original of sqliteRows(source, plan)) {
    checkRepresentable(plan, original);
    const row = options.alterRowBeforeInsert ? options.alterRowBeforeInsert(plan.table, plan.columns, [...original]) : original;
    batch.push(row);
    for (const v of row) bytes += typeof v === 'string' ? v.length : v instanceof Uint8Array ? v.length : 8;
    if (batch.length >= maxRows || bytes >= MAX_BATCH_BYTES) await flush();
  }
  await flush();
  return total;
}

/** PostgreSQL's text cannot hold U+0000, which SQLite's can: say which row, rather than a bare driver error. */
function checkRepresentable(plan: TablePlan, row: readonly unknown[]): void {
  row.forEach((v, i) => {
    if (typeof v === 'string' && v.includes('\u0000')) {
      const key = describeKey(plan, row);
      throw new MigrationRowError(
        plan.table,
        key,
        `The ${plan.columns[i]} of ${plan.table} row ${key} contains a NUL character, which PostgreSQL text cannot hold. Remove it in Forge first; nothing was written.`,
      );
    }
  });
}

/** The driver's parameter form: BigInt as its decimal text (exact beyond 2^53). */
function toParam(v: unknown): unknown {
  return typeof v === 'bigint' ? v.toString() : v;
}

/** The next id PostgreSQL assigns must be past every copied id, and past any SQLite ever handed out (AUTOINCREMENT). */
async function advanceSequence(source: Database.Database, client: pg.Client, plan: TablePlan): Promise<void> {
  const hasSequenceTable = source.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get() !== undefined;
  const handedOut = hasSequenceTable
    ? ((source.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').safeIntegers(true).get(plan.table) as { seq: bigint } | undefined)?.seq ?? 0n)
    : 0n;
  await client.query(
    `SELECT setval(pg_get_serial_sequence($1, $2), GREATEST((SELECT coalesce(max("${plan.identity}"), 0) FROM "${plan.table}"), $3::bigint) + 1, false)`,
    [plan.table, plan.identity, handedOut.toString()],
  );
}

async function verifyTable(source: Database.Database, client: pg.Client, plan: SourcePlan): Promise<number> {
  const target = cursorRows(client, `forge_verify_${plan.table}`, postgresSelect(plan));
  const rows = sqliteRows(source, plan);
  let count = 0;
  const nextTarget = async (): Promise<unknown[] | undefined> => (await target.next()).value ?? undefined;
  for (const expected of rows) {
    const actual = await nextTarget();
    const key = describeKey(plan, expected);
    if (!actual)
      throw new MigrationVerificationError(
        plan.table,
        key,
        `Verification failed: ${plan.table} row ${key} is missing from PostgreSQL. Everything was rolled back.`,
      );
    if (!rowDigest(expected).equals(rowDigest(actual))) {
      throw new MigrationVerificationError(
        plan.table,
        key,
        `Verification failed: ${plan.table} row ${key} differs between SQLite and PostgreSQL. Everything was rolled back; nothing was written.`,
      );
    }
    count++;
  }
  const extra = await nextTarget();
  if (extra) {
    const key = describeKey(plan, extra);
    throw new MigrationVerificationError(
      plan.table,
      key,
      `Verification failed: PostgreSQL holds a ${plan.table} row ${key} SQLite does not. Everything was rolled back.`,
    );
  }
  return count;
}
