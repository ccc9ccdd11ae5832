import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../store';
import { migrateToPostgres } from './migrate';
import { pullFromPostgres } from './pull';
import { PASSWORD_ROLE, skipWithoutPostgres, startTestPostgres, type TestPostgres } from './test-server';

let server: TestPostgres;
let admin: pg.Client;
const root = mkdtempSync(join(tmpdir(), 'forge-pull-'));
const source = join(root, 'source.db');
let deskUrl: string;
let databases = 0;

async function newDatabase(): Promise<string> {
  const name = `pull_${++databases}`;
  await admin.query(`CREATE DATABASE ${name}`);
  return server.url.replace(/\/postgres$/, `/${name}`);
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A fresh folder per test: what is in it afterwards is exactly what the pull left. */
function folder(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  return dir;
}

describe.skipIf(skipWithoutPostgres())('pullFromPostgres', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    server = await startTestPostgres();
    admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    // A small workspace written as Forge writes it (its own schema, plain SQL), then moved to a desk.
    const store = Store.open(source);
    store.db.exec(`
      INSERT INTO memory_records (category, id, title, created_at, updated_at, header, body, content_hash)
        VALUES ('views', 'V-001', 'Curve steepener', '2026-11-01', '2026-11-02', '{"conviction":"high"}', 'The front end prices cuts; the long end does not.', 'h1'),
               ('research', 'R-001', 'Copper supply', '2026-11-01', '2026-11-01', '{}', 'Smelter outages tighten the concentrate market.', 'h2');
      INSERT INTO audit_log (at, actor, operation, path, content_hash)
        VALUES ('2026-11-01', 'pm', 'write', '/memory/views/V-001.md', 'h1'), ('2026-11-01', 'pm', 'write', '/memory/research/R-001.md', 'h2');
      INSERT INTO workspace_meta (key, value) VALUES ('desk', 'macro');
    `);
    store.close();
    deskUrl = await newDatabase();
    await migrateToPostgres(source, deskUrl);
    // The desk handed out a task event id, then the row went: the pulled workspace must not hand it out again.
    await withClient(deskUrl, async (c) => {
      await c.query("INSERT INTO task_events (session_id, task_id, at, kind) VALUES ('s', 't', '2026-11-02', 'gone')");
      await c.query('DELETE FROM task_events');
    });
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  // If this failed, an export from a desk could miss notes in keyword search or hand out an id the desk already used.
  it('pulls into a new workspace whose full-text index and id counters work', async () => {
    const file = join(folder('ok'), 'forge.db');
    const summary = await pullFromPostgres(deskUrl, file);
    expect(summary.schemaVersion).toBe(19);
    expect(summary.tables.find((t) => t.table === 'memory_records')?.rows).toBe(2);
    const db = new Database(file);
    try {
      expect(db.prepare("SELECT rowid FROM memory_fts WHERE memory_fts MATCH 'smelter'").pluck().all()).toHaveLength(1);
      expect(db.prepare('SELECT count(*) FROM memory_changes').pluck().get()).toBe(2);
      const seq = db.prepare("INSERT INTO audit_log (at, actor, operation, path) VALUES ('2026-11-03', 'pm', 'write', 'x') RETURNING seq").pluck().get();
      expect(seq).toBe(3);
      const event = db.prepare("INSERT INTO task_events (session_id, task_id, at, kind) VALUES ('s', 't', '2026-11-03', 'new') RETURNING seq").pluck().get();
      expect(event).toBe(2);
    } finally {
      db.close();
    }
    expect(readdirSync(join(root, 'ok'))).toEqual(['forge.db']);
  });

  // If this failed, pointing the export at the wrong database would write an empty or garbled "workspace".
  it('refuses a database with no Forge schema, or another schema version, and writes nothing', async () => {
    const empty = await newDatabase();
    const dir = folder('refused');
    await expect(pullFromPostgres(empty, join(dir, 'forge.db'))).rejects.toMatchObject({ name: 'PostgresNoWorkspaceError', code: 'conflict' });
    const older = await newDatabase();
    await migrateToPostgres(source, older);
    await withClient(older, (c) => c.query('UPDATE forge_schema SET version = 18'));
    await expect(pullFromPostgres(older, join(dir, 'forge.db'))).rejects.toMatchObject({ name: 'PostgresSchemaVersionError', found: 18, expected: 19 });
    expect(readdirSync(dir)).toEqual([]);
    // Read only: the desk's rows are as they were.
    expect(await withClient(older, async (c) => (await c.query('SELECT count(*)::int AS n FROM memory_records')).rows[0].n)).toBe(2);
  });

  // If this failed, an export could overwrite a PM's own workspace file.
  it('refuses an existing file and leaves it unchanged', async () => {
    const file = join(folder('exists'), 'forge.db');
    writeFileSync(file, 'a PM file');
    const before = statSync(file).mtimeMs;
    await expect(pullFromPostgres(deskUrl, file)).rejects.toMatchObject({ name: 'PullTargetExistsError', code: 'conflict' });
    expect(readFileSync(file, 'utf8')).toBe('a PM file');
    expect(statSync(file).mtimeMs).toBe(before);
    expect(readdirSync(join(root, 'exists'))).toEqual(['forge.db']);
  });

  // If this failed, a row damaged between the copy and the check (disk, driver, another process) would ship in an export unnoticed.
  it('catches a row changed in the new file before the check, names it, and leaves no file', async () => {
    const dir = folder('tampered');
    const file = join(dir, 'forge.db');
    const error = await pullFromPostgres(deskUrl, file, {
      beforeVerify: (temporary) => {
        const db = new Database(temporary);
        db.prepare("UPDATE workspace_meta SET value = 'micro' WHERE key = 'desk'").run();
        db.close();
      },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'PullVerificationError', table: 'workspace_meta', key: 'key="desk"' });
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  // If this failed, exporting a desk while its servers write could give a file mixing two moments (a record without its audit row).
  it('reads one snapshot: a row the desk changes mid-pull does not reach the file, which is still verified', async () => {
    const url = await newDatabase();
    await migrateToPostgres(source, url);
    const file = join(folder('snapshot'), 'forge.db');
    await pullFromPostgres(url, file, {
      onProgress: async (p) => {
        if (p.table === 'workspace_meta' && p.phase === 'copied') {
          await withClient(url, (c) => c.query("UPDATE workspace_meta SET value = 'changed' WHERE key = 'desk'"));
        }
      },
      beforeVerify: () => withClient(url, (c) => c.query("UPDATE memory_records SET title = 'changed' WHERE id = 'V-001'")).then(() => undefined),
    });
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare("SELECT value FROM workspace_meta WHERE key = 'desk'").pluck().get()).toBe('macro');
      expect(db.prepare("SELECT title FROM memory_records WHERE id = 'V-001'").pluck().get()).toBe('Curve steepener');
    } finally {
      db.close();
    }
  });

  // If this failed, a mistyped password would end up in a terminal's scroll-back.
  it('never prints the password', async () => {
    await admin.query(`CREATE ROLE ${PASSWORD_ROLE} LOGIN PASSWORD 'right-pw-123'`);
    const wrong = deskUrl.replace('postgres@', `${PASSWORD_ROLE}:wrong-pw-456@`);
    const dir = folder('password');
    const error = await pullFromPostgres(wrong, join(dir, 'forge.db')).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'PostgresAuthError' });
    expect((error as Error).message).toContain('***');
    expect((error as Error).message).not.toContain('wrong-pw-456');
    expect(readdirSync(dir)).toEqual([]);
  });
});
