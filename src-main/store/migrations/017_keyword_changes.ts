import type { Migration } from './types';

/**
 * Every change to memory's records, in commit order, for the in-memory keyword index
 * (search/keyword-index): each process keeps its own copy of the index and brings it up to date from
 * this log before a search, so a write by any path — the app, the command line in another process,
 * an import, a plain SQL statement — is seen, and a rolled-back write (never committed, so never
 * logged) is never applied. The log keeps the last 100,000 changes (an older change only matters to a copy that
 * fell that far behind, and that copy rebuilds instead). AUTOINCREMENT: a sequence number is never reused
 * after trimming, so a copy cannot mistake a new change for one it has already applied.
 */
export const keywordChanges: Migration = {
  version: 17,
  name: '017_keyword_changes',
  up(db) {
    db.exec(`
      CREATE TABLE memory_changes (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        rid INTEGER NOT NULL,
        -- 1 inserted, 2 updated, 3 deleted: FTS5 counts a row for every insert and update and none
        -- back for a delete (contentless_delete keeps its totals), which the index checks itself against.
        op  INTEGER NOT NULL CHECK (op IN (1, 2, 3))
      ) STRICT;
      CREATE TRIGGER memory_records_log_insert AFTER INSERT ON memory_records BEGIN
        INSERT INTO memory_changes (rid, op) VALUES (new.rid, 1);
        DELETE FROM memory_changes WHERE seq <= (SELECT max(seq) FROM memory_changes) - 100000;
      END;
      CREATE TRIGGER memory_records_log_update AFTER UPDATE ON memory_records BEGIN
        INSERT INTO memory_changes (rid, op) VALUES (new.rid, 2);
        INSERT INTO memory_changes (rid, op) SELECT old.rid, 3 WHERE old.rid <> new.rid;
        DELETE FROM memory_changes WHERE seq <= (SELECT max(seq) FROM memory_changes) - 100000;
      END;
      CREATE TRIGGER memory_records_log_delete AFTER DELETE ON memory_records BEGIN
        INSERT INTO memory_changes (rid, op) VALUES (old.rid, 3);
        DELETE FROM memory_changes WHERE seq <= (SELECT max(seq) FROM memory_changes) - 100000;
      END;
    `);
  },
};
