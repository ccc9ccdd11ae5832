import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../migrations';
import { Store } from '../store';
import { isSkipped, POSTGRES_SCHEMA_VERSION, postgresAfterCopy, postgresLogTables, postgresSchema, postgresTables, SKIPPED_SQLITE_TABLES } from './schema';
import { skipWithoutPostgres, startTestPostgres, type TestPostgres } from './test-server';

function sqliteTables(): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'forge-pg-schema-'));
  const store = Store.open(join(dir, 'forge.db'));
  try {
    return (store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the PostgreSQL schema covers the SQLite one', () => {
  // If this failed, a new SQLite migration's table would silently stay behind when a PM moves to a desk.
  it('holds every table of a new SQLite workspace, or names it in the commented skip list', () => {
    const missing = sqliteTables().filter((t) => !postgresTables.includes(t) && !isSkipped(t));
    expect(missing).toEqual([]);
    expect(POSTGRES_SCHEMA_VERSION).toBe(migrations.length);
  });

  // If this failed, the skip list could hide a table that was meant to be copied (a typo, a renamed table).
  it('skips only tables that exist in SQLite and are not also created in PostgreSQL', () => {
    const sqlite = sqliteTables();
    for (const t of Object.keys(SKIPPED_SQLITE_TABLES)) {
      expect(sqlite, t).toContain(t);
      expect(postgresTables, t).not.toContain(t);
    }
  });
});

describe.skipIf(skipWithoutPostgres())('the schema on a real PostgreSQL', { timeout: 120_000 }, () => {
  let server: TestPostgres;
  let client: pg.Client;
  beforeAll(async () => {
    server = await startTestPostgres();
    client = new pg.Client({ connectionString: server.url });
    await client.connect();
    for (const statement of [...postgresSchema, ...postgresAfterCopy]) await client.query(statement);
  }, 120_000);
  afterAll(async () => {
    await client?.end();
    await server?.stop();
  });

  // If this failed, `forge migrate` would stop half-way on a statement PostgreSQL refuses.
  it('creates every table it lists', async () => {
    const { rows } = await client.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
    expect(rows.map((r) => r.table_name).sort()).toEqual([...postgresTables, ...postgresLogTables].sort());
  });

  // If this failed, anyone with the database's password could rewrite the decision lineage.
  it('refuses UPDATE, DELETE and TRUNCATE of the audit trail in the database itself', async () => {
    await client.query("INSERT INTO audit_log (at, actor, operation, path) VALUES ('2026-11-28T00:00:00Z', 'pm', 'write', 'views/V-1.md')");
    await expect(client.query("UPDATE audit_log SET actor = 'someone else'")).rejects.toThrow(/append-only; entries cannot be changed/);
    await expect(client.query('DELETE FROM audit_log')).rejects.toThrow(/append-only; entries cannot be deleted/);
    await expect(client.query('TRUNCATE audit_log')).rejects.toThrow(/append-only; it cannot be emptied/);
    const { rows } = await client.query('SELECT actor FROM audit_log');
    expect(rows).toEqual([{ actor: 'pm' }]);
  });

  // If this failed, a desk's keyword search would find nothing (or not rank by relevance).
  it('indexes a record for full-text search as it is written, stemmed, with header keys and values', async () => {
    await client.query(
      `INSERT INTO memory_records (category, id, title, created_at, updated_at, header, body, content_hash)
       VALUES ('views', 'V-1', 'Duration view', 'a', 'a', '{"instrument": "UST 10y"}', 'Yields are rising on inflation', 'h'),
              ('views', 'V-2', 'Equity view', 'a', 'a', '{}', 'Nothing about rates', 'h')`,
    );
    const { rows } = await client.query<{ id: string }>(
      "SELECT id FROM memory_records WHERE search_vector @@ websearch_to_tsquery('english', $1) ORDER BY ts_rank_cd(search_vector, websearch_to_tsquery('english', $1)) DESC",
      ['yield rise instrument'],
    );
    expect(rows.map((r) => r.id)).toEqual(['V-1']);
    const log = await client.query<{ op: string }>('SELECT op FROM memory_changes ORDER BY seq');
    expect(log.rows.map((r) => Number(r.op))).toEqual([1, 1]);
  });

  // If this failed, a record with a malformed header (SQLite refuses it) could enter the desk's database.
  it('refuses a header that is not JSON, as SQLite does', async () => {
    await expect(
      client.query(
        "INSERT INTO memory_records (category, id, created_at, updated_at, header, content_hash) VALUES ('views', 'V-9', 'a', 'a', '{not json', 'h')",
      ),
    ).rejects.toThrow(/invalid input syntax for type json/);
  });
});
