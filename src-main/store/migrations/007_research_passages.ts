import type { Migration } from './types';

/**
 * The research provider's index of broker notes (src-main/providers/research/): one row per note
 * file with what it was indexed from (modification time, size and content hash, so only a changed
 * note is read again), and an FTS5 table of its passages ranked by bm25. A note that could not be
 * read (a malformed or encrypted PDF) keeps its row with a warning and no passages.
 */
export const researchPassages: Migration = {
  version: 7,
  name: '007_research_passages',
  up(db) {
    db.exec(`
      CREATE TABLE research_notes (
        note         TEXT PRIMARY KEY,
        mtime_ms     INTEGER NOT NULL,
        size         INTEGER NOT NULL,
        content_hash TEXT NOT NULL,
        note_date    TEXT NOT NULL,
        date_from    TEXT NOT NULL CHECK (date_from IN ('front_matter', 'pdf_metadata', 'file_time')),
        title        TEXT NOT NULL,
        passages     INTEGER NOT NULL,
        warning      TEXT,
        indexed_at   TEXT NOT NULL
      ) STRICT;
      CREATE INDEX research_notes_by_date ON research_notes (note_date);

      CREATE VIRTUAL TABLE research_passages USING fts5(
        text,
        section,
        note UNINDEXED,
        page UNINDEXED,
        ordinal UNINDEXED,
        tokenize = 'porter unicode61'
      );
    `);
  },
};
