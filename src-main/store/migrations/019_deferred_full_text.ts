import type { Migration } from './types';

/**
 * Memory's full-text rows written once per write transaction instead of once per record.
 *
 * FTS5 writes every pending row out as a new segment whenever a later statement in the same
 * transaction opens a statement journal (its xSavepoint flushes) — and nearly every write does
 * (the next record's INSERT fires triggers, an id's upsert, the search index's writes). So a batch
 * of 500 new notes wrote 500 one-note segments and merged them, half of what an import cost.
 *
 * Inside Forge's own write transactions (Store.writeTransaction) a row in `memory_text_deferral`
 * switches the full-text triggers to logging the change in `memory_text_pending`; before the commit,
 * in the same transaction, the store replays the log into `memory_fts` in one run of plain inserts
 * (src-main/store/full-text.ts) and removes the row, so no committed state ever holds either. Any
 * other writer (the command line's SQL, an older Forge, a raw transaction) sees no deferral row and
 * the triggers write `memory_fts` at once, as before. Each logged insert or update becomes exactly
 * one FTS5 insert, as the immediate triggers make, so FTS5's row count still matches
 * `memory_changes` (the keyword index checks it).
 */
export const deferredFullText: Migration = {
  version: 19,
  name: '019_deferred_full_text',
  // Written to run again harmlessly (tests that rewind user_version re-apply it).
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS memory_text_deferral (
        on_ INTEGER PRIMARY KEY CHECK (on_ = 1)
      ) STRICT;
      CREATE TABLE IF NOT EXISTS memory_text_pending (
        seq     INTEGER PRIMARY KEY,
        rid     INTEGER NOT NULL,
        -- 1 inserted, 2 updated (old_rid's row is replaced), 3 deleted
        op      INTEGER NOT NULL CHECK (op IN (1, 2, 3)),
        old_rid INTEGER
      ) STRICT;

      DROP TRIGGER IF EXISTS memory_records_fts_insert;
      DROP TRIGGER IF EXISTS memory_records_fts_update;
      DROP TRIGGER IF EXISTS memory_records_fts_delete;
      CREATE TRIGGER memory_records_fts_insert AFTER INSERT ON memory_records
      WHEN NOT EXISTS (SELECT 1 FROM memory_text_deferral) BEGIN
        INSERT INTO memory_fts (rowid, title, header, body)
        VALUES (new.rid, new.id || ' ' || new.title,
                (SELECT group_concat(key || ' ' || value, ' ') FROM json_each(new.header)), coalesce(new.body, ''));
      END;
      CREATE TRIGGER memory_records_fts_update AFTER UPDATE ON memory_records
      WHEN NOT EXISTS (SELECT 1 FROM memory_text_deferral) BEGIN
        DELETE FROM memory_fts WHERE rowid = old.rid;
        INSERT INTO memory_fts (rowid, title, header, body)
        VALUES (new.rid, new.id || ' ' || new.title,
                (SELECT group_concat(key || ' ' || value, ' ') FROM json_each(new.header)), coalesce(new.body, ''));
      END;
      CREATE TRIGGER memory_records_fts_delete AFTER DELETE ON memory_records
      WHEN NOT EXISTS (SELECT 1 FROM memory_text_deferral) BEGIN
        DELETE FROM memory_fts WHERE rowid = old.rid;
      END;

      DROP TRIGGER IF EXISTS memory_records_fts_insert_deferred;
      CREATE TRIGGER memory_records_fts_insert_deferred AFTER INSERT ON memory_records
      WHEN EXISTS (SELECT 1 FROM memory_text_deferral) BEGIN
        INSERT INTO memory_text_pending (rid, op) VALUES (new.rid, 1);
      END;
      DROP TRIGGER IF EXISTS memory_records_fts_update_deferred;
      CREATE TRIGGER memory_records_fts_update_deferred AFTER UPDATE ON memory_records
      WHEN EXISTS (SELECT 1 FROM memory_text_deferral) BEGIN
        INSERT INTO memory_text_pending (rid, op, old_rid) VALUES (new.rid, 2, old.rid);
      END;
      DROP TRIGGER IF EXISTS memory_records_fts_delete_deferred;
      CREATE TRIGGER memory_records_fts_delete_deferred AFTER DELETE ON memory_records
      WHEN EXISTS (SELECT 1 FROM memory_text_deferral) BEGIN
        INSERT INTO memory_text_pending (rid, op) VALUES (old.rid, 3);
      END;
    `);
  },
};
