import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import Database from 'better-sqlite3';
import { AppError, InvalidInputError } from '../common/errors';
import { createPrivateFile, makePrivate } from '../common/private-files';
import { readHostLock } from '../mcp/host-lock';
import { migrations } from '../store/migrations';

/**
 * A whole workspace as one file, and back. The archive is itself a SQLite database: a consistent
 * copy of `forge.db` (VACUUM INTO reads one snapshot: memory with every archived version, the audit
 * log, the book, sessions, tasks, builds) plus two tables of ours — the workspace's files (skills
 * with their versions, contracts, broker notes, settings) with a SHA-256 each, and a manifest.
 * Secrets never go in: the keychain file, the MCP token and the host lock are left out, and
 * settings.json holds no keys. Import checks everything before it touches anything, builds the new
 * workspace beside the old one, and keeps the old one as a backup folder.
 */
export const ARCHIVE_FORMAT = 1;

/** What travels besides the database, relative to the data folder. Anything else stays behind. */
const CARRIED_DIRS = ['skills', 'contracts', 'research'];
const CARRIED_FILES = ['settings.json'];
const MAX_FILE_BYTES = 50 * 1024 * 1024;

export interface ArchiveSummary {
  format: number;
  schemaVersion: number;
  createdAt: string;
  files: number;
  records: number;
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function filesUnder(root: string, dir: string): string[] {
  const full = join(root, dir);
  if (!existsSync(full)) return [];
  const out: string[] = [];
  for (const name of readdirSync(full)) {
    const path = join(full, name);
    const st = statSync(path);
    if (st.isDirectory()) out.push(...filesUnder(root, join(dir, name)));
    else if (st.isFile()) out.push(relative(root, path).split(sep).join('/'));
  }
  return out;
}

/** Writes the workspace in `dataDir` to `target` (which must not exist). Safe while the app runs. */
export function exportWorkspace(dataDir: string, target: string, now: () => Date = () => new Date()): ArchiveSummary {
  const dbFile = join(dataDir, 'forge.db');
  if (!existsSync(dbFile)) throw new AppError('not_found', `There is no Forge workspace in ${dataDir} (no forge.db).`);
  if (existsSync(target)) throw new AppError('conflict', `${target} already exists; choose a new file name so nothing is overwritten.`);
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  const source = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    createPrivateFile(partial);
    source.prepare('VACUUM INTO ?').run(partial);
  } finally {
    source.close();
  }
  const archive = new Database(partial);
  try {
    const schemaVersion = archive.pragma('user_version', { simple: true }) as number;
    const records = (archive.prepare('SELECT count(*) AS n FROM memory_records').get() as { n: number }).n;
    archive.exec(`
      CREATE TABLE archive_files (path TEXT PRIMARY KEY, content BLOB NOT NULL, sha256 TEXT NOT NULL) STRICT;
      CREATE TABLE archive_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
    `);
    const insert = archive.prepare('INSERT INTO archive_files (path, content, sha256) VALUES (?, ?, ?)');
    const paths = [...CARRIED_DIRS.flatMap((d) => filesUnder(dataDir, d)), ...CARRIED_FILES.filter((f) => existsSync(join(dataDir, f)))];
    archive.transaction(() => {
      for (const path of paths) {
        const content = readFileSync(join(dataDir, path));
        insert.run(path, content, sha256(content));
      }
    })();
    const createdAt = now().toISOString();
    const meta = {
      format: String(ARCHIVE_FORMAT),
      schema_version: String(schemaVersion),
      created_at: createdAt,
      files: String(paths.length),
      records: String(records),
    };
    const setMeta = archive.prepare('INSERT INTO archive_meta (key, value) VALUES (?, ?)');
    for (const [k, v] of Object.entries(meta)) setMeta.run(k, v);
    archive.pragma('journal_mode = DELETE');
    archive.close();
    makePrivate(partial);
    // Only a complete archive gets the name the PM asked for.
    renameSync(partial, target);
    return { format: ARCHIVE_FORMAT, schemaVersion, createdAt, files: paths.length, records };
  } catch (e) {
    if (archive.open) archive.close();
    rmSync(partial, { force: true });
    throw e;
  }
}

function refuse(archivePath: string, why: string): never {
  throw new InvalidInputError(`${archivePath} cannot be imported: ${why} Nothing was changed.`);
}

/** A path an archive may carry: relative, inside one of the carried folders or files, no climbing out. */
function carriedPath(path: string): boolean {
  if (!path || path.includes('\0') || path.includes('\\') || posix.isAbsolute(path)) return false;
  const normal = posix.normalize(path);
  if (normal !== path || normal.split('/').includes('..')) return false;
  return CARRIED_FILES.includes(normal) || CARRIED_DIRS.some((d) => normal.startsWith(`${d}/`));
}

/**
 * Checks an archive without changing anything: a readable SQLite file that passes integrity_check,
 * our manifest and format, a schema this version of Forge can open, every file's checksum, every
 * path inside the workspace, settings that parse. Returns the summary or throws `invalid_input`
 * naming the first problem.
 */
