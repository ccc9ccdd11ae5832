import type { Db } from '../store';
import {
  applyPatch,
  BLOCK_SLOTS,
  type BlockBuf,
  type BlockEntry,
  type BlockLayout,
  type BlockRow,
  blob,
  blockFrom,
  LABELS,
  labelCode,
  PATCHES_IN_RANGE,
  readLabelCodes,
  type PatchRow,
  SHIFT,
  stmt,
} from './block-format';

/**
 * Writing the vector blocks, inside the caller's transaction (a rolled-back write leaves nothing).
 * Two ways, one result:
 * - a batch (`writeEntries`, `removeEntries`: rebuilds, queue drains) reads and rewrites whole
 *   blocks, folding in the block's patches;
 * - a single note (`patchEntries`, `freeEntries`: the app's memory writes) writes one row of
 *   `search_slot_patches` (~0.5 KB) instead of its ~120 KB block; once a block holds more than
 *   PATCHES_PER_BLOCK patches the next single write to it folds them in, so a reader never applies
 *   more than that many rows over a block.
 * Each returns what the in-memory index must re-read: whole blocks, or single slots.
 */
export interface Touched {
  blocks: Set<number>;
  slots: Set<number>;
}

/** Patches a block may hold before a single write folds them in (one block rewrite per 64 writes to it). */
export const PATCHES_PER_BLOCK = 64;

/** Validates an entry's sizes against the index's layout. */
function checkEntry(e: BlockEntry, layout: BlockLayout): void {
  if (e.code.length !== layout.bits / 8 || e.vector.length !== layout.dims) {
    throw new Error(`index entry for record ${e.rid} has ${e.vector.length} dims / ${e.code.length * 8} bits; the index holds ${layout.dims} / ${layout.bits}`);
  }
}

/** The statements a write runs per note. */
function statements(db: Db) {
  return {
    // The note's own slot, the lowest freed one and the last taken, in one statement (on a desk each is a round trip).
    slots: stmt(
      db,
      `SELECT (SELECT slot FROM search_entries WHERE rid = ?) AS own, (SELECT min(slot) FROM search_free_slots) AS free,
              (SELECT slot FROM search_entries WHERE slot IS NOT NULL ORDER BY slot DESC LIMIT 1) AS last`,
    ),
    takeFree: stmt(db, 'DELETE FROM search_free_slots WHERE slot = ?'),
    upsert: stmt(
      db,
      `INSERT INTO search_entries (rid, category, embedder, vector, slot) VALUES (?, ?, ?, x'', ?)
       ON CONFLICT (rid) DO UPDATE SET category = excluded.category, embedder = excluded.embedder, vector = x'', slot = excluded.slot`,
    ),
    dropEntry: stmt(db, 'DELETE FROM search_entries WHERE rid = ? RETURNING slot'),
    freeSlot: stmt(db, 'INSERT OR IGNORE INTO search_free_slots (slot) VALUES (?)'),
  };
}
type Statements = ReturnType<typeof statements>;

/** The note's slot (kept on a rewrite), else a freed slot, else the next after the last; and its search_entries row. */
function placeEntry(st: Statements, e: BlockEntry): number {
  // Inside the write transaction (one writer at a time): nobody takes the free slot between the read and the delete.
  const found = st.slots.get(e.rid) as { own: number | null; free: number | null; last: number | null };
  let slot = found.own;
  if (slot === null && found.free !== null) {
    st.takeFree.run(found.free);
    slot = found.free;
  } else if (slot === null) {
    slot = (found.last ?? -1) + 1;
  }
  st.upsert.run(e.rid, e.category, e.embedder, slot);
  return slot;
}

/** A block as stored with its patches applied. */
function readBlock(db: Db, b: number, layout: BlockLayout): BlockBuf {
  const buf = blockFrom(stmt(db, 'SELECT * FROM search_blocks WHERE block = ?').get(b) as BlockRow | undefined, layout);
  for (const p of stmt(db, PATCHES_IN_RANGE).all(b * BLOCK_SLOTS, (b + 1) * BLOCK_SLOTS) as PatchRow[]) applyPatch(buf, p, layout);
  return buf;
}

/** Saves these blocks and drops their patches (now folded in). */
function saveBlocks(db: Db, blocks: Map<number, BlockBuf>): void {
  const save = stmt(
    db,
    `INSERT INTO search_blocks (block, rids, labels, days, codes, vectors, norms) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (block) DO UPDATE SET rids = excluded.rids, labels = excluded.labels, days = excluded.days,
       codes = excluded.codes, vectors = excluded.vectors, norms = excluded.norms`,
  );
  const drop = stmt(db, 'DELETE FROM search_slot_patches WHERE slot >= ? AND slot < ?');
  for (const [b, x] of blocks) {
    save.run(b, blob(x.rids), blob(x.labels), blob(x.days), blob(x.codes), blob(x.vectors), blob(x.norms));
    drop.run(b * BLOCK_SLOTS, (b + 1) * BLOCK_SLOTS);
  }
}

/**
 * Writes these entries (and their `search_entries` rows) into their blocks, whole. Call inside a
 * transaction, with a batch in one call. Returns the blocks touched, for the in-memory index to re-read.
 */
