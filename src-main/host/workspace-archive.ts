import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, posix, relative, sep } from 'node:path';
import Database from 'better-sqlite3';
import { AppError, InvalidInputError } from '../common/errors';
import { createPrivateFile, makePrivate } from '../common/private-files';
import { readHostLock } from '../mcp/host-lock';
import { type Db, knownTables, migrations, openUntrusted, readTables, rebuildDatabase, schemaAt } from '../store';
import { historyProblems } from './archive-history';
import { fingerprint, readSigningKey, SIGNING_KEY_FILE, signingKey, signManifest, verifyManifest } from './archive-signing';

/**
 * A whole workspace as one file, and back. The archive is itself a SQLite database: a consistent
 * copy of `forge.db` (VACUUM INTO reads one snapshot) plus two tables of ours — the workspace's
 * files (skills with their versions, contracts, broker notes, settings) with a SHA-256 each, and a
 * manifest holding a digest of every row and file, signed with the workspace's Ed25519 key
 * (archive-signing.ts). Secrets never go in: the keychain file, the signing key, the MCP token and
 * the host lock stay behind. Import never runs anything from the archive's schema: it rebuilds the
 * database from its rows (store/import-copy.ts), checks the history was not stripped, assembles
 * the new workspace beside the old one and keeps the old one as a backup folder.
 */
export const ARCHIVE_FORMAT = 2;
/** Format 1 archives (no digest, no signature) are still read; they import as unsigned. */
const READABLE_FORMATS = [1, 2];

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

export interface ExportResult extends ArchiveSummary {
  /** Fingerprint of the key that signed it: say it aloud to whoever imports it elsewhere. */
  fingerprint: string;
}

/** Who vouches for an archive's contents. Only a signature shows it was not changed on purpose. */
export type ArchiveSignature = { kind: 'this-workspace' | 'other-key'; fingerprint: string } | { kind: 'unsigned' };

export interface VerifiedArchive extends ArchiveSummary {
  signature: ArchiveSignature;
}

