import type { Migration } from './types';

/**
 * Vectors of the broker-note passages (migration 007), so the analyst's `search` finds them by
 * meaning as well as by keyword. One row per embedded passage, keyed by the passage's FTS5 rowid,
 * with the embedder that made it (a passage embedded by another embedder is re-embedded) and the
 * float32 vector, encoded as `search_entries.vector`. `note` lets a note's vectors go in the same
 * transaction that replaces or removes its passages. A passage with no row here waits to be
 * embedded (the embedder failed when it was indexed); keyword search finds it meanwhile.
 */
export const researchVectors: Migration = {
  version: 9,
  name: '009_research_vectors',
  up(db) {
    db.exec(`
      CREATE TABLE research_passage_vectors (
        passage  INTEGER PRIMARY KEY,
        note     TEXT NOT NULL,
        embedder TEXT NOT NULL,
        vector   BLOB NOT NULL
      ) STRICT;
      CREATE INDEX research_passage_vectors_by_note ON research_passage_vectors (note);
      CREATE INDEX research_passage_vectors_by_embedder ON research_passage_vectors (embedder);
    `);
  },
};
