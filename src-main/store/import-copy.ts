import { createHash, type Hash } from 'node:crypto';
import Database from 'better-sqlite3';
import { InvalidInputError } from '../common/errors';
import { DeferredFullText } from './full-text';
import { migrations } from './migrations';
import { deferredFullText } from './migrations/019_deferred_full_text';
import { type Db, openDatabase, runMigrations } from './open';

/**
 * A workspace database rebuilt from another one's rows, never from its schema. An archive is a
 * SQLite file anyone can edit: its triggers, views and table definitions are code that SQLite would
 * run in our process and keep running in the new workspace. So the archive is opened read-only with
 * `trusted_schema = OFF`, only its plain tables are read, column by column under the names Forge's
 * own migrations give them, and the rows go into a database those migrations built. Forge's rules
 * (the audit log's append-only triggers, the full-text triggers) are therefore always Forge's.
 */

/** One table as Forge's schema at some version knows it, and where its rows are read from. */
export interface KnownTable {
  /** The table written in the new database. */
  name: string;
  /** The plain table read in the archive (an FTS5 table's rows live in its `_content` table). */
  source: string;
  sourceColumns: string[];
  targetColumns: string[];
  /** Source columns that give rows a stable order (the primary key, else the rowid), so digests compare. */
  order: string[];
}

const FTS5_SHADOWS = ['_data', '_idx', '_content', '_docsize', '_config'];
/**
 * Empty in every committed state (migration 019: a write transaction's full-text log and its switch).
 * Never copied: a switch row planted in an archive would keep the full-text triggers logging.
 */
const TRANSIENT = new Set(['memory_text_deferral', 'memory_text_pending']);

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The tables a database migrated by Forge holds, in name order. Read from our own database only. */
export function knownTables(db: Db): KnownTable[] {
  const rows = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as {
    name: string;
    sql: string;
  }[];
  const virtual = rows.filter((r) => /^CREATE VIRTUAL TABLE/i.test(r.sql)).map((r) => r.name);
  const shadows = new Set(virtual.flatMap((v) => FTS5_SHADOWS.map((s) => `${v}${s}`)));
  const names = new Set(rows.map((r) => r.name));
  const tables: KnownTable[] = [];
  for (const { name } of rows) {
    if (shadows.has(name) || TRANSIENT.has(name)) continue;
    const columns = (db.pragma(`table_xinfo(${quoteIdent(name)})`) as { name: string; hidden: number; pk: number }[]).filter((c) => c.hidden === 0);
    if (virtual.includes(name)) {
      // A contentless index (memory_fts) is rebuilt by Forge's own triggers as the rows go in; a
      // full-text table that stores its text (research_passages) is data, read from the plain table
      // FTS5 keeps it in. Its index blobs are never read: they are ours to build.
      if (!names.has(`${name}_content`)) continue;
      tables.push({
        name,
        source: `${name}_content`,
        sourceColumns: ['id', ...columns.map((_, i) => `c${i}`)],
        targetColumns: ['rowid', ...columns.map((c) => c.name)],
        order: ['id'],
      });
      continue;
    }
    const pk = columns
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    const cols = columns.map((c) => c.name);
    tables.push({ name, source: name, sourceColumns: cols, targetColumns: cols, order: pk.length ? pk : ['rowid'] });
  }
  return tables;
}

/** Forge's schema at `version`, built in memory: what an archive of that version must hold. */
export function schemaAt(version: number): Db {
  const db = new Database(':memory:');
  runMigrations(db, migrations.slice(0, version));
  return db;
}

/** Opens an archive's database so that nothing in it runs: read-only, its schema untrusted. */
export function openUntrusted(path: string): Db {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  // Functions with side effects may not be called from the archive's schema (views, defaults,
  // generated columns, index expressions); being read-only, none of its triggers can fire.
  db.pragma('trusted_schema = OFF');
  return db;
}