export function writeEntries(db: Db, layout: BlockLayout, entries: BlockEntry[]): Set<number> {
  const codeBytes = layout.bits / 8;
  const memo = new Map<string, number>();
  const blocks = new Map<number, BlockBuf>();
  const st = statements(db);
  for (const e of entries) {
    checkEntry(e, layout);
    const slot = placeEntry(st, e);
    const b = slot >> SHIFT;
    let buf = blocks.get(b);
    if (!buf) {
      buf = readBlock(db, b, layout);
      blocks.set(b, buf);
    }
    const i = slot & (BLOCK_SLOTS - 1);
    buf.rids[i] = e.rid;
    buf.labels[i * LABELS] = labelCode(db, e.category, memo);
    buf.labels[i * LABELS + 1] = labelCode(db, e.status ?? '', memo);
    buf.labels[i * LABELS + 2] = labelCode(db, e.embedder, memo);
    buf.days[i] = e.day;
    buf.codes.set(e.code, i * codeBytes);
    buf.vectors.set(e.vector, i * layout.dims);
    buf.norms[i] = e.norm;
  }
  saveBlocks(db, blocks);
  return new Set(blocks.keys());
}

/** Frees the slots of these records (and deletes their `search_entries` rows), rewriting their blocks. Inside a transaction. */
export function removeEntries(db: Db, layout: BlockLayout | null, rids: number[]): Set<number> {
  const touched = new Map<number, BlockBuf>();
  const st = statements(db);
  for (const rid of rids) {
    const slot = takeSlot(st, rid);
    if (slot === null || !layout) continue;
    const b = slot >> SHIFT;
    let buf = touched.get(b);
    if (!buf) {
      buf = readBlock(db, b, layout);
      touched.set(b, buf);
    }
    buf.rids[slot & (BLOCK_SLOTS - 1)] = 0;
  }
  saveBlocks(db, touched);
  return new Set(touched.keys());
}

/** Deletes the record's search_entries row and marks its slot free; returns the slot (null: it had none). */
function takeSlot(st: Statements, rid: number): number | null {
  const slot = (st.dropEntry.get(rid) as { slot: number | null } | undefined)?.slot ?? null;
  if (slot !== null) st.freeSlot.run(slot);
  return slot;
}

/** Stores one slot's patch, folding its block when it holds too many; adds what to re-read to `touched`. */
function putPatch(db: Db, layout: BlockLayout, p: PatchRow, touched: Touched): void {
  stmt(
    db,
    `INSERT INTO search_slot_patches (slot, rid, category, status, embedder, day, code, vector, norm) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (slot) DO UPDATE SET rid = excluded.rid, category = excluded.category, status = excluded.status,
       embedder = excluded.embedder, day = excluded.day, code = excluded.code, vector = excluded.vector, norm = excluded.norm`,
  ).run(p.slot, p.rid, p.category, p.status, p.embedder, p.day, p.code, p.vector, p.norm);
  const b = p.slot >> SHIFT;
  const held = (
    stmt(db, 'SELECT count(*) AS n FROM search_slot_patches WHERE slot >= ? AND slot < ?').get(b * BLOCK_SLOTS, (b + 1) * BLOCK_SLOTS) as { n: number }
  ).n;
  if (held > PATCHES_PER_BLOCK) {
    saveBlocks(db, new Map([[b, readBlock(db, b, layout)]]));
    touched.blocks.add(b);
  } else touched.slots.add(p.slot);
}

/**
 * Writes these entries as slot patches, leaving `search_blocks` untouched (unless a block is due
 * to be folded). What the app's single memory writes use. Inside a transaction.
 */
export function patchEntries(db: Db, layout: BlockLayout, entries: BlockEntry[]): Touched {
  const memo = new Map<string, number>();
  readLabelCodes(
    db,
    entries.flatMap((e) => [e.category, e.status ?? '', e.embedder]),
    memo,
  );
  const touched: Touched = { blocks: new Set(), slots: new Set() };
  const st = statements(db);
  for (const e of entries) {
    checkEntry(e, layout);
    const slot = placeEntry(st, e);
    const patch: PatchRow = {
      slot,
      rid: e.rid,
      category: labelCode(db, e.category, memo),
      status: labelCode(db, e.status ?? '', memo),
      embedder: labelCode(db, e.embedder, memo),
      day: e.day,
      code: blob(e.code),
      vector: blob(e.vector),
      norm: e.norm,
    };
    putPatch(db, layout, patch, touched);
  }
  return touched;
}

/** Frees these records' slots with patches (see `patchEntries`). Inside a transaction. */
export function freeEntries(db: Db, layout: BlockLayout | null, rids: number[]): Touched {
  const touched: Touched = { blocks: new Set(), slots: new Set() };
  const empty = Buffer.alloc(0);
  const st = statements(db);
  for (const rid of rids) {
    const slot = takeSlot(st, rid);
    if (slot === null || !layout) continue;
    putPatch(db, layout, { slot, rid: 0, category: 0, status: 0, embedder: 0, day: 0, code: empty, vector: empty, norm: 0 }, touched);
  }
  return touched;
}

/** Folds every patch into its block (before a pass that rewrites the blocks' columns in place). Inside a transaction. */
export function foldAllPatches(db: Db, layout: BlockLayout): Set<number> {
  const blocks = new Map<number, BlockBuf>();
  for (const { b } of stmt(db, 'SELECT DISTINCT slot >> 8 AS b FROM search_slot_patches').all() as { b: number }[]) blocks.set(b, readBlock(db, b, layout));
  saveBlocks(db, blocks);
  return new Set(blocks.keys());
}
