import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from './open';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'forge-legacy-vec-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const tables = (db: Database.Database) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[]).filter((n) => n.startsWith('search_vec'));

describe('a workspace opens without sqlite-vec, which the installers no longer carry', () => {
  it('loads no vector extension at open', () => {
    // If this fails, the app needs sqlite-vec at run time again and an installer without it cannot open a workspace.
    const db = openDatabase(join(dir, 'forge.db'));
    expect(() => db.prepare('SELECT vec_version()').get()).toThrow(/no such function/);
    db.close();
  });

  it('removes the legacy vec0 table of an old workspace, and its shadow tables, keeping everything else', () => {
    const path = join(dir, 'forge.db');
    openDatabase(path).close();
    // What a pre-014 Forge left behind: a vec0 table with rows (sqlite-vec is a dev dependency, for this and the benchmarks).
    const old = new Database(path);
    sqliteVec.load(old);
    old.exec('CREATE VIRTUAL TABLE search_vec USING vec0(embedding bit[64])');
    old.prepare('INSERT INTO search_vec(rowid, embedding) VALUES (1, vec_bit(?))').run(Buffer.alloc(8, 0xff));
    old.exec("CREATE TABLE keep_me (x TEXT); INSERT INTO keep_me VALUES ('the PM''s data')");
    expect(tables(old).length).toBeGreaterThan(2);
    old.close();

    // If this fails, an upgraded PM's workspace keeps a table no installer can read or drop ("no such module: vec0").
    const db = openDatabase(path);
    expect(tables(db)).toEqual([]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.prepare('SELECT x FROM keep_me').pluck().get()).toBe("the PM's data");
    db.close();
    // And it stays usable by a later open.
    openDatabase(path).close();
  });
});