/** Feeds one value into a digest with its type, so 1, 1.0, '1' and x'31' never hash alike. */
function hashValue(h: Hash, v: unknown): void {
  if (v === null || v === undefined) h.update('N');
  else if (typeof v === 'bigint') h.update(`I${v};`);
  else if (typeof v === 'number') {
    const b = Buffer.alloc(8);
    b.writeDoubleBE(v);
    h.update('R').update(b);
  } else if (typeof v === 'string') {
    const b = Buffer.from(v, 'utf8');
    h.update(`T${b.length}:`).update(b);
  } else if (Buffer.isBuffer(v)) h.update(`B${v.length}:`).update(v);
  else throw new Error(`Unexpected SQLite value of type ${typeof v}.`);
}

function archiveTableProblem(source: Db, t: KnownTable): string | null {
  const obj = source.prepare('SELECT type, sql FROM sqlite_master WHERE lower(name) = lower(?)').get(t.source) as
    | { type: string; sql: string | null }
    | undefined;
  if (obj?.type !== 'table' || /^CREATE VIRTUAL/i.test(obj.sql ?? '')) return `it has no ${t.source} table`;
  const have = new Map(
    (source.pragma(`table_xinfo(${quoteIdent(t.source)})`) as { name: string; hidden: number }[]).map((c) => [c.name.toLowerCase(), c.hidden]),
  );
  const missing = t.sourceColumns.filter((c) => have.get(c.toLowerCase()) !== 0);
  return missing.length ? `its ${t.source} table lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}` : null;
}

/**
 * Reads every known table of `source` in a stable order and returns a SHA-256 over all of it
 * (table names, then each row's values with their types). `sink` receives each row as read.
 * The same digest is computed when an archive is made and when it is read back, so a signed
 * manifest vouches for exactly the rows an import copies. Throws `invalid_input` naming what is missing.
 */
export function readTables(source: Db, tables: KnownTable[], sink?: (table: KnownTable, row: unknown[]) => void): string {
  const h = createHash('sha256');
  for (const t of tables) {
    const problem = archiveTableProblem(source, t);
    if (problem) throw new InvalidInputError(`${problem} (Forge's schema has it), so it is not a complete Forge workspace.`);
    h.update(`table:${t.name}\n`);
    const sql = `SELECT ${t.sourceColumns.map(quoteIdent).join(', ')} FROM ${quoteIdent(t.source)} ORDER BY ${t.order.map((c) => (c === 'rowid' ? c : quoteIdent(c))).join(', ')}`;
    let count = 0;
    try {
      const stmt = source.prepare(sql).raw(true).safeIntegers(true);
      for (const row of stmt.iterate() as Iterable<unknown[]>) {
        for (const v of row) hashValue(h, v);
        h.update('\n');
        sink?.(t, row);
        count++;
      }
    } catch (e) {
      if (e instanceof InvalidInputError) throw e;
      throw new InvalidInputError(`its ${t.source} table cannot be read (${(e as Error).message}).`);
    }
    h.update(`rows:${count}\n`);
  }
  return h.digest('hex');
}

/** Triggers and views: what they are in the archive against what Forge's migrations make. */
export interface SchemaDifferences {
  /** Forge's triggers absent from the archive or changed in it: its rules were rewritten. */
  alteredTriggers: string[];
  /** Triggers Forge does not make. Never copied; they may have changed the data before export. */
  foreignTriggers: string[];
  /** Views and tables Forge does not make: ignored. */
  ignored: string[];
}

const normalSql = (sql: string | null) => (sql ?? '').replace(/\s+/g, ' ').trim();

export function schemaDifferences(archive: Db, ours: Db): SchemaDifferences {
  type Obj = { type: string; name: string; sql: string | null };
  const read = (db: Db) => db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").all() as Obj[];
  const theirs = read(archive).filter((o) => o.name !== 'archive_files' && o.name !== 'archive_meta');
  const mine = new Map(read(ours).map((o) => [o.name.toLowerCase(), o]));
  const theirNames = new Map(theirs.map((o) => [o.name.toLowerCase(), o]));
  const out: SchemaDifferences = { alteredTriggers: [], foreignTriggers: [], ignored: [] };
  for (const m of mine.values()) {
    if (m.type !== 'trigger') continue;
    const t = theirNames.get(m.name.toLowerCase());
    if (t?.type !== 'trigger' || normalSql(t.sql) !== normalSql(m.sql)) out.alteredTriggers.push(m.name);
  }
  for (const t of theirs) {
    const m = mine.get(t.name.toLowerCase());
    if (t.type === 'trigger' && !m) out.foreignTriggers.push(t.name);
    else if ((t.type === 'view' || t.type === 'table') && !m) out.ignored.push(`${t.type} ${t.name}`);
  }
  return out;
}

