import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrateToPostgres } from '../store/postgres/migrate';
import { pullFromPostgres } from '../store/postgres/pull';
import { rowDigest } from '../store/postgres/row-digest';
import { isSkipped } from '../store/postgres/schema';
import { PASSWORD_ROLE, skipWithoutPostgres, startTestPostgres, type TestPostgres } from '../store/postgres/test-server';
import { main } from './cli';
import { exportFromDesk } from './export-from-desk';
import { seedDeskTestWorkspace } from './testing';

let server: TestPostgres;
let admin: pg.Client;
let deskUrl: string;
const root = mkdtempSync(join(tmpdir(), 'forge-desk-export-test-'));
const dataDir = join(root, 'workspace');
const dbFile = join(dataDir, 'forge.db');

/** Runs the command line, returning its exit code and what it printed (stdout and stderr). */
async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const code = await main(args);
    return { code, out: log.mock.calls.map((c) => String(c[0])).join('\n'), err: error.mock.calls.map((c) => String(c[0])).join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

/** Every workspace table (SQLite plumbing and FTS5 shadows aside) as the sorted digests of its rows, FTS5's rowid included. */
function tableDigests(file: string): Map<string, string[]> {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string; sql: string }[];
    const out = new Map<string, string[]>();
    for (const { name, sql } of tables) {
      if (isSkipped(name) || name.startsWith('archive_')) continue;
      const select = /^CREATE VIRTUAL TABLE/i.test(sql) ? `SELECT rowid, * FROM "${name}"` : `SELECT * FROM "${name}"`;
      const rows = db.prepare(select).raw(true).safeIntegers(true).all() as unknown[][];
      out.set(name, rows.map((r) => rowDigest(r).toString('hex')).sort());
    }
    // What AUTOINCREMENT hands out next: past its counter (when SQLite kept one) and past every row.
    const next = tables
      .filter((t) => /AUTOINCREMENT/i.test(t.sql ?? ''))
      .map((t) => {
        const counter = (db.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').pluck().get(t.name) as number | undefined) ?? 0;
        const max = (db.prepare(`SELECT coalesce(max(rowid), 0) FROM "${t.name}"`).pluck().get() as number) ?? 0;
        return `${t.name} next ${Math.max(counter, max) + 1}`;
      });
    out.set('next ids', next);
    return out;
  } finally {
    db.close();
  }
}

function search(file: string, table: 'memory_fts' | 'research_passages', words: string): number[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid`).pluck().all(words) as number[];
  } finally {
    db.close();
  }
}

describe.skipIf(skipWithoutPostgres())('forge export --from postgres://…', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    server = await startTestPostgres();
    admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await seedDeskTestWorkspace(dataDir);
    await admin.query('CREATE DATABASE desk');
    deskUrl = server.url.replace(/\/postgres$/, '/desk');
    await migrateToPostgres(dbFile, deskUrl);
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  // If this failed, a PM taking a desk's workspace home would get other rows than the desk holds, or a keyword search missing notes.
  it('pulls back every row of every table as the workspace had it, and keyword search finds the same notes', async () => {
    const pulled = join(root, 'pulled.db');
    await pullFromPostgres(deskUrl, pulled);
    const original = tableDigests(dbFile);
    const back = tableDigests(pulled);
    expect([...back.keys()]).toEqual([...original.keys()]);
    for (const [table, digests] of original) expect(back.get(table), table).toEqual(digests);
    expect(original.get('memory_archive')?.length).toBeGreaterThanOrEqual(1);
    expect(original.get('audit_log')?.length).toBeGreaterThan(0);
    // The full-text indexes were rebuilt, not copied: the same words find the same notes and passages.
    for (const words of ['curve', '"V-001"', 'confidence']) {
      const found = search(dbFile, 'memory_fts', words);
      expect(search(pulled, 'memory_fts', words), words).toEqual(found);
    }
    expect(search(dbFile, 'memory_fts', 'curve').length).toBeGreaterThan(0);
    expect(search(pulled, 'research_passages', 'steepens')).toEqual(search(dbFile, 'research_passages', 'steepens'));
    expect(search(pulled, 'research_passages', 'steepens')).toHaveLength(1);
  });

  // If this failed, an archive made from a desk could not be imported, or would be refused as a stripped history.
  it('writes an archive forge import takes, with its audit-trail checks passing', async () => {
    const archive = join(root, 'desk.forge');
    const pmDir = join(root, 'pm');
    const made = await cli(['export', archive, '--from', deskUrl, '--data', pmDir]);
    expect(made.err).toBe('');
    expect(made.code).toBe(0);
    expect(made.out).toMatch(/memory_records\s+\d+ rows read/);
    expect(made.out).toContain('verified row by row');
    // The archive's rows are the workspace's rows.
    const original = tableDigests(dbFile);
    for (const [table, digests] of tableDigests(archive)) expect(digests, table).toEqual(original.get(table));

    // Into the PM's own folder (which holds the key that signed it), as a PM taking the desk's workspace home would.
    const imported = pmDir;
    const taken = await cli(['import', archive, '--data', imported]);
    expect(taken.err).toBe('');
    expect(taken.code).toBe(0);
    expect(taken.out).not.toMatch(/unverified/i);
    expect(taken.out).toContain("Signed with this workspace's key");
    const db = new Database(join(imported, 'forge.db'), { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) FROM memory_records').pluck().get()).toBe(original.get('memory_records')?.length);
    } finally {
      db.close();
    }
  });

  // If this failed, a desk's whole database could stay behind in /tmp, or a mistyped password show in the terminal.
  it('removes its temporary folder on failure and never prints the password', async () => {
    await admin.query(`CREATE ROLE ${PASSWORD_ROLE} LOGIN PASSWORD 'right-pw-123'`);
    const wrong = deskUrl.replace('postgres@', `${PASSWORD_ROLE}:wrong-pw-456@`);
    const temporaryRoot = join(root, 'tmp');
    mkdirSync(temporaryRoot);
    await expect(exportFromDesk(wrong, join(root, 'never.forge'), { dataDir: join(root, 'pm2'), temporaryRoot })).rejects.toMatchObject({
      name: 'PostgresAuthError',
    });
    expect(readdirSync(temporaryRoot)).toEqual([]);
    expect(existsSync(join(root, 'never.forge'))).toBe(false);

    const run = await cli(['export', join(root, 'never.forge'), '--from', wrong, '--data', join(root, 'pm2')]);
    expect(run.code).toBe(1);
    expect(run.err).toContain('***@127.0.0.1');
    expect(run.err + run.out).not.toContain('wrong-pw-456');
    expect(existsSync(join(root, 'never.forge'))).toBe(false);
    // An option of export only.
    expect((await cli(['import', join(root, 'x.forge'), '--from', deskUrl])).code).toBe(2);
  });
});
