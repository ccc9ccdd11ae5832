import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { AppError } from '../common/errors';
import { createPrivateFile, makePrivate } from '../common/private-files';
import { migrations, type Migration } from './migrations';
import { inReadOnlyFolder, readOnlyFolderError } from './read-only-folder';

export type Db = Database.Database;

/** Which engine answers a store handle: SQLite (a PM's own file) or a desk's PostgreSQL (store/postgres/postgres-db.ts). */
export function engineOf(db: Db): 'sqlite' | 'postgres' {
  return (db as { engine?: string }).engine === 'postgres' ? 'postgres' : 'sqlite';
}

export interface OpenDatabaseOptions {
  /** Path to a better_sqlite3.node built for another ABI (the Electron shell passes its rebuild). */
  nativeBinding?: string;
  /** No effect (kept for callers): sqlite-vec is never loaded at run time since the legacy table is dropped without it. */
  withoutVectors?: boolean;
  /** Override the migration list (tests of the migration runner). */
  migrations?: readonly Migration[];
}

/**
 * Opens (or creates) a workspace database: pragmas, legacy clean-up and migrations in one place.
 *
 * synchronous=NORMAL: in WAL mode this never corrupts the database and never loses a commit when
 * the app crashes or is killed (the WAL is in the OS cache); only a power cut or OS crash can roll
 * back the last few commits. FULL would fsync on every commit and cap memory writes at the disk's
 * fsync rate (a few hundred per second on laptops), which the analyst's bursts of writes cannot afford.
 */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): Db {
  const onDisk = path !== ':memory:' && path !== '' && !path.startsWith('file:');
  if (onDisk && !existsSync(path) && inReadOnlyFolder(path)) throw readOnlyFolderError(path);
  try {
    return openAt(path, options, onDisk);
  } catch (e) {
    // A raw "unable to open database file" would tell the PM nothing.
    if (onDisk && !(e instanceof AppError) && inReadOnlyFolder(path)) throw readOnlyFolderError(path, e);
    throw e;
  }
}

function openAt(path: string, options: OpenDatabaseOptions, onDisk: boolean): Db {
  // SQLite would create the file 0644 (less the umask): create it owner-only first, and tighten
  // a database an older version left readable. SQLite gives the -wal and -shm files it creates
  // the database file's mode.
  if (onDisk) createPrivateFile(path);
  const db = new Database(path, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    db.pragma('busy_timeout = 10000');
    if (path !== ':memory:') db.pragma('journal_mode = WAL');
    if (onDisk) {
      // Ones left behind by an older version keep their old mode until tightened here.
      makePrivate(`${path}-wal`);
      makePrivate(`${path}-shm`);
    }
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // Checkpoint (the only fsync under NORMAL) every ~16 MB of log rather than SQLite's 4 MB:
    // memory writes come in bursts, and each checkpoint's fsync is the slowest step of a write.
    db.pragma('wal_autocheckpoint = 4000');
    db.pragma('journal_size_limit = 67108864');
    db.pragma('cache_size = -32000');
    // Statement journals in memory: every write to memory_records fires triggers, so SQLite keeps a
    // statement journal of the pages it touches; past 64 KB (a large workspace's deeper indexes and the
    // change log's trimming) that journal spills to a temporary file — a write and read per page, which
    // made each note of an import ~3x slower at 100,000 notes. Temporary tables and sorts stay in
    // memory too; Forge's are small (no plain VACUUM; VACUUM INTO writes straight to its file).
    db.pragma('temp_store = MEMORY');
    dropLegacyVecTable(db);
    const list = options.migrations ?? migrations;
    if (onDisk) backupBeforeUpgrade(db, path, list);
    runMigrations(db, list);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/** The sqlite-vec `vec0` table that held candidate codes before migration 014 (src-main/search/vectors.ts). */
const LEGACY_VEC_TABLE = 'search_vec';

/**
 * Removes the legacy `vec0` table without sqlite-vec, so the app need not ship the extension: a
 * DROP would need the module ("no such module: vec0"), so its schema row is deleted (writable_schema,
 * SQLite's documented way to remove a virtual table whose module is unavailable) and its shadow
 * tables, plain tables, are dropped — all in one transaction. Nothing happens when it is absent.
 */
export function dropLegacyVecTable(db: Db): boolean {
  const legacy = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ? AND sql LIKE '%USING vec0%'").get(LEGACY_VEC_TABLE);
  if (!legacy) return false;
  const prefix = `${LEGACY_VEC_TABLE}_`;
  const shadows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, ?) = ?").pluck().all(prefix.length, prefix) as string[];
  // better-sqlite3 runs in SQLite's defensive mode, which refuses writable_schema; lifted for this step only.
  db.unsafeMode(true);
  try {
    db.transaction(() => {
      db.pragma('writable_schema = ON');
      db.prepare("DELETE FROM sqlite_master WHERE type = 'table' AND name = ?").run(LEGACY_VEC_TABLE);
      db.pragma('writable_schema = RESET');
      for (const name of shadows) db.exec(`DROP TABLE "${name}"`);
    }).immediate();
  } finally {
    db.unsafeMode(false);
  }
  return true;
}

/** How many pre-upgrade copies of the database a workspace keeps in `backups/`. */
export const UPGRADE_BACKUPS_KEPT = 3;

/**
 * Before a new version migrates an existing workspace, a consistent copy of the database goes to
 * `<workspace>/backups/` (VACUUM INTO reads one snapshot, so a concurrent writer cannot tear it).
 * A downgrade restores from it; the newest three are kept. A fresh database has nothing to keep.
 */
export function backupBeforeUpgrade(db: Db, path: string, list: readonly Migration[]): string | undefined {
  const current = schemaVersion(db);
  const latest = list.length ? list[list.length - 1].version : 0;
  if (current === 0 || current >= latest) return undefined;
  const dir = join(dirname(path), 'backups');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  // Timestamp first so names sort by age; VACUUM INTO accepts the empty owner-only file.
  const target = join(dir, `forge-${stamp}-schema${current}.db`);
  createPrivateFile(target);
  db.prepare('VACUUM INTO ?').run(target);
  makePrivate(target);
  const kept = readdirSync(dir)
    .filter((f) => /^forge-.*-schema\d+\.db$/.test(f))
    .sort()
    .reverse();
  for (const old of kept.slice(UPGRADE_BACKUPS_KEPT)) rmSync(join(dir, old), { force: true });
  return target;
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Applies every migration above the database's user_version, each in its own IMMEDIATE
 * transaction (so two processes starting together never both migrate). A database written by a
 * newer Forge is refused rather than silently misread.
 */
export function runMigrations(db: Db, list: readonly Migration[]): void {
  const latest = list.length ? list[list.length - 1].version : 0;
  list.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`Migration list is out of order at ${m.name} (expected version ${i + 1}).`);
  });
  const current = schemaVersion(db);
  if (current > latest) {
    throw new AppError(
      'conflict',
      `This workspace was last opened by a newer version of Forge (database schema ${current}; this version knows up to ${latest}). Update Forge to open it — nothing was changed.`,
    );
  }
  for (const m of list) {
    const step = db.transaction(() => {
      // Re-read inside the lock: another process may have migrated meanwhile.
      if (schemaVersion(db) >= m.version) return;
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    });
    if (schemaVersion(db) < m.version) step.immediate();
  }
}
