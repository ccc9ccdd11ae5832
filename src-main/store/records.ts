import type Database from 'better-sqlite3';
import type { DeferredFullText } from './full-text';
import type { Db } from './open';

/** A memory record row as stored: typed columns for filtering, all header fields as JSON. */
export interface RecordRow {
  rid: number;
  category: string;
  id: string;
  title: string;
  status: string | null;
  confidence: number | null;
  weight: number | null;
  scope: string | null;
  view_id: string | null;
  meta: string;
  created_at: string;
  updated_at: string;
  header: string;
  body: string | null;
  content_hash: string;
}

export type RecordInput = Omit<RecordRow, 'rid' | 'created_at'> & { created_at?: string };

/** A parameterised SQL condition over `memory_records r` (and `memory_fts`), built by the query compiler. */
export interface SqlFilter {
  where: string;
  params: unknown[];
}

export interface RecordListing {
  rows: Omit<RecordRow, 'header' | 'body'>[];
  /** How many match, counted up to LIST_COUNT_CAP (or, for words, up to the page: see `list`). */
  total: number;
  /** True when more match than were counted: `total` is then a lower bound ("more than"), not the count. */
  totalCapped: boolean;
}

/**
 * A listing counts its matches up to this many. Past it the count says "10,000+" instead of the
 * exact number: counting every match of a broad query over a million notes costs a pass over all
 * of them (1–2 s measured on a desk's PostgreSQL, most of a listing's time), and nobody pages
 * through ten thousand rows — they narrow the query.
 */
export const LIST_COUNT_CAP = 10_000;

const LIST_COLUMNS =
  'r.rid, r.category, r.id, r.title, r.status, r.confidence, r.weight, r.scope, r.view_id, r.meta, r.created_at, r.updated_at, r.content_hash';

/** Memory records, their archived versions and the id sequences: all plain synchronous SQL. */
export class MemoryRecords {
  private readonly getStmt;
  private readonly insertStmt;
  private readonly updateStmt;
  private readonly deleteStmt;
  private readonly nextIdStmt;
  private readonly bumpIdStmt;
  private readonly archiveStmt;
  private readonly archiveNameStmt;
  private readonly lastStmt;
  private readonly archivedStmt;
  private readonly listCache = new Map<string, { page: Database.Statement; count: Database.Statement }>();

  constructor(
    private readonly db: Db,
    private readonly fullText?: DeferredFullText,
  ) {
    this.getStmt = db.prepare<[string, string], RecordRow>('SELECT * FROM memory_records WHERE category = ? AND id = ?');
    this.insertStmt = db.prepare(
      `INSERT INTO memory_records (category, id, title, status, confidence, weight, scope, view_id, meta, created_at, updated_at, header, body, content_hash)
       VALUES (@category, @id, @title, @status, @confidence, @weight, @scope, @view_id, @meta, @created_at, @updated_at, @header, @body, @content_hash)`,
    );
    this.updateStmt = db.prepare(
      `UPDATE memory_records SET title = @title, status = @status, confidence = @confidence, weight = @weight, scope = @scope,
         view_id = @view_id, meta = @meta, updated_at = @updated_at, header = @header, body = @body, content_hash = @content_hash
       WHERE rid = @rid`,
    );
    this.deleteStmt = db.prepare('DELETE FROM memory_records WHERE rid = ?');
    this.nextIdStmt = db.prepare<[string], { last: number }>(
      `INSERT INTO id_sequences (prefix, last) VALUES (?, 1)
       ON CONFLICT (prefix) DO UPDATE SET last = id_sequences.last + 1 RETURNING last`,
    );
    this.bumpIdStmt = db.prepare(
      `INSERT INTO id_sequences (prefix, last) VALUES (@prefix, @n)
       ON CONFLICT (prefix) DO UPDATE SET last = max(id_sequences.last, excluded.last)`,
    );
    this.archiveStmt = db.prepare(
      `INSERT INTO memory_archive (category, id, name, archived_at, title, status, confidence, content, content_hash)
       VALUES (@category, @id, @name, @archived_at, @title, @status, @confidence, @content, @content_hash)`,
    );
    const extra = this.initExtra(db);
    this.archiveNameStmt = extra.archiveName;
    this.lastStmt = extra.last;
    this.archivedStmt = extra.archived;
  }

  private initExtra(db: Db) {
    return {
      archiveName: db.prepare('SELECT 1 FROM memory_archive WHERE category = ? AND name = ?'),
      last: db.prepare<[string], { last: number }>('SELECT last FROM id_sequences WHERE prefix = ?'),
      archived: db.prepare('SELECT content, archived_at, id FROM memory_archive WHERE category = ? AND name = ?'),
    };
  }

  get(category: string, id: string): RecordRow | undefined {
    return this.getStmt.get(category, id);
  }

  /** Inserts or replaces a record; returns the row id and the previous row (for archiving and audit). */
  upsert(input: RecordInput, known?: { previous: RecordRow | undefined }): { rid: number; previous: RecordRow | undefined } {
    const previous = known ? known.previous : this.get(input.category, input.id);
    if (previous) {
      this.updateStmt.run({ ...input, rid: previous.rid });
      return { rid: previous.rid, previous };
    }
    const info = this.insertStmt.run({ ...input, created_at: input.created_at ?? input.updated_at });
    return { rid: Number(info.lastInsertRowid), previous: undefined };
  }

  delete(rid: number): void {
    this.deleteStmt.run(rid);
  }

  /** Takes the next number for a prefix (V, E, OUT...). Must run inside the write transaction. */
  takeNextNumber(prefix: string): number {
    return this.nextIdStmt.get(prefix)!.last;
  }

  /** Records that number `n` is used, so the sequence never hands it out again. */
  reserveNumber(prefix: string, n: number): void {
    this.bumpIdStmt.run({ prefix, n });
  }

