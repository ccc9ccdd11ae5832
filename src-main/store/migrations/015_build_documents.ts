import type { Migration } from './types';

/**
 * A build of any spec package pins that package's documents (spec-kit, Kiro, OpenSpec, a plain
 * folder of Markdown, Forge's own layout), not only Forge's 15 contract names: each keyed by its own
 * path in the package, with its text, its SHA-256 and its size in tokens. The audit compares the
 * project's files with these, so a file that pastes a spec's paragraph is caught whatever the format.
 * Like build_contracts, a pinned document can never change or vanish under a running build.
 */
export const buildDocuments: Migration = {
  version: 15,
  name: '015_build_documents',
  up(db) {
    db.exec(`
      CREATE TABLE build_documents (
        build_id     TEXT NOT NULL REFERENCES builds (id),
        doc_id       TEXT NOT NULL CHECK (length(doc_id) BETWEEN 1 AND 1000),
        kind         TEXT NOT NULL,
        content      TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        tokens       INTEGER NOT NULL CHECK (tokens >= 0),
        PRIMARY KEY (build_id, doc_id)
      ) STRICT, WITHOUT ROWID;
      CREATE TRIGGER build_documents_no_update BEFORE UPDATE ON build_documents BEGIN
        SELECT RAISE(ABORT, 'A pinned build snapshot cannot be changed.');
      END;
      CREATE TRIGGER build_documents_no_delete BEFORE DELETE ON build_documents BEGIN
        SELECT RAISE(ABORT, 'A pinned build snapshot cannot be deleted.');
      END;
    `);
  },
};
