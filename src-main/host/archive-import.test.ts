import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvSecretStore } from '../config/secrets';
import { migrations, openDatabase } from '../store';
import { SIGNING_KEY_FILE } from './archive-signing';
import { createCore } from './core';
import { exportWorkspace, importWorkspace, verifyArchive } from './workspace-archive';

/**
 * An archive is a file anyone can edit before handing it over. Whatever is in it, an import must
 * leave a workspace whose rules are Forge's (the audit log stays append-only, no foreign trigger
 * runs), must say when the history was stripped, must upgrade an older archive into a workspace
 * that opens, and must never leave the PM with half a workspace.
 */
const root = mkdtempSync(join(tmpdir(), 'forge-archive-trust-'));
const pristine = join(root, 'pristine');
let n = 0;

/** A copy of the pristine workspace, its database edited by hand (as an insider with file access could). */
function tamperedWorkspace(edit: (db: Database.Database) => void): string {
  const dir = join(root, `ws-${++n}`);
  cpSync(pristine, dir, { recursive: true });
  const db = new Database(join(dir, 'forge.db'));
  edit(db);
  db.close();
  return dir;
}

function exported(dir: string): string {
  const file = join(root, `archive-${++n}.forge`);
  exportWorkspace(dir, file);
  return file;
}

/** A target folder holding a workspace the PM would hate to lose. */
function occupiedTarget(): string {
  const dir = join(root, `target-${++n}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'forge.db'), 'the old workspace');
  return dir;
}

const objects = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view', 'table') ORDER BY name").all() as {
      type: string;
      name: string;
    }[];
  } finally {
    db.close();
  }
};

beforeAll(async () => {
  const core = createCore({ dataDir: pristine, mode: 'test', secrets: new EnvSecretStore({}) });
  await core.context.memory.ready;
  const fs = core.context.memory.fs;
  const v1 = fs.readFile('/memory/views/V-001.md');
  await fs.writeFile('/memory/views/V-001.md', v1.replace('confidence: 0.7', 'confidence: 0.6'), { actor: 'pm' });
  await core.close();
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('an import cannot rewrite the rules', () => {
  it('detects an audit log stripped of its triggers and entries, refuses it, and with the override restores the append-only rules and records why', () => {
    const dir = tamperedWorkspace((db) => db.exec('DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete; DELETE FROM audit_log;'));
    const archive = exported(dir);
    const target = occupiedTarget();
    // If this fails, an archive whose audit trail was wiped imports as if nothing had happened.
    expect(() => importWorkspace(archive, target)).toThrow(/history cannot be vouched for: .*audit log is empty.*audit_log_no_update/);
    expect(readFileSync(join(target, 'forge.db'), 'utf8')).toBe('the old workspace');

    const r = importWorkspace(archive, target, { acceptUnverifiedHistory: true });
    expect(r.unverifiedHistory.join(' ')).toMatch(/audit log is empty/);
    const names = objects(join(target, 'forge.db')).map((o) => o.name);
    // If this fails, the imported workspace's audit log could be edited or emptied from then on.
    expect(names).toEqual(expect.arrayContaining(['audit_log_no_update', 'audit_log_no_delete']));
    const db = openDatabase(join(target, 'forge.db'));
    try {
      expect(() => db.exec('DELETE FROM audit_log')).toThrow(/append-only/);
      const entries = db.prepare('SELECT operation, path FROM audit_log').all();
      expect(entries).toEqual([{ operation: 'import (unverified history)', path: `/workspace/${archive.split('/').pop()}` }]);
      expect(
        JSON.parse((db.prepare("SELECT value FROM workspace_meta WHERE key = 'last_import'").get() as { value: string }).value).unverifiedHistory.length,
      ).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });

  it('never carries a foreign trigger: one that swallowed audit entries is flagged, absent after import, and does not fire on later writes', async () => {
    const dir = tamperedWorkspace((db) =>
      db.exec(`
        CREATE TRIGGER swallow_audit BEFORE INSERT ON audit_log BEGIN SELECT RAISE(IGNORE); END;
        CREATE TRIGGER tattle AFTER INSERT ON memory_records BEGIN INSERT INTO workspace_meta (key, value) VALUES ('tattle-' || new.id, 'fired'); END;
      `),
    );
    const archive = exported(dir);
    const target = occupiedTarget();
    expect(() => importWorkspace(archive, target)).toThrow(/triggers Forge does not make.*swallow_audit/);
    const r = importWorkspace(archive, target, { acceptUnverifiedHistory: true });
    expect(r.ignored).toEqual(expect.arrayContaining(['trigger swallow_audit', 'trigger tattle']));
    expect(objects(join(target, 'forge.db')).map((o) => o.name)).not.toEqual(expect.arrayContaining(['swallow_audit']));
    expect(objects(join(target, 'forge.db')).map((o) => o.name)).not.toContain('tattle');

    const core = createCore({ dataDir: target, mode: 'test', secrets: new EnvSecretStore({}) });
    try {
      await core.context.memory.ready;
      const fs = core.context.memory.fs;
      const before = core.context.memory.store.db.prepare('SELECT count(*) AS n FROM audit_log').get() as { n: number };
      const v1 = fs.readFile('/memory/views/V-001.md');
      await fs.writeFile('/memory/views/V-001.md', v1.replace('confidence: 0.6', 'confidence: 0.4'), { actor: 'pm' });
      const db = core.context.memory.store.db;
      // If this fails, a trigger smuggled in an archive silently erases the audit trail of every later write.
      expect((db.prepare('SELECT count(*) AS n FROM audit_log').get() as { n: number }).n).toBeGreaterThan(before.n);
      expect(db.prepare("SELECT key FROM workspace_meta WHERE key LIKE 'tattle-%'").all()).toEqual([]);
    } finally {
      await core.close();
    }
  });

  it('ignores views and tables with odd names: imported without them, nothing else lost', () => {
    const dir = tamperedWorkspace((db) =>
      db.exec(`
        CREATE TABLE "x""; DROP TABLE memory_records; --" (a TEXT);
        INSERT INTO "x""; DROP TABLE memory_records; --" VALUES ('payload');
        CREATE VIEW "memory_records view" AS SELECT id FROM memory_records;
        INSERT INTO task_events (seq, session_id, task_id, at, kind) VALUES (41, 's', 't', '2026-05-01', 'started');
        DELETE FROM task_events;
      `),
    );
    const archive = exported(dir);
    const target = join(root, `fresh-${++n}`);
    const r = importWorkspace(archive, target);
    expect(r.unverifiedHistory).toEqual([]);
    expect(r.ignored).toEqual(expect.arrayContaining(['view memory_records view', 'table x"; DROP TABLE memory_records; --']));
    const names = objects(join(target, 'forge.db')).map((o) => o.name);
    expect(names).not.toContain('memory_records view');
    expect(names.filter((x) => x.startsWith('x"'))).toEqual([]);
    const db = new Database(join(target, 'forge.db'), { readonly: true });
    const pristineDb = new Database(join(pristine, 'forge.db'), { readonly: true });
    try {
      const q = 'SELECT category, id, content_hash FROM memory_records ORDER BY category, id';
      expect(db.prepare(q).all()).toEqual(pristineDb.prepare(q).all());
      // Event numbers are never reused, even for events that are gone.
      expect(db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'task_events'").get()).toEqual({ seq: 41 });
    } finally {
      db.close();
      pristineDb.close();
    }
  });

  it('upgrades an archive made by an older Forge into a workspace that opens, data and keyword search intact', async () => {
    const old = join(root, 'older');
    mkdirSync(old);
    const oldVersion = migrations.length - 3;
    const db = openDatabase(join(old, 'forge.db'), { migrations: migrations.slice(0, oldVersion) });
    const src = new Database(join(pristine, 'forge.db'), { readonly: true });
    for (const table of ['memory_records', 'memory_archive', 'audit_log', 'id_sequences', 'workspace_meta']) {
      const rows = src.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[];
      for (const row of rows)
        db.prepare(
          `INSERT INTO ${table} (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row)
            .map(() => '?')
            .join(', ')})`,
        ).run(...Object.values(row));
    }
    src.close();
    db.close();
    const archive = exported(old);
    expect(verifyArchive(archive).schemaVersion).toBe(oldVersion);
    const target = occupiedTarget();
    importWorkspace(archive, target);
    const core = createCore({ dataDir: target, mode: 'test', secrets: new EnvSecretStore({}) });
    try {
      await core.context.memory.ready;
      const moved = core.context.memory.store.db;
      // If this fails, the PM's old archive replaced the workspace and then would not open.
      expect(moved.pragma('user_version', { simple: true })).toBe(migrations.length);
      expect(core.context.memory.fs.readFile('/memory/views/V-001.md')).toMatch(/confidence: 0\.6/);
      const hits = moved.prepare(`SELECT rowid FROM memory_fts WHERE memory_fts MATCH '"V-001"'`).all();
      expect(hits.length).toBeGreaterThan(0);
    } finally {
      await core.close();
    }
  }, 60_000);

  it('refuses an archive from a newer Forge and replaces nothing', () => {
    const archive = exported(pristine);
    const db = new Database(archive);
    db.pragma(`user_version = ${migrations.length + 1}`);
    db.close();
    const target = occupiedTarget();
    expect(() => importWorkspace(archive, target)).toThrow(/newer Forge/);
    expect(readFileSync(join(target, 'forge.db'), 'utf8')).toBe('the old workspace');
  });

  it('leaves the original workspace intact when the import dies between building and replacing', () => {
    const archive = exported(pristine);
    const target = occupiedTarget();
    expect(() =>
      importWorkspace(archive, target, {
        beforeReplace: () => {
          throw new Error('killed');
        },
      }),
    ).toThrow('killed');
    // If this fails, a crash mid-import leaves the PM with half a workspace or none.
    expect(readdirSync(target)).toEqual(['forge.db']);
    expect(readFileSync(join(target, 'forge.db'), 'utf8')).toBe('the old workspace');
    expect(readdirSync(root).filter((x) => x.startsWith(`target-${n}.`))).toEqual([]);
  });
});

describe('what an archive signature proves', () => {
  it('says whose key signed it, and refuses rows changed after signing', () => {
    const archive = exported(pristine);
    // Importing where the exporting key lives: this workspace's key; anywhere else: another key, with its fingerprint.
    const home = join(root, `home-${++n}`);
    mkdirSync(home);
    copyFileSync(join(pristine, SIGNING_KEY_FILE), join(home, SIGNING_KEY_FILE));
    expect(verifyArchive(archive, home).signature.kind).toBe('this-workspace');
    const elsewhere = verifyArchive(archive, join(root, 'nowhere')).signature;
    expect(elsewhere.kind).toBe('other-key');
    // The key stays on the machine: the archive does not carry it, the import keeps the target's.
    expect(readFileSync(archive).toString('latin1')).not.toContain('PRIVATE KEY');
    const r = importWorkspace(archive, home);
    expect(r.signature.kind).toBe('this-workspace');
    expect(existsSync(join(home, SIGNING_KEY_FILE))).toBe(true);

    const changed = join(root, `changed-${++n}.forge`);
    copyFileSync(archive, changed);
    const db = new Database(changed);
    db.exec("UPDATE memory_records SET title = 'rewritten' WHERE id = 'V-001'");
    db.close();
    // If this fails, anyone can edit a record inside a signed archive and it still imports as signed.
    expect(() => verifyArchive(changed)).toThrow(/rows do not match its manifest/);
    expect(() => importWorkspace(changed, occupiedTarget())).toThrow(/rows do not match its manifest/);

    const resigned = join(root, `resigned-${++n}.forge`);
    copyFileSync(archive, resigned);
    const db2 = new Database(resigned);
    db2.exec("UPDATE archive_meta SET value = '1' WHERE key = 'records'");
    db2.close();
    expect(() => verifyArchive(resigned)).toThrow(/signature does not match/);
  });

  it('reads an unsigned archive as unsigned', () => {
    const archive = exported(pristine);
    const db = new Database(archive);
    db.exec("DELETE FROM archive_meta WHERE key IN ('signature', 'public_key')");
    db.close();
    expect(verifyArchive(archive).signature).toEqual({ kind: 'unsigned' });
  });
});
