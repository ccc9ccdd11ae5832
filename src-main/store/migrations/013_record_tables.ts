import type { Migration } from './types';

/**
 * The Views and Expressions tables (memory/table) sort 10,000+ records by any column and page
 * through them. Each sortable column gets a partial index for its category, ending in the natural
 * id order (`length(id), id`: V-999 before V-1000) that breaks ties, so a page at any depth is an
 * index walk rather than a sort of the whole category. Partial (one category each), so a write to
 * other memory pays nothing. Sizes are cast to REAL because the codec keeps `12.0` as text (it
 * round-trips exactly) and text sorts after every number. The expressions here must stay
 * identical to the ORDER BY in src-main/store/record-table.ts, or SQLite will not use them.
 */
export const recordTables: Migration = {
  version: 13,
  name: '013_record_tables',
  up(db) {
    db.exec(`
      CREATE INDEX memory_views_by_id ON memory_records (category, length(id), id) WHERE category = 'views';
      CREATE INDEX memory_views_by_title ON memory_records (category, title COLLATE NOCASE, length(id), id) WHERE category = 'views';
      CREATE INDEX memory_views_by_status ON memory_records (category, status, length(id), id) WHERE category = 'views';
      CREATE INDEX memory_views_by_confidence ON memory_records (category, confidence, length(id), id) WHERE category = 'views';
      CREATE INDEX memory_views_by_horizon ON memory_records (category, json_extract(header, '$.horizon'), length(id), id) WHERE category = 'views';
      CREATE INDEX memory_views_by_category ON memory_records (category, json_extract(header, '$.category'), length(id), id) WHERE category = 'views';
      CREATE INDEX memory_views_by_scope ON memory_records (category, scope COLLATE NOCASE, length(id), id) WHERE category = 'views';
      CREATE INDEX memory_views_by_updated ON memory_records (category, updated_at, length(id), id) WHERE category = 'views';

      CREATE INDEX memory_expressions_by_id ON memory_records (category, length(id), id) WHERE category = 'expressions';
      CREATE INDEX memory_expressions_by_title ON memory_records (category, title COLLATE NOCASE, length(id), id) WHERE category = 'expressions';
      CREATE INDEX memory_expressions_by_status ON memory_records (category, status, length(id), id) WHERE category = 'expressions';
      CREATE INDEX memory_expressions_by_instrument ON memory_records (category, json_extract(header, '$.instrument') COLLATE NOCASE, length(id), id) WHERE category = 'expressions';
      CREATE INDEX memory_expressions_by_notional ON memory_records (category, CAST(json_extract(header, '$.notional') AS REAL), length(id), id) WHERE category = 'expressions';
      CREATE INDEX memory_expressions_by_max_loss ON memory_records (category, CAST(json_extract(header, '$.max_loss_pct') AS REAL), length(id), id) WHERE category = 'expressions';
      CREATE INDEX memory_expressions_by_view ON memory_records (category, length(view_id), view_id, length(id), id) WHERE category = 'expressions';
      CREATE INDEX memory_expressions_by_confidence ON memory_records (category, confidence, length(id), id) WHERE category = 'expressions';
      CREATE INDEX memory_expressions_by_updated ON memory_records (category, updated_at, length(id), id) WHERE category = 'expressions';
    `);
  },
};
