import type { Migration } from './types';

/**
 * The search index's plain tables. The vector tables themselves (sqlite-vec `vec0`) are created by
 * the search module once it knows the embedder's size, so this step also runs where sqlite-vec is
 * not loaded. Keyword relevance reuses `memory_fts` from migration 1.
 *
 * - search_entries: one row per indexed record (rid = memory_records.rid): which embedder made its
 *   vector, and the float32 vector used to rescore the fast bit-vector candidates.
 * - search_queue: records whose embedding failed (provider down, timeout); retried later.
 * - search_state: the active embedder id and vector size (a change marks the index stale).
 */
export const searchIndex: Migration = {
  version: 2,
  name: '002_search',
  up(db) {
    db.exec(`
      CREATE TABLE search_entries (
        rid       INTEGER PRIMARY KEY,
        category  TEXT NOT NULL,
        embedder  TEXT NOT NULL,
        vector    BLOB NOT NULL
      ) STRICT;
      CREATE INDEX search_entries_by_embedder ON search_entries (embedder);

      CREATE TABLE search_queue (
        rid        INTEGER PRIMARY KEY,
        category   TEXT NOT NULL,
        id         TEXT NOT NULL,
        queued_at  TEXT NOT NULL,
        attempts   INTEGER NOT NULL DEFAULT 0,
        last_error TEXT
      ) STRICT;

      CREATE TABLE search_state (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;
    `);
  },
};
