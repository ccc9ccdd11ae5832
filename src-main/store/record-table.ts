import type Database from 'better-sqlite3';
import type { DeferredFullText } from './full-text';
import type { Db } from './open';
import type { SqlFilter } from './records';

/** The categories shown as tables; everything else stays a listing (MemoryRecords.list). */
export type TableCategory = 'views' | 'expressions';
export type SortDirection = 'asc' | 'desc';

/** The natural id order (V-999 before V-1000) that ends every sort and breaks its ties. */
const ID_ORDER = ['length(r.id)', 'r.id'];

/**
 * Sortable columns per table, as the SQL they sort by. Each list must match an index of migration
 * 013 term for term (same expressions, same collation), or a deep page becomes a sort of the
 * whole category.
 */
const SORT_SQL: Record<TableCategory, Record<string, readonly string[]>> = {
  views: {
    id: ID_ORDER,
    title: ['r.title COLLATE NOCASE', ...ID_ORDER],
    status: ['r.status', ...ID_ORDER],
    confidence: ['r.confidence', ...ID_ORDER],
    horizon: ["json_extract(r.header, '$.horizon')", ...ID_ORDER],
    category: ["json_extract(r.header, '$.category')", ...ID_ORDER],
    scope: ['r.scope COLLATE NOCASE', ...ID_ORDER],
    updated: ['r.updated_at', ...ID_ORDER],
  },
  expressions: {
    id: ID_ORDER,
    title: ['r.title COLLATE NOCASE', ...ID_ORDER],
    status: ['r.status', ...ID_ORDER],
    instrument: ["json_extract(r.header, '$.instrument') COLLATE NOCASE", ...ID_ORDER],
    notional: ["CAST(json_extract(r.header, '$.notional') AS REAL)", ...ID_ORDER],
    max_loss: ["CAST(json_extract(r.header, '$.max_loss_pct') AS REAL)", ...ID_ORDER],
    view: ['length(r.view_id)', 'r.view_id', ...ID_ORDER],
    confidence: ['r.confidence', ...ID_ORDER],
    updated: ['r.updated_at', ...ID_ORDER],
  },
};

/** The sort keys a table accepts, in column order. */
export function tableSortKeys(category: TableCategory): string[] {
  return Object.keys(SORT_SQL[category]);
}

/** One table row: typed columns plus the header fields the tables show (null when absent). */
export interface RecordTableRow {
  id: string;
  title: string;
  status: string | null;
  confidence: number | null;
  scope: string | null;
  view_id: string | null;
  updated_at: string;
  horizon: unknown;
  view_category: unknown;
  instrument: unknown;
  notional: unknown;
  max_loss_pct: unknown;
  previous_confidence: number | null;
}

const ROW_COLUMNS = `r.id, r.title, r.status, r.confidence, r.scope, r.view_id, r.updated_at,
  json_extract(r.header, '$.horizon') AS horizon, json_extract(r.header, '$.category') AS view_category,
  json_extract(r.header, '$.instrument') AS instrument, json_extract(r.header, '$.notional') AS notional,
  json_extract(r.header, '$.max_loss_pct') AS max_loss_pct,
  (SELECT a.confidence FROM memory_archive a WHERE a.category = r.category AND a.id = r.id ORDER BY a.aid DESC LIMIT 1) AS previous_confidence`;

export interface RecordTableQuery {
  category: TableCategory;
  /** From the query compiler (fs/query): SQL with bound parameters over `memory_records r`. */
  filter: SqlFilter | null;
  sort: string;
  dir: SortDirection;
  limit: number;
  offset: number;
}

/**
 * One page of the Views or Expressions table, sorted in SQL. The direction applies to the whole
 * key, tiebreak included, so descending is exactly ascending reversed (a second click on a header
 * flips the list) and SQLite walks migration 013's index either way. Statements are cached per
 * database by their SQL text.
 */
export class RecordTables {
  private readonly cache = new Map<string, { page: Database.Statement; count: Database.Statement }>();

  constructor(
    private readonly db: Db,
    private readonly fullText?: DeferredFullText,
  ) {}

  page(q: RecordTableQuery): { rows: RecordTableRow[]; total: number } {
    const terms = SORT_SQL[q.category]?.[q.sort];
    // Callers validate the key (the API contract lists them); this guards the SQL text itself.
    if (!terms) throw new Error(`Unknown sort column ${q.sort} for ${q.category}`);
    const direction = q.dir === 'desc' ? ' DESC' : '';
    // The category is a literal so SQLite can use the partial indexes (WHERE category = 'views').
    const where = `r.category = '${q.category}'${q.filter?.where ? ` AND (${q.filter.where})` : ''}`;
    const key = `${where}|${q.sort}|${q.dir}`;
    let stmts = this.cache.get(key);
    if (!stmts) {
      stmts = {
        page: this.db.prepare(
          `SELECT ${ROW_COLUMNS} FROM memory_records r WHERE ${where} ORDER BY ${terms.map((t) => t + direction).join(', ')} LIMIT ? OFFSET ?`,
        ),
        count: this.db.prepare(`SELECT count(*) AS n FROM memory_records r WHERE ${where}`),
      };
      if (this.cache.size > 200) this.cache.clear();
      this.cache.set(key, stmts);
    }
    const params = q.filter?.params ?? [];
    // A filter's words are matched in memory_fts: this transaction's writes must be in it first.
    if (q.filter) this.fullText?.flush();
    const rows = stmts.page.all(...params, q.limit, q.offset) as RecordTableRow[];
    const total = (stmts.count.get(...params) as { n: number }).n;
    return { rows, total };
  }
}
