// Reading an archive without trusting it (manifest, format, paths, checksums, signature) and the digests export signs, apart from export/import in workspace-archive.ts.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { posix } from 'node:path';
import { AppError, InvalidInputError } from '../common/errors';
import { type Db, knownTables, migrations, openUntrusted, readTables, schemaAt } from '../store';
import { fingerprint, readSigningKey, verifyManifest } from './archive-signing';

/** The archive format export writes. */
export const ARCHIVE_FORMAT = 2;
/** Format 1 archives (no digest, no signature) are still read; they import as unsigned. */
const READABLE_FORMATS = [1, 2];

/** What travels besides the database, relative to the data folder. Anything else stays behind. */
export const CARRIED_DIRS = ['skills', 'contracts', 'research'];
export const CARRIED_FILES = ['settings.json'];
const MAX_FILE_BYTES = 50 * 1024 * 1024;

export interface ArchiveSummary {
  format: number;
  schemaVersion: number;
  createdAt: string;
  files: number;
  records: number;
}

/** Who vouches for an archive's contents. Only a signature shows it was not changed on purpose. */
export type ArchiveSignature = { kind: 'this-workspace' | 'other-key'; fingerprint: string } | { kind: 'unsigned' };

export interface VerifiedArchive extends ArchiveSummary {
  signature: ArchiveSignature;
}

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** One digest over every carried file's path and checksum, in path order. */
export const filesDigest = (files: { path: string; sha256: string }[]) =>
  sha256(
    [...files]
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
      .map((f) => `${f.path}\0${f.sha256}\n`)
      .join(''),
  );

/** What the signature covers: every manifest entry but the signature itself, in key order. */
export const signedPayload = (meta: Record<string, string>) =>
  JSON.stringify(
    Object.keys(meta)
      .filter((k) => k !== 'signature')
      .sort()
      .map((k) => [k, meta[k]]),
  );

/** Digest of an archive's rows as Forge's schema at `version` knows them (see readTables). */
export function dataDigest(db: Db, version: number): string {
  const schema = schemaAt(version);
  try {
    return readTables(db, knownTables(schema));
  } finally {
    schema.close();
  }
}

/** Every reason an archive is refused ends the same way: nothing was changed. */
export function refuse(archivePath: string, why: string): never {
  throw new InvalidInputError(`${archivePath} cannot be imported: ${why} Nothing was changed.`);
}

/** A path an archive may carry: relative, inside one of the carried folders or files, no climbing out. */
function carriedPath(path: string): boolean {
  if (!path || path.includes('\0') || path.includes('\\') || posix.isAbsolute(path)) return false;
  const normal = posix.normalize(path);
  if (normal !== path || normal.split('/').includes('..')) return false;
  return CARRIED_FILES.includes(normal) || CARRIED_DIRS.some((d) => normal.startsWith(`${d}/`));
}

export interface Inspected extends VerifiedArchive {
  /** The digest of the rows the manifest promises (null in a format 1 archive). */
  expectedData: string | null;
  contents: { path: string; content: Buffer }[];
}

/** Everything but the rows: database readable, manifest, schema version, files, signature. */
export function inspect(db: Db, archivePath: string, dataDir: string | null): Inspected {
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

export function openArchive(archivePath: string): Db {
  if (!existsSync(archivePath)) throw new AppError('not_found', `There is no archive at ${archivePath}.`);
  try {
    return openUntrusted(archivePath);
  } catch (e) {
    refuse(archivePath, `it is not a Forge archive (${(e as Error).message}).`);
  }
}
