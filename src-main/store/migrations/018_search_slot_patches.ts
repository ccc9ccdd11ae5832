import type { Migration } from './types';

/**
 * A single memory write changes one slot of a 256-slot vector block (~120 KB); rewriting the block
 * for it made each write cost a block. Now a single write (or delete) stores only its slot here,
 * in the same transaction as the record, and the search module applies these rows over the blocks
 * it reads. Batched writes (rebuilds, queue drains) still write whole blocks and fold the block's
 * patches in; a block with many patches is folded on the next single write to it.
 *
 * - slot: the note's slot (block = slot / 256), as in search_entries.slot.
 * - rid: the record id in that slot; 0 = the slot was freed (the note was deleted).
 * - category, status, embedder: search_labels codes (0 for a freed slot).
 * - day, code, vector, norm: as the block's columns hold them for one slot (empty for a freed slot).
 *
 * An empty table reads exactly as before, so a database written by an earlier version opens unchanged.
 */
export const searchSlotPatches: Migration = {
  version: 18,
  name: '018_search_slot_patches',
  up(db) {
    db.exec(`
      CREATE TABLE search_slot_patches (
        slot     INTEGER PRIMARY KEY CHECK (slot >= 0),
        rid      INTEGER NOT NULL CHECK (rid >= 0),
        category INTEGER NOT NULL,
        status   INTEGER NOT NULL,
        embedder INTEGER NOT NULL,
        day      INTEGER NOT NULL,
        code     BLOB NOT NULL,
        vector   BLOB NOT NULL,
        norm     REAL NOT NULL
      ) STRICT;
    `);
  },
};
