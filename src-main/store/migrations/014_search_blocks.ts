import type { Migration } from './types';

/**
 * The vector half of memory search moves into contiguous blocks, so the first search after start
 * reads a few hundred rows instead of one row per note (4.5 s at 100,000 notes before this).
 *
 * - search_blocks: BLOCK_SLOTS notes per row. Each column is one packed array over the block's
 *   slots: record ids (int32, 0 = free), labels (uint16 category, status and embedder codes from
 *   search_labels), update days (int32), SimHash codes, int8 vectors and their norm factors
 *   (float32). Written inside the same transaction as the record, like every index write.
 * - search_labels: the strings behind the uint16 label codes.
 * - search_free_slots: slots freed by deleted records, reused before the blocks grow.
 * - search_entries.slot: where a record's vector sits. The float vector column stops being
 *   written (empty); existing floats are converted to blocks by the search module when it opens,
 *   which knows the quantiser.
 */
export const searchBlocks: Migration = {
  version: 14,
  name: '014_search_blocks',
  up(db) {
    db.exec(`
      ALTER TABLE search_entries ADD COLUMN slot INTEGER;
      CREATE UNIQUE INDEX search_entries_by_slot ON search_entries (slot) WHERE slot IS NOT NULL;

      CREATE TABLE search_blocks (
        block   INTEGER PRIMARY KEY CHECK (block >= 0),
        rids    BLOB NOT NULL,
        labels  BLOB NOT NULL,
        days    BLOB NOT NULL,
        codes   BLOB NOT NULL,
        vectors BLOB NOT NULL,
        norms   BLOB NOT NULL
      ) STRICT;

      CREATE TABLE search_labels (
        code  INTEGER PRIMARY KEY CHECK (code > 0 AND code < 65536),
        label TEXT NOT NULL UNIQUE
      ) STRICT;

      CREATE TABLE search_free_slots (
        slot INTEGER PRIMARY KEY
      ) STRICT;
    `);
  },
};
