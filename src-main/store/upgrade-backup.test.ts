import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrations } from './migrations';
import { openDatabase, schemaVersion, UPGRADE_BACKUPS_KEPT } from './open';

const dirs: string[] = [];
function workspace(): string {
  const d = mkdtempSync(join(tmpdir(), 'forge-upgrade-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A workspace as an older Forge left it: migrated only up to `version`, with one row of data. */
function olderWorkspace(dir: string, version: number): string {
  const file = join(dir, 'forge.db');
  openDatabase(file, { migrations: migrations.slice(0, version) }).close();
  const db = new Database(file);
  db.exec("CREATE TABLE IF NOT EXISTS pm_note (t TEXT); INSERT INTO pm_note VALUES ('kept')");
  db.close();
  return file;
}

describe('a copy of the database is kept before an upgrade migrates it', () => {
  it('copies the old schema to backups/ before migrating, owner-only, and the copy opens at the old version', () => {
    const dir = workspace();
    const file = olderWorkspace(dir, 5);
    const db = openDatabase(file);
    expect(schemaVersion(db)).toBe(migrations.length);
    db.close();
    const backups = readdirSync(join(dir, 'backups'));
    // If this fails, a PM who downgrades after an upgrade has nothing to go back to.
    expect(backups).toHaveLength(1);
    expect(backups[0]).toMatch(/^forge-.*-schema5\.db$/);
    const copy = new Database(join(dir, 'backups', backups[0]), { readonly: true });
    expect(copy.pragma('user_version', { simple: true })).toBe(5);
    expect(copy.prepare('SELECT t FROM pm_note').get()).toEqual({ t: 'kept' });
    copy.close();
    if (process.platform !== 'win32') expect(statSync(join(dir, 'backups', backups[0])).mode & 0o777).toBe(0o600);
  });

  it('makes no copy for a new workspace or one already current', () => {
    const dir = workspace();
    const file = join(dir, 'forge.db');
    openDatabase(file).close();
    openDatabase(file).close();
    expect(() => readdirSync(join(dir, 'backups'))).toThrow();
  });

  it(`keeps only the newest ${UPGRADE_BACKUPS_KEPT} copies`, async () => {
    const dir = workspace();
    for (let v = 1; v <= UPGRADE_BACKUPS_KEPT + 2; v++) {
      const file = join(dir, 'forge.db');
      rmSync(file, { force: true });
      rmSync(`${file}-wal`, { force: true });
      rmSync(`${file}-shm`, { force: true });
      olderWorkspace(dir, v);
      openDatabase(file).close();
      await new Promise((r) => setTimeout(r, 5)); // distinct timestamps
    }
    const left = readdirSync(join(dir, 'backups')).sort();
    expect(left).toHaveLength(UPGRADE_BACKUPS_KEPT);
    expect(left.at(-1)).toMatch(new RegExp(`schema${UPGRADE_BACKUPS_KEPT + 2}\\.db$`));
  });
});
