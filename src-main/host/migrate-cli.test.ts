import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from './cli';
import { migrateToPostgres } from '../store/postgres/migrate';
import { rowDigest } from '../store/postgres/row-digest';
import { postgresTables, SQLITE_SOURCE_COLUMNS } from '../store/postgres/schema';
import { freePort, PASSWORD_ROLE, skipWithoutPostgres, startTestPostgres, type TestPostgres } from '../store/postgres/test-server';
import { seedDeskTestWorkspace } from './testing';

let server: TestPostgres;
let admin: pg.Client;
const root = mkdtempSync(join(tmpdir(), 'forge-migrate-'));
const dataDir = join(root, 'workspace');
const dbFile = join(dataDir, 'forge.db');
let databases = 0;

/**
 * A new empty database on the test server, and its URL. `icu`: English collation, where "a-lower"
 * sorts before "B-upper" (byte order, SQLite's, puts "B" first) — a desk's database may well be
 * created so, and the row-by-row check must still pair the right rows.
 */
async function emptyDatabase(icu = false): Promise<string> {
  const name = `desk_${++databases}`;
  await admin.query(`CREATE DATABASE ${name}${icu ? " TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en'" : ''}`);
  return server.url.replace(/\/postgres$/, `/${name}`);
}

/** bigint read exactly (as BigInt, not pg's default string), so digests compare values as the migration does. */
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === pg.types.builtins.INT8 ? (v: string) => BigInt(v) : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url, types });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const tablesIn = (url: string) =>
  withClient(url, async (c) =>
    (await c.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")).rows
      .map((r) => r.table_name)
      .sort(),
  );

describe.skipIf(skipWithoutPostgres())('forge migrate --to postgres://…', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    server = await startTestPostgres();
    admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await seedDeskTestWorkspace(dataDir);
    // The core closed cleanly: the copy reads one checkpointed file.
    expect(existsSync(`${dbFile}-wal`)).toBe(false);
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  // If this failed, a PM moving to a desk could lose a version, an audit row, or get a changed value without being told.
  it('copies every table with the same count and the same digest for every row, and the CLI says so', async () => {
    const url = await emptyDatabase(true);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    let code: number;
    let printed: string;
    try {
      code = await main(['migrate', '--to', url, '--data', dataDir]);
      printed = log.mock.calls.map((c) => String(c[0])).join('\n');
    } finally {
      log.mockRestore();
    }
    expect(code).toBe(0);
    expect(printed).toMatch(/audit_log\s+\d+ rows copied/);
    expect(printed).toContain('verified row by row');

    const sqlite = new Database(dbFile, { readonly: true });
    try {
      const archived = sqlite.prepare("SELECT count(*) AS n FROM memory_archive WHERE id = 'V-001'").get() as { n: number };
      expect(archived.n).toBeGreaterThanOrEqual(1);
      await withClient(url, async (c) => {
        // Independently of the migration's own check: every table's rows, digested on both sides, in key order.
        for (const table of postgresTables.filter((t) => t !== 'forge_schema')) {
          const names = (
            await c.query<{ column_name: string }>(
              "SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position",
              [table],
            )
          ).rows.map((r) => r.column_name);
          const cols = names.map((n) => `"${n}"`);
          const sqliteCols = names.map((n) => SQLITE_SOURCE_COLUMNS[table]?.[n] ?? `"${n}"`);
          const fromSqlite = (
            sqlite
              .prepare(`SELECT ${sqliteCols.join(', ')} FROM "${table}"`)
              .raw(true)
              .safeIntegers(true)
              .all() as unknown[][]
          )
            .map((r) => rowDigest(r).toString('hex'))
            .sort();
          const fromPg = (await c.query({ text: `SELECT ${cols.join(', ')} FROM "${table}"`, rowMode: 'array' })).rows
            .map((r) => rowDigest(r as unknown[]).toString('hex'))
            .sort();
          expect(fromPg, table).toEqual(fromSqlite);
        }
        const audit = await c.query<{ n: string }>('SELECT count(*) AS n FROM audit_log');
        expect(Number(audit.rows[0]?.n)).toBe((sqlite.prepare('SELECT count(*) AS n FROM audit_log').get() as { n: number }).n);
        expect(Number(audit.rows[0]?.n)).toBeGreaterThan(0);
        const version = await c.query('SELECT version FROM forge_schema');
        expect(version.rows).toEqual([{ version: 19 }]);
        // The next audit row continues the sequence rather than colliding with a copied one.
        const maxSeq = (sqlite.prepare('SELECT max(seq) AS m FROM audit_log').get() as { m: number }).m;
        const next = await c.query<{ seq: string }>(
          "INSERT INTO audit_log (at, actor, operation, path) VALUES ('2026-11-28', 'pm', 'write', 'x') RETURNING seq",
        );
        expect(Number(next.rows[0]?.seq)).toBe(maxSeq + 1);
        // Exact beyond 2^53; a REAL-stored page lands as the integer it is; AUTOINCREMENT's deleted id is never reused.
        expect((await c.query("SELECT last FROM id_sequences WHERE prefix = 'BIG'")).rows).toEqual([{ last: 9007199254740993n }]);
        expect((await c.query('SELECT page FROM research_passages ORDER BY passage')).rows).toEqual([{ page: 3n }, { page: null }]);
        const event = await c.query<{ seq: bigint }>("INSERT INTO task_events (session_id, task_id, at, kind) VALUES ('s-1', 't-1', 'd', 'x') RETURNING seq");
        expect(event.rows[0]?.seq).toBe(4n);
        // The edited View is found by PostgreSQL's own full-text ranking.
        const found = await c.query("SELECT id FROM memory_records WHERE id = 'V-001' AND search_vector @@ to_tsquery('english', 'V-001')");
        expect(found.rowCount).toBe(1);
      });
    } finally {
      sqlite.close();
    }
  });

  // If this failed, someone with the desk database's password could rewrite who approved what.
  it('leaves an audit trail the database refuses to change', async () => {
    const url = await emptyDatabase();
    await migrateToPostgres(dbFile, url);
    await withClient(url, async (c) => {
      await expect(c.query("UPDATE audit_log SET actor = 'intruder' WHERE seq = (SELECT min(seq) FROM audit_log)")).rejects.toThrow(/append-only/);
      await expect(c.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
      const intruders = await c.query("SELECT 1 FROM audit_log WHERE actor = 'intruder'");
      expect(intruders.rowCount).toBe(0);
    });
  });

  // If this failed, a second migration could merge into (or overwrite) a desk's live workspace.
  it('refuses a target that already holds a workspace and leaves it unchanged', async () => {
    const url = await emptyDatabase();
    await migrateToPostgres(dbFile, url);
    const before = await withClient(url, async (c) => (await c.query('SELECT seq, actor, path FROM audit_log ORDER BY seq')).rows);
    const tables = await tablesIn(url);
    await expect(migrateToPostgres(dbFile, url)).rejects.toMatchObject({ name: 'PostgresTargetNotEmptyError', code: 'conflict' });
    expect(await tablesIn(url)).toEqual(tables);
    expect(await withClient(url, async (c) => (await c.query('SELECT seq, actor, path FROM audit_log ORDER BY seq')).rows)).toEqual(before);
  });

  // If this failed, a value changed on its way into PostgreSQL would go unnoticed and the desk would hold a different history.
  it('catches a row altered during the copy, names the table and the row, and leaves the target empty', async () => {
    const url = await emptyDatabase();
    let altered: string | undefined;
    const error = await migrateToPostgres(dbFile, url, {
      alterRowBeforeInsert: (table, columns, row) => {
        if (table !== 'audit_log' || altered) return row;
        altered = String(row[columns.indexOf('seq')]);
        const copy = [...row];
        copy[columns.indexOf('actor')] = 'someone else';
        return copy;
      },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'MigrationVerificationError', table: 'audit_log', key: `seq=${altered}` });
    expect((error as Error).message).toContain(`audit_log row seq=${altered} differs`);
    expect(await tablesIn(url)).toEqual([]);
  });

  // If this failed, a server restart or a dropped network mid-copy could leave a desk with half a workspace.
  it('rolls everything back when the connection is cut mid-copy, with a typed error', async () => {
    const url = await emptyDatabase();
    const database = new URL(url).pathname.slice(1);
    let cut = false;
    const error = await migrateToPostgres(dbFile, url, {
      onProgress: async (p) => {
        if (cut || p.table !== 'memory_records') return;
        cut = true;
        const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
        for (const { pid } of rows) await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        // Until the server has ended that session (the signal is asynchronous).
        for (let i = 0; i < 600; i++) {
          const left = await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = ANY($1)', [rows.map((r) => r.pid)]);
          if (left.rowCount === 0) break;
          await new Promise((r) => setTimeout(r, 100));
        }
      },
    }).catch((e: unknown) => e);
    expect(cut).toBe(true);
    expect(error).toMatchObject({ name: 'MigrationFailedError', code: 'unavailable' });
    expect((error as Error).message).toMatch(/rolled back; nothing was written/);
    expect(await tablesIn(url)).toEqual([]);
  });

  // If this failed, a PM who mistyped the port would wait minutes or find a half-written schema.
  it('gives a typed error for a port nothing listens on, a bad URL and a wrong password, never printing the password', async () => {
    const port = await freePort();
    const unreachable = await migrateToPostgres(dbFile, `postgres://postgres:s3cret-pw@127.0.0.1:${port}/postgres`).catch((e: unknown) => e);
    expect(unreachable).toMatchObject({ name: 'PostgresUnreachableError', code: 'unavailable' });
    expect((unreachable as Error).message).toContain(`postgres://postgres:***@127.0.0.1:${port}/postgres`);
    expect((unreachable as Error).message).not.toContain('s3cret-pw');

    await expect(migrateToPostgres(dbFile, 'mysql://root@127.0.0.1/db')).rejects.toMatchObject({ name: 'PostgresUrlError', code: 'invalid_input' });

    await admin.query(`CREATE ROLE ${PASSWORD_ROLE} LOGIN PASSWORD 'right-pw-123'`);
    const url = await emptyDatabase();
    const wrong = url.replace('postgres@', `${PASSWORD_ROLE}:wrong-pw-456@`);
    const refused = await migrateToPostgres(dbFile, wrong).catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'PostgresAuthError', code: 'forbidden' });
    expect((refused as Error).message).not.toContain('wrong-pw-456');
    expect(await tablesIn(url)).toEqual([]);

    // The command line: exit code 1 and the masked URL.
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let printed: string;
    try {
      expect(await main(['migrate', '--to', `postgres://postgres:s3cret-pw@127.0.0.1:${port}/postgres`, '--data', dataDir])).toBe(1);
      printed = err.mock.calls.map((c) => String(c[0])).join('\n');
    } finally {
      err.mockRestore();
    }
    expect(printed).toContain('***@127.0.0.1');
    expect(printed).not.toContain('s3cret-pw');
  });

  // If this failed, a note holding a NUL character (SQLite keeps it, PostgreSQL text cannot) would abort the copy with a bare driver error.
  it('refuses a text value PostgreSQL cannot hold, naming its table and row, with nothing written', async () => {
    const copy = join(root, 'with-nul.db');
    copyFileSync(dbFile, copy);
    const db = new Database(copy);
    db.prepare('INSERT INTO workspace_meta (key, value) VALUES (?, ?)').run('odd', 'a\u0000b');
    db.close();
    const url = await emptyDatabase();
    await expect(migrateToPostgres(copy, url)).rejects.toMatchObject({ name: 'MigrationRowError', table: 'workspace_meta', key: 'key="odd"' });
    expect(await tablesIn(url)).toEqual([]);
  });
});