/**
 * AUTOINCREMENT numbers are never reused, even after the newest rows are gone: carry the archive's
 * high-water marks (never lowering ours, which the copied rows already raised).
 */
function keepSequences(source: Db, db: Db, tables: KnownTable[]): void {
  const known = new Set(tables.map((t) => t.name));
  const autoincrement = new Set(
    (db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all() as { name: string; sql: string | null }[])
      .filter((r) => known.has(r.name) && /AUTOINCREMENT/i.test(r.sql ?? ''))
      .map((r) => r.name),
  );
  const hasSequence = (d: Db) => d.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'").get() !== undefined;
  if (!autoincrement.size || !hasSequence(source) || !hasSequence(db)) return;
  const ours = new Set((db.prepare('SELECT name FROM sqlite_sequence').all() as { name: string }[]).map((r) => r.name));
  let rows: { name: unknown; seq: unknown }[];
  try {
    rows = source.prepare('SELECT name, seq FROM sqlite_sequence').all() as typeof rows;
  } catch {
    return;
  }
  const raise = db.prepare('UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?');
  const add = db.prepare('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)');
  for (const r of rows) {
    if (typeof r.name !== 'string' || !autoincrement.has(r.name) || !Number.isSafeInteger(r.seq)) continue;
    if (ours.has(r.name)) raise.run(r.seq, r.name);
    else add.run(r.name, r.seq);
  }
}

export interface RebuiltDatabase {
  /** The new database, open, at Forge's latest schema. The caller closes it. */
  db: Db;
  /** readTables' digest of the archive's rows. */
  digest: string;
  differences: SchemaDifferences;
}

/**
 * Builds `target` (a new file) from `source`'s rows: Forge's migrations up to the archive's
 * version, its rows copied in, then the remaining migrations, written exactly as they upgrade a
 * PM's own workspace. `source` must come from openUntrusted and be at `version` (1..latest).
 */
export function rebuildDatabase(source: Db, version: number, target: string): RebuiltDatabase {
  const latest = migrations.length;
  if (!Number.isInteger(version) || version < 1 || version > latest)
    throw new InvalidInputError(`its database schema (${version}) is not one this Forge knows (1 to ${latest}).`);
  const db = openDatabase(target, { migrations: migrations.slice(0, version), withoutVectors: true });
  try {
    const differences = schemaDifferences(source, db);
    const tables = knownTables(db);
    const inserts = new Map(
      tables.map((t) => [
        t.name,
        db.prepare(
          `INSERT INTO ${quoteIdent(t.name)} (${t.targetColumns.map((c) => (c === 'rowid' ? c : quoteIdent(c))).join(', ')}) VALUES (${t.targetColumns.map(() => '?').join(', ')})`,
        ),
      ]),
    );
    // Rows arrive table by table in name order, not parent-first: foreign keys are checked once,
    // after the copy. Forge's append-only triggers refuse updates and deletes, never inserts.
    db.pragma('foreign_keys = OFF');
    let digest = '';
    // From schema 19 on, memory's full text is written once at the end of the copy (one FTS5 segment)
    // rather than one segment per record; an older archive's rows go in under the immediate triggers.
    const fullText = version >= deferredFullText.version ? new DeferredFullText(db) : null;
    db.transaction(() => {
      fullText?.begin();
      digest = readTables(source, tables, (t, row) => {
        try {
          inserts.get(t.name)!.run(row);
        } catch (e) {
          throw new InvalidInputError(`a row of its ${t.name} table does not fit Forge's schema (${(e as Error).message}).`);
        }
      });
      fullText?.end();
    })();
    keepSequences(source, db, tables);
    const broken = db.pragma('foreign_key_check') as { table: string; parent: string }[];
    if (broken.length)
      throw new InvalidInputError(`${broken.length} row(s) of its ${broken[0]!.table} table point at ${broken[0]!.parent} rows it does not hold.`);
    db.pragma('foreign_keys = ON');
    runMigrations(db, migrations);
    return { db, digest, differences };
  } catch (e) {
    db.close();
    throw e;
  }
}
