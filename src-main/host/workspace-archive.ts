import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import Database from 'better-sqlite3';
import { AppError, InvalidInputError } from '../common/errors';
import { createPrivateFile, makePrivate } from '../common/private-files';
import { readHostLock } from '../mcp/host-lock';
import { type Db, rebuildDatabase } from '../store';
import { historyProblems } from './archive-history';
import {
  ARCHIVE_FORMAT,
  type ArchiveSignature,
  type ArchiveSummary,
  CARRIED_DIRS,
  CARRIED_FILES,
  dataDigest,
  filesDigest,
  inspect,
  openArchive,
  refuse,
  sha256,
  signedPayload,
  type VerifiedArchive,
} from './archive-inspect';
import { SIGNING_KEY_FILE, signingKey, signManifest } from './archive-signing';

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

export interface ExportResult extends ArchiveSummary {
  /** Fingerprint of the key that signed it: say it aloud to whoever imports it elsewhere. */
  fingerprint: string;
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