function sha256(data: Buffer | string): string {
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

/** One digest over every carried file's path and checksum, in path order. */
const filesDigest = (files: { path: string; sha256: string }[]) =>
  sha256(
    [...files]
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
      .map((f) => `${f.path}\0${f.sha256}\n`)
      .join(''),
  );

/** What the signature covers: every manifest entry but the signature itself, in key order. */
const signedPayload = (meta: Record<string, string>) =>
  JSON.stringify(
    Object.keys(meta)
      .filter((k) => k !== 'signature')
      .sort()
      .map((k) => [k, meta[k]]),
  );

/** Digest of an archive's rows as Forge's schema at `version` knows them (see readTables). */
function dataDigest(db: Db, version: number): string {
  const schema = schemaAt(version);
  try {
    return readTables(db, knownTables(schema));
  } finally {
    schema.close();
  }
}

/** Writes the workspace in `dataDir` to `target` (which must not exist). Safe while the app runs. */
export function exportWorkspace(dataDir: string, target: string, now: () => Date = () => new Date()): ExportResult {
  const dbFile = join(dataDir, 'forge.db');
  if (!existsSync(dbFile)) throw new AppError('not_found', `There is no Forge workspace in ${dataDir} (no forge.db).`);
  if (existsSync(target)) throw new AppError('conflict', `${target} already exists; choose a new file name so nothing is overwritten.`);
  const key = signingKey(dataDir);
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
    const data = dataDigest(archive, schemaVersion);
    archive.exec(`
      CREATE TABLE archive_files (path TEXT PRIMARY KEY, content BLOB NOT NULL, sha256 TEXT NOT NULL) STRICT;
      CREATE TABLE archive_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
    `);
    const insert = archive.prepare('INSERT INTO archive_files (path, content, sha256) VALUES (?, ?, ?)');
    const paths = [...CARRIED_DIRS.flatMap((d) => filesUnder(dataDir, d)), ...CARRIED_FILES.filter((f) => existsSync(join(dataDir, f)))];
    const sums: { path: string; sha256: string }[] = [];
    archive.transaction(() => {
      for (const path of paths) {
        const content = readFileSync(join(dataDir, path));
        sums.push({ path, sha256: sha256(content) });
        insert.run(path, content, sums[sums.length - 1]!.sha256);
      }
    })();
    const createdAt = now().toISOString();
    const meta: Record<string, string> = {
      format: String(ARCHIVE_FORMAT),
      schema_version: String(schemaVersion),
      created_at: createdAt,
      files: String(paths.length),
      records: String(records),
      data_sha256: data,
      files_sha256: filesDigest(sums),
      public_key: key.publicKey,
    };
    meta.signature = signManifest(signedPayload(meta), key);
    const setMeta = archive.prepare('INSERT INTO archive_meta (key, value) VALUES (?, ?)');
    for (const [k, v] of Object.entries(meta)) setMeta.run(k, v);
    archive.pragma('journal_mode = DELETE');
    archive.close();
    makePrivate(partial);
    // Only a complete archive gets the name the PM asked for.
    renameSync(partial, target);
    return { format: ARCHIVE_FORMAT, schemaVersion, createdAt, files: paths.length, records, fingerprint: key.fingerprint };
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

interface Inspected extends VerifiedArchive {
  /** The digest of the rows the manifest promises (null in a format 1 archive). */
  expectedData: string | null;
  contents: { path: string; content: Buffer }[];
}

/** Everything but the rows: database readable, manifest, schema version, files, signature. */
function inspect(db: Db, archivePath: string, dataDir: string | null): Inspected {
  let check: unknown;
  try {
    check = db.pragma('integrity_check', { simple: true });
  } catch (e) {
    refuse(archivePath, `it is not a readable database (${(e as Error).message}).`);
  }
  if (check !== 'ok') refuse(archivePath, `the database inside is damaged (${String(check).slice(0, 200)}).`);
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name IN ('archive_meta', 'archive_files')").all().length === 2;
  if (!hasMeta) refuse(archivePath, 'it has no Forge archive manifest (was it made with forge export?).');
  let meta: Record<string, string>;
  let files: { path: string; content: Buffer; sha256: string }[];
  try {
    meta = Object.fromEntries(
      (db.prepare('SELECT key, value FROM archive_meta').all() as { key: string; value: string }[]).map((r) => [String(r.key), String(r.value)]),
    );
    files = db.prepare('SELECT path, content, sha256 FROM archive_files').all() as typeof files;
  } catch (e) {
    refuse(archivePath, `its manifest cannot be read (${(e as Error).message}).`);
  }
  const format = Number(meta.format);
  if (!READABLE_FORMATS.includes(format))
    refuse(archivePath, `its format (${meta.format}) is not one this version of Forge reads (${READABLE_FORMATS.join(' or ')}).`);
  const schemaVersion = db.pragma('user_version', { simple: true }) as number;
  const latest = migrations.length;
  if (schemaVersion > latest)
    refuse(archivePath, `it was made by a newer Forge (database schema ${schemaVersion}; this version knows up to ${latest}). Update Forge first.`);
  if (schemaVersion < 1) refuse(archivePath, 'its database is not a Forge workspace (schema version 0).');
  if (String(schemaVersion) !== meta.schema_version) refuse(archivePath, 'its manifest does not match the database inside.');
  if (String(files.length) !== meta.files) refuse(archivePath, `its manifest lists ${meta.files} files but it holds ${files.length}.`);
  for (const f of files) {
    if (typeof f.path !== 'string' || !Buffer.isBuffer(f.content)) refuse(archivePath, 'its file list is malformed.');
    if (!carriedPath(f.path)) refuse(archivePath, `it carries a file outside the workspace's folders (${f.path.slice(0, 120)}).`);
    if (f.content.length > MAX_FILE_BYTES) refuse(archivePath, `${f.path} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB.`);
    if (sha256(f.content) !== f.sha256) refuse(archivePath, `${f.path} does not match its checksum (the archive was damaged or changed).`);
    if (f.path === 'settings.json') {
      try {
        JSON.parse(f.content.toString('utf8'));
      } catch {
        refuse(archivePath, 'its settings.json is not valid JSON.');
      }
    }
  }
  if (meta.files_sha256 !== undefined && meta.files_sha256 !== filesDigest(files)) refuse(archivePath, 'its files do not match its manifest.');
  let signature: ArchiveSignature = { kind: 'unsigned' };
  if (meta.signature !== undefined || meta.public_key !== undefined) {
    if (!meta.signature || !meta.public_key || !verifyManifest(signedPayload(meta), meta.signature, meta.public_key)) {
      refuse(archivePath, 'its signature does not match its manifest: it was changed after it was signed.');
    }
    const mine = dataDir ? readSigningKey(dataDir) : null;
    signature = { kind: mine?.publicKey === meta.public_key ? 'this-workspace' : 'other-key', fingerprint: fingerprint(meta.public_key) };
  }
  const records = (() => {
    try {
      return (db.prepare('SELECT count(*) AS n FROM memory_records').get() as { n: number }).n;
    } catch {
      return refuse(archivePath, 'it has no memory_records table, so it is not a Forge workspace.');
    }
  })();
  return {
    format,
    schemaVersion,
    createdAt: meta.created_at ?? '',
    files: files.length,
    contents: files,
    records,
    signature,
    expectedData: meta.data_sha256 ?? null,
  };
}

function openArchive(archivePath: string): Db {
  if (!existsSync(archivePath)) throw new AppError('not_found', `There is no archive at ${archivePath}.`);
  try {
    return openUntrusted(archivePath);
  } catch (e) {
    refuse(archivePath, `it is not a Forge archive (${(e as Error).message}).`);
  }
}

/**
 * Checks an archive without changing anything: a readable SQLite file that passes integrity_check,
 * our manifest and format, a schema this version of Forge can open, every file's checksum, every
 * path inside the workspace, settings that parse, the signature (against `dataDir`'s key when
 * given) and the digest of every row. Throws `invalid_input` naming the first problem.
 */
export function verifyArchive(archivePath: string, dataDir: string | null = null): VerifiedArchive {
  const db = openArchive(archivePath);
  try {
    const { contents: _files, expectedData, ...summary } = inspect(db, archivePath, dataDir);
    if (expectedData !== null) {
      let actual: string;
      try {
        actual = dataDigest(db, summary.schemaVersion);
      } catch (e) {
        refuse(archivePath, (e as Error).message);
      }
      if (actual !== expectedData) refuse(archivePath, 'its database rows do not match its manifest (the archive was damaged or changed).');
    }
    return summary;
  } finally {
    db.close();
  }
}

export interface ImportOptions {
  now?: () => Date;
  /** Import even though the history looks stripped or its rules rewritten; the reasons go on record. */
  acceptUnverifiedHistory?: boolean;
  /** Called once the new workspace is complete, before anything is renamed (tests stop a process here). */
  beforeReplace?: () => void;
}

export interface ImportResult extends VerifiedArchive {
  /** Where the workspace that was there before now lives (null when the folder was empty). */
  backup: string | null;
  /** Why the history cannot be vouched for (empty when it can); only non-empty with acceptUnverifiedHistory. */
  unverifiedHistory: string[];
  /** Views, tables and triggers in the archive that Forge does not make; none was copied. */
  ignored: string[];
}

/**
 * Replaces the workspace in `dataDir` with the archive's. The manifest is checked first; the new
 * database is rebuilt from the archive's rows by Forge's own migrations, and its history checked,
 * in a sibling folder; then the old folder is renamed to `<dataDir>.before-import-<time>` and the
 * new one takes its place. Refused while an app serves the workspace.
 */
export function importWorkspace(archivePath: string, dataDir: string, options: ImportOptions = {}): ImportResult {
  const now = options.now ?? (() => new Date());
  const source = openArchive(archivePath);
  let staging: string | null = null;
  let db: Db | null = null;
  try {
    const { contents: files, expectedData, ...summary } = inspect(source, archivePath, dataDir);
    if (readHostLock(dataDir)) {
      throw new AppError('conflict', `Forge is running on ${dataDir}; quit it (or stop forge serve) before importing over that workspace.`);
    }
    const stamp = now().toISOString().replace(/[:.]/g, '-');
    staging = `${dataDir}.importing-${stamp}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true, mode: 0o700 });
    let rebuilt: ReturnType<typeof rebuildDatabase>;
    try {
      rebuilt = rebuildDatabase(source, summary.schemaVersion, join(staging, 'forge.db'));
    } catch (e) {
      if (e instanceof InvalidInputError) refuse(archivePath, e.message);
      throw e;
    }
    db = rebuilt.db;
    if (expectedData !== null && rebuilt.digest !== expectedData)
      refuse(archivePath, 'its database rows do not match its manifest (the archive was damaged or changed).');
    const problems = historyProblems(db, rebuilt.differences);
    if (problems.length && !options.acceptUnverifiedHistory) {
      refuse(
        archivePath,
        `its history cannot be vouched for: ${problems.join('; ')}. If you know why, import it with --accept-unverified-history; the import and these reasons are then recorded in the new workspace's audit log.`,
      );
    }
    const ignored = [...rebuilt.differences.ignored, ...rebuilt.differences.foreignTriggers.map((t) => `trigger ${t}`)];
    recordImport(db, now(), archivePath, summary.signature, rebuilt.digest, problems, ignored);
    db.close();
    db = null;
    for (const f of files) {
      const target = join(staging, ...f.path.split('/'));
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      writeFileSync(target, f.content, { mode: 0o600 });
    }
    // The signing key is the PM's, not the workspace's: it stays on this machine across imports.
    if (existsSync(join(dataDir, SIGNING_KEY_FILE))) copyFileSync(join(dataDir, SIGNING_KEY_FILE), join(staging, SIGNING_KEY_FILE));
    options.beforeReplace?.();
    let backup: string | null = null;
    if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
      backup = `${dataDir}.before-import-${stamp}`;
      renameSync(dataDir, backup);
    } else {
      rmSync(dataDir, { recursive: true, force: true });
    }
    try {
      renameSync(staging, dataDir);
    } catch (e) {
      if (backup) renameSync(backup, dataDir);
      throw e;
    }
    staging = null;
    return { ...summary, backup, unverifiedHistory: problems, ignored };
  } finally {
    db?.close();
    source.close();
    if (staging) rmSync(staging, { recursive: true, force: true });
  }
}