export function verifyArchive(archivePath: string): ArchiveSummary {
  if (!existsSync(archivePath)) throw new AppError('not_found', `There is no archive at ${archivePath}.`);
  let db: Database.Database;
  try {
    db = new Database(archivePath, { readonly: true, fileMustExist: true });
  } catch (e) {
    refuse(archivePath, `it is not a Forge archive (${(e as Error).message}).`);
  }
  try {
    let check: unknown;
    try {
      check = db.pragma('integrity_check', { simple: true });
    } catch (e) {
      refuse(archivePath, `it is not a readable database (${(e as Error).message}).`);
    }
    if (check !== 'ok') refuse(archivePath, `the database inside is damaged (${String(check).slice(0, 200)}).`);
    const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name IN ('archive_meta', 'archive_files')").all().length === 2;
    if (!hasMeta) refuse(archivePath, 'it has no Forge archive manifest (was it made with forge export?).');
    const meta = Object.fromEntries((db.prepare('SELECT key, value FROM archive_meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
    if (Number(meta.format) !== ARCHIVE_FORMAT) refuse(archivePath, `its format (${meta.format}) is not one this version of Forge reads (${ARCHIVE_FORMAT}).`);
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    const latest = migrations[migrations.length - 1]!.version;
    if (schemaVersion > latest)
      refuse(archivePath, `it was made by a newer Forge (database schema ${schemaVersion}; this version knows up to ${latest}). Update Forge first.`);
    if (String(schemaVersion) !== meta.schema_version) refuse(archivePath, 'its manifest does not match the database inside.');
    const files = db.prepare('SELECT path, content, sha256 FROM archive_files').all() as { path: string; content: Buffer; sha256: string }[];
    if (String(files.length) !== meta.files) refuse(archivePath, `its manifest lists ${meta.files} files but it holds ${files.length}.`);
    for (const f of files) {
      if (!carriedPath(f.path)) refuse(archivePath, `it carries a file outside the workspace's folders (${f.path.slice(0, 120)}).`);
      if (f.content.length > MAX_FILE_BYTES) refuse(archivePath, `${f.path} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB.`);
      if (sha256(f.content) !== f.sha256) refuse(archivePath, `${f.path} does not match its checksum (the archive was changed or damaged).`);
      if (f.path === 'settings.json') {
        try {
          JSON.parse(f.content.toString('utf8'));
        } catch {
          refuse(archivePath, 'its settings.json is not valid JSON.');
        }
      }
    }
    const records = (db.prepare('SELECT count(*) AS n FROM memory_records').get() as { n: number }).n;
    return { format: ARCHIVE_FORMAT, schemaVersion, createdAt: meta.created_at ?? '', files: files.length, records };
  } finally {
    db.close();
  }
}

export interface ImportResult extends ArchiveSummary {
  /** Where the workspace that was there before now lives (null when the folder was empty). */
  backup: string | null;
}

/**
 * Replaces the workspace in `dataDir` with the archive's. Everything is verified first; the new
 * workspace is assembled in a sibling folder, then the old folder is renamed to
 * `<dataDir>.before-import-<time>` and the new one takes its place — a crash at any point leaves
 * either the old workspace or the new one, never a mix. Refused while an app serves the workspace.
 */
export function importWorkspace(archivePath: string, dataDir: string, now: () => Date = () => new Date()): ImportResult {
  const summary = verifyArchive(archivePath);
  if (readHostLock(dataDir)) {
    throw new AppError('conflict', `Forge is running on ${dataDir}; quit it (or stop forge serve) before importing over that workspace.`);
  }
  const stamp = now().toISOString().replace(/[:.]/g, '-');
  const staging = `${dataDir}.importing-${stamp}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true, mode: 0o700 });
  try {
    const dbFile = join(staging, 'forge.db');
    const source = new Database(archivePath, { readonly: true, fileMustExist: true });
    let files: { path: string; content: Buffer }[];
    try {
      files = source.prepare('SELECT path, content FROM archive_files').all() as { path: string; content: Buffer }[];
      createPrivateFile(dbFile);
      source.prepare('VACUUM INTO ?').run(dbFile);
    } finally {
      source.close();
    }
    const db = new Database(dbFile);
    db.exec('DROP TABLE archive_files; DROP TABLE archive_meta; VACUUM;');
    db.close();
    for (const f of files) {
      const target = join(staging, ...f.path.split('/'));
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      writeFileSync(target, f.content, { mode: 0o600 });
    }
    let backup: string | null = null;
    if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
      backup = `${dataDir}.before-import-${stamp}`;
      renameSync(dataDir, backup);
    } else {
      rmSync(dataDir, { recursive: true, force: true });
    }
    renameSync(staging, dataDir);
    return { ...summary, backup };
  } catch (e) {
    rmSync(staging, { recursive: true, force: true });
    throw e;
  }
}
