import type { Migration } from './types';

/**
 * The memory store: records with typed columns for what listings filter on, their archived
 * versions, id sequences, portfolio documents, sessions and their files, the append-only audit
 * log, and a full-text index over records kept in sync by triggers (same transaction as the write).
 */
export const memoryCore: Migration = {
  version: 1,
  name: '001_memory',
  up(db) {
    db.exec(`
      CREATE TABLE workspace_meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;

      CREATE TABLE memory_records (
        rid          INTEGER PRIMARY KEY,
        category     TEXT NOT NULL,
        id           TEXT NOT NULL,
        title        TEXT NOT NULL DEFAULT '',
        status       TEXT,
        confidence   REAL,
        weight       REAL,
        scope        TEXT,
        view_id      TEXT,
        meta         TEXT NOT NULL DEFAULT '',
        created_at   TEXT NOT NULL,
        updated_at   TEXT NOT NULL,
        header       TEXT NOT NULL CHECK (json_valid(header)),
        body         TEXT,
        content_hash TEXT NOT NULL,
        UNIQUE (category, id)
      ) STRICT;
      -- Listing indexes cover the filters they serve (confidence inside), so a filtered listing
      -- reads table rows only for the page it returns.
      CREATE INDEX memory_records_by_updated ON memory_records (category, updated_at, confidence, status);
      CREATE INDEX memory_records_by_status ON memory_records (category, status, updated_at, confidence);
      CREATE INDEX memory_records_by_view ON memory_records (view_id) WHERE view_id IS NOT NULL;

      CREATE VIRTUAL TABLE memory_fts USING fts5 (
        title, header, body,
        content = '', contentless_delete = 1,
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER memory_records_fts_insert AFTER INSERT ON memory_records BEGIN
        INSERT INTO memory_fts (rowid, title, header, body)
        VALUES (new.rid, new.id || ' ' || new.title,
                (SELECT group_concat(key || ' ' || value, ' ') FROM json_each(new.header)), coalesce(new.body, ''));
      END;
      CREATE TRIGGER memory_records_fts_update AFTER UPDATE ON memory_records BEGIN
        DELETE FROM memory_fts WHERE rowid = old.rid;
        INSERT INTO memory_fts (rowid, title, header, body)
        VALUES (new.rid, new.id || ' ' || new.title,
                (SELECT group_concat(key || ' ' || value, ' ') FROM json_each(new.header)), coalesce(new.body, ''));
      END;
      CREATE TRIGGER memory_records_fts_delete AFTER DELETE ON memory_records BEGIN
        DELETE FROM memory_fts WHERE rowid = old.rid;
      END;

      CREATE TABLE memory_archive (
        aid          INTEGER PRIMARY KEY,
        category     TEXT NOT NULL,
        id           TEXT NOT NULL,
        name         TEXT NOT NULL,
        archived_at  TEXT NOT NULL,
        title        TEXT NOT NULL DEFAULT '',
        status       TEXT,
        confidence   REAL,
        content      TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        UNIQUE (category, name)
      ) STRICT;
      CREATE INDEX memory_archive_by_record ON memory_archive (category, id, aid DESC);

      CREATE TABLE id_sequences (
        prefix TEXT PRIMARY KEY,
        last   INTEGER NOT NULL CHECK (last >= 0)
      ) STRICT;

      CREATE TABLE portfolio_documents (
        name         TEXT PRIMARY KEY,
        content      TEXT NOT NULL,
        updated_at   TEXT NOT NULL,
        content_hash TEXT NOT NULL
      ) STRICT;

      CREATE TABLE sessions (
        id          TEXT PRIMARY KEY,
        user_id     TEXT NOT NULL DEFAULT 'default',
        created_at  TEXT NOT NULL,
        last_active TEXT NOT NULL,
        turn_number INTEGER NOT NULL DEFAULT 0,
        status      TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived'))
      ) STRICT;
      CREATE INDEX sessions_by_user ON sessions (user_id, status, last_active DESC);

      CREATE TABLE session_files (
        session_id   TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        path         TEXT NOT NULL,
        content      TEXT NOT NULL,
        updated_at   TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        PRIMARY KEY (session_id, path)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE audit_log (
        -- No AUTOINCREMENT needed: rows are never deleted, so sequence numbers are never reused.
        seq          INTEGER PRIMARY KEY,
        at           TEXT NOT NULL,
        actor        TEXT NOT NULL,
        operation    TEXT NOT NULL,
        path         TEXT NOT NULL,
        session_id   TEXT,
        task_id      TEXT,
        content_hash TEXT
      );
      CREATE INDEX audit_log_by_path ON audit_log (path, seq);
      CREATE INDEX audit_log_by_session ON audit_log (session_id, seq) WHERE session_id IS NOT NULL;
      -- The decision lineage must never be rewritten.
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN
        SELECT RAISE(ABORT, 'The audit log is append-only; entries cannot be changed.');
      END;
      CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN
        SELECT RAISE(ABORT, 'The audit log is append-only; entries cannot be deleted.');
      END;
    `);
  },
};