  lastNumber(prefix: string): number {
    const row = this.lastStmt.get(prefix);
    return row?.last ?? 0;
  }

  archive(entry: {
    category: string;
    id: string;
    name: string;
    archived_at: string;
    title: string;
    status: string | null;
    confidence: number | null;
    content: string;
    content_hash: string;
  }): void {
    this.archiveStmt.run(entry);
  }

  archiveNameTaken(category: string, name: string): boolean {
    return !!this.archiveNameStmt.get(category, name);
  }

  /** Archived versions of one record, newest first. */
  versions(category: string, id: string) {
    return this.db
      .prepare(
        `SELECT category, id, name, archived_at, title, status, confidence, content_hash FROM memory_archive
         WHERE category = ? AND id = ? ORDER BY aid DESC`,
      )
      .all(category, id) as ArchiveListRow[];
  }

  archiveListing(category: string | null, limit: number, offset: number): { rows: ArchiveListRow[]; total: number } {
    const where = category ? 'WHERE category = ?' : '';
    const params = category ? [category] : [];
    const rows = this.db
      .prepare(
        `SELECT category, id, name, archived_at, title, status, confidence, content_hash FROM memory_archive ${where} ORDER BY aid DESC LIMIT ? OFFSET ?`,
      )
      .all(...params, limit, offset) as ArchiveListRow[];
    const total = (this.db.prepare(`SELECT count(*) AS n FROM memory_archive ${where}`).get(...params) as { n: number }).n;
    return { rows, total };
  }

  archived(category: string, name: string): { content: string; archived_at: string; id: string } | undefined {
    return this.archivedStmt.get(category, name) as { content: string; archived_at: string; id: string } | undefined;
  }

  archiveCategories(): { category: string; n: number }[] {
    return this.db.prepare('SELECT category, count(*) AS n FROM memory_archive GROUP BY category ORDER BY category').all() as {
      category: string;
      n: number;
    }[];
  }

  /**
   * One page of a category, newest first, with how many match. The filter comes from the query
   * compiler as SQL with bound parameters; statements are cached by their SQL text.
   *
   * The page and the count are separate queries on purpose: the page alone lets the database walk
   * the updated_at index from the newest and stop at the page's last row, where a count over the
   * same evaluation (count(*) OVER ()) made it visit every match first.
   *
   * How far the count goes (`count`):
   * - 'capped': up to LIST_COUNT_CAP, cheap when the filter is answered from indexes (a status, a
   *   category, dates);
   * - 'page': only as far as the page itself, for a filter that matches words: counting every
   *   note that mentions two common words of a million is a pass over tens of thousands of them
   *   (100–300 ms measured on a desk's PostgreSQL, 30× the page). The listing then says whether
   *   more match beyond the page, not how many.
   */
  list(category: string, filter: SqlFilter | null, limit: number, offset: number, count: 'capped' | 'page' = 'capped'): RecordListing {
    const where = filter?.where ? `r.category = ? AND (${filter.where})` : 'r.category = ?';
    let stmts = this.listCache.get(where);
    if (!stmts) {
      stmts = {
        page: this.db.prepare(`SELECT ${LIST_COLUMNS} FROM memory_records r WHERE ${where} ORDER BY r.updated_at DESC LIMIT ? OFFSET ?`),
        count: this.db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM memory_records r WHERE ${where} LIMIT ?) AS matches`),
      };
      if (this.listCache.size > 200) this.listCache.clear();
      this.listCache.set(where, stmts);
    }
    const params = [category, ...(filter?.params ?? [])];
    // A query's words are matched in memory_fts: this transaction's writes must be in it first.
    if (filter) this.fullText?.flush();
    // One row past the page says whether the listing goes on.
    const rows = stmts.page.all(...params, limit + 1, offset) as RecordListing['rows'];
    const more = rows.length > limit;
    if (more) rows.length = limit;
    // A page that ends the listing knows its count without counting.
    if (!more && (rows.length > 0 || offset === 0)) return { rows, total: offset + rows.length, totalCapped: false };
    if (count === 'page' && more) return { rows, total: offset + limit, totalCapped: true };
    const cap = count === 'page' ? offset : LIST_COUNT_CAP;
    const n = Number((stmts.count.get(...params, cap + 1) as { n: number }).n);
    if (n <= cap) return { rows, total: n, totalCapped: false };
    // At least the cap match, and at least as many as the page reached (an empty page reached nothing).
    return { rows, total: Math.max(cap, rows.length ? offset + rows.length : 0), totalCapped: true };
  }

  /**
   * Records of a category in some statuses (optionally only those written since an instant),
   * with their header JSON: what the computed book reads, in one indexed query.
   */
  withStatus(category: string, statuses: readonly string[], updatedSince?: string): Pick<RecordRow, 'id' | 'status' | 'header' | 'updated_at'>[] {
    if (!statuses.length) return [];
    const marks = statuses.map(() => '?').join(', ');
    const since = updatedSince ? ' AND updated_at >= ?' : '';
    return this.db
      .prepare(`SELECT id, status, header, updated_at FROM memory_records WHERE category = ? AND status IN (${marks})${since}`)
      .all(category, ...statuses, ...(updatedSince ? [updatedSince] : [])) as Pick<RecordRow, 'id' | 'status' | 'header' | 'updated_at'>[];
  }

  categoryCounts(): { category: string; n: number }[] {
    return this.db.prepare('SELECT category, count(*) AS n FROM memory_records GROUP BY category').all() as { category: string; n: number }[];
  }
}

export interface ArchiveListRow {
  category: string;
  id: string;
  name: string;
  archived_at: string;
  title: string;
  status: string | null;
  confidence: number | null;
  content_hash: string;
}