/** The import itself goes on record: an audit entry (its hash is the rows' digest) and the details. */
function recordImport(db: Db, at: Date, archivePath: string, signature: ArchiveSignature, digest: string, problems: string[], ignored: string[]): void {
  const when = at.toISOString();
  db.transaction(() => {
    db.prepare('INSERT INTO audit_log (at, actor, operation, path, session_id, task_id, content_hash) VALUES (?, ?, ?, ?, NULL, NULL, ?)').run(
      when,
      'pm',
      problems.length ? 'import (unverified history)' : 'import',
      `/workspace/${basename(archivePath)}`,
      digest,
    );
    db.prepare('INSERT INTO workspace_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
      'last_import',
      JSON.stringify({ at: when, archive: basename(archivePath), signature, unverifiedHistory: problems, ignored }),
    );
  })();
}

/** What an import proved and did not, in the PM's words (the CLI prints these lines). */
export function describeImport(r: ImportResult): string[] {
  const lines: string[] = [];
  if (r.signature.kind === 'this-workspace') {
    lines.push(`Signed with this workspace's key (${r.signature.fingerprint}): made here, or by someone who can read this data folder, and unchanged since.`);
  } else if (r.signature.kind === 'other-key') {
    lines.push(
      `Signed by another key (${r.signature.fingerprint}), unchanged since it was signed. If you exported it yourself on another machine, forge export printed that fingerprint there: compare them.`,
    );
  } else {
    lines.push('Not signed (made by an older Forge, or its signature was removed): the checksums show it was not damaged, not that nobody changed it.');
  }
  if (r.unverifiedHistory.length) lines.push(`Imported with unverified history, as asked (recorded in the audit log): ${r.unverifiedHistory.join('; ')}.`);
  if (r.ignored.length) lines.push(`Left out (not part of Forge's schema): ${r.ignored.join(', ')}.`);
  return lines;
}
