import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../common/errors';
import { migrations } from './migrations';
import { openDatabase, schemaVersion } from './open';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'forge-store-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('opening a workspace database', () => {
  it('uses WAL, foreign keys, a busy timeout, NORMAL sync and in-memory statement journals, without sqlite-vec (not shipped)', () => {
    const db = openDatabase(join(dir, 'forge.db'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(10000);
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    // Statement journals in memory (2): on disk they made every note of a large import ~3x slower.
    expect(db.pragma('temp_store', { simple: true })).toBe(2);
    expect(() => db.prepare('SELECT vec_version() AS v').get()).toThrow(/no such function/);
    expect(schemaVersion(db)).toBe(migrations.length);
    db.close();
  });

  it('refuses a database from a newer Forge and leaves it untouched', () => {
    const path = join(dir, 'forge.db');
    const db = openDatabase(path);
    db.pragma(`user_version = ${migrations.length + 5}`);
    db.close();
    let err: unknown;
    try {
      openDatabase(path);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toMatch(/newer version of Forge.*Update Forge/);
    const again = openDatabase(path, {
      migrations: [...migrations, ...Array.from({ length: 5 }, (_, i) => ({ version: migrations.length + i + 1, name: `x${i}`, up() {} }))],
    });
    expect(schemaVersion(again)).toBe(migrations.length + 5);
    again.close();
  });

  it('runs only the migrations a database has not seen, once each', () => {
    const path = join(dir, 'forge.db');
    let runs = 0;
    const extra = { version: migrations.length + 1, name: 'extra', up: () => void runs++ };
    openDatabase(path).close();
    openDatabase(path, { migrations: [...migrations, extra] }).close();
    openDatabase(path, { migrations: [...migrations, extra] }).close();
    expect(runs).toBe(1);
  });

  it('rolls back a failing migration so the database stays at its previous version', () => {
    const path = join(dir, 'forge.db');
    openDatabase(path).close();
    const broken = {
      version: migrations.length + 1,
      name: 'broken',
      up: (db: { exec(s: string): void }) => {
        db.exec('CREATE TABLE t (x)');
        throw new Error('boom');
      },
    };
    expect(() => openDatabase(path, { migrations: [...migrations, broken] })).toThrow('boom');
    const db = openDatabase(path);
    expect(schemaVersion(db)).toBe(migrations.length);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 't'").get()).toBeUndefined();
    db.close();
  });
});
