import type { Statement } from 'better-sqlite3';
import type { Db } from '../store';

/**
 * How memory's vectors are laid out on disk: contiguous blocks of BLOCK_SLOTS notes in
 * `search_blocks` (migration 014), each column one packed array — record ids, label codes, update
 * days, SimHash codes, int8 vectors and their norm factors — plus single-slot patches in
 * `search_slot_patches` (migration 018) that override their block's slot until folded in.
 * Shared by the writers (block-writes.ts) and the in-memory index (block-store.ts).
 */
export const BLOCK_SLOTS = 256;
export const SHIFT = 8; // log2(BLOCK_SLOTS)
/** Three uint16 labels per slot: category, status, embedder. */
export const LABELS = 3;

/** One note's index entry, quantised (see `quantizeInt8`). */
export interface BlockEntry {
  rid: number;
  category: string;
  status: string | null;
  /** Days since the epoch of the record's last update (filters `since:`). */
  day: number;
  embedder: string;
  /** Packed SimHash bits, `bits / 8` bytes. */
  code: Uint8Array;
  vector: Int8Array;
  /** 1 / ‖vector‖, so a float query's dot product with `vector` times `norm` is a cosine. */
  norm: number;
}

/** The size of every block's columns: fixed per index, changed only by a full rebuild. */
export interface BlockLayout {
  dims: number;
  bits: number;
}

/** A row of `search_blocks`. */
export interface BlockRow {
  block: number;
  rids: Buffer;
  labels: Buffer;
  days: Buffer;
  codes: Buffer;
  vectors: Buffer;
  norms: Buffer;
}

/** A row of `search_slot_patches`: one slot's columns (rid 0 = freed). */
export interface PatchRow {
  slot: number;
  rid: number;
  category: number;
  status: number;
  embedder: number;
  day: number;
  code: Buffer;
  vector: Buffer;
  norm: number;
}

/** The patches of slots [from, to), in slot order (a block's: from = block × BLOCK_SLOTS). */
export const PATCHES_IN_RANGE = 'SELECT * FROM search_slot_patches WHERE slot >= ? AND slot < ? ORDER BY slot';

/**
 * Symmetric int8 quantisation of a (unit) vector: components scaled so the largest is ±127. The
 * norm factor is taken from the rounded vector, so the stored direction's cosine is exact; only the
 * direction moves, by at most half a step per component.
 */
export function quantizeInt8(v: Float32Array): { vector: Int8Array; norm: number } {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]));
  const out = new Int8Array(v.length);
  if (max === 0) return { vector: out, norm: 0 };
  const k = 127 / max;
  let sq = 0;
  for (let i = 0; i < v.length; i++) {
    const q = Math.round(v[i] * k);
    out[i] = q;
    sq += q * q;
  }
  return { vector: out, norm: sq ? 1 / Math.sqrt(sq) : 0 };
}

const prepared = new WeakMap<Db, Map<string, Statement>>();

/**
 * The connection's prepared statement for `sql`, prepared once: a single memory write runs a dozen
 * index statements, and preparing each anew cost more than running it. Keyed by connection (a
 * closed one is dropped with it), so two workspaces open side by side never share one.
 */
export function stmt(db: Db, sql: string): Statement {
  let byDb = prepared.get(db);
  if (!byDb) {
    byDb = new Map();
    prepared.set(db, byDb);
  }
  let st = byDb.get(sql);
  if (!st) {
    st = db.prepare(sql);
    byDb.set(sql, st);
  }
  return st;
}

export function readLayout(db: Db): BlockLayout | null {
  // One statement for both keys: on a desk every statement is a round trip, and a write reads this.
  const rows = stmt(db, "SELECT key, value FROM search_state WHERE key IN ('block_dims', 'block_bits')").all() as { key: string; value: string }[];
  const get = (key: string) => rows.find((r) => r.key === key)?.value;
  const dims = Number(get('block_dims'));
  const bits = Number(get('block_bits'));
  return dims > 0 && bits > 0 ? { dims, bits } : null;
}

/** Empties the blocks and sets their layout (a rebuild with an embedder of another size). Inside a transaction. */
export function resetBlocks(db: Db, layout: BlockLayout): void {
  db.prepare('DELETE FROM search_blocks').run();
  db.prepare('DELETE FROM search_slot_patches').run();
  db.prepare('DELETE FROM search_free_slots').run();
  db.prepare('UPDATE search_entries SET slot = NULL').run();
  const set = db.prepare('INSERT INTO search_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  set.run('block_dims', String(layout.dims));
  set.run('block_bits', String(layout.bits));
}

/** One block's columns as typed arrays, for the writers. */
export interface BlockBuf {
  rids: Int32Array;
  labels: Uint16Array;
  days: Int32Array;
  codes: Uint8Array;
  vectors: Int8Array;
  norms: Float32Array;
}

/** Copies a stored column into a fresh typed array (blobs are not aligned for direct views). */
function column<T extends Int32Array | Uint16Array | Uint8Array | Int8Array | Float32Array>(
  Ctor: new (n: number) => T,
  length: number,
  blob: Buffer | undefined,
): T {
  const out = new Ctor(length);
  if (blob) new Uint8Array(out.buffer).set(blob.subarray(0, out.byteLength));
  return out;
}

export function blockFrom(row: BlockRow | undefined, layout: BlockLayout): BlockBuf {
  return {
    rids: column(Int32Array, BLOCK_SLOTS, row?.rids),
    labels: column(Uint16Array, BLOCK_SLOTS * LABELS, row?.labels),
    days: column(Int32Array, BLOCK_SLOTS, row?.days),
    codes: column(Uint8Array, BLOCK_SLOTS * (layout.bits / 8), row?.codes),
    vectors: column(Int8Array, BLOCK_SLOTS * layout.dims, row?.vectors),
    norms: column(Float32Array, BLOCK_SLOTS, row?.norms),
  };
}

/**
 * Applies a patch to its block's columns. A freed slot clears only the record id, as a whole-block
 * delete does: the scan skips slots whose id is 0, whatever the other columns hold.
 */
export function applyPatch(buf: BlockBuf, p: PatchRow, layout: BlockLayout): void {
  const i = p.slot & (BLOCK_SLOTS - 1);
  buf.rids[i] = p.rid;
  if (!p.rid) return;
  const codeBytes = layout.bits / 8;
  buf.labels[i * LABELS] = p.category;
  buf.labels[i * LABELS + 1] = p.status;
  buf.labels[i * LABELS + 2] = p.embedder;
  buf.days[i] = p.day;
  buf.codes.set(p.code.subarray(0, codeBytes), i * codeBytes);
  buf.vectors.set(new Int8Array(p.vector.buffer, p.vector.byteOffset, Math.min(p.vector.byteLength, layout.dims)), i * layout.dims);
  buf.norms[i] = p.norm;
}

export const blob = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** The uint16 code of a label (category, status or embedder id), created on first use. */
/**
 * Reads the codes of these labels into `memo` in one statement (what labelCode would read one by
 * one); labels not stored yet are left for labelCode to add.
 */
export function readLabelCodes(db: Db, labels: Iterable<string>, memo: Map<string, number>): void {
  const wanted = [...new Set(labels)].filter((l) => !memo.has(l));
  if (!wanted.length) return;
  const marks = wanted.map(() => '?').join(', ');
  for (const r of stmt(db, `SELECT code, label FROM search_labels WHERE label IN (${marks})`).all(...wanted) as { code: number; label: string }[]) {
    memo.set(r.label, r.code);
  }
}

export function labelCode(db: Db, label: string, memo: Map<string, number>): number {
  let code = memo.get(label);
  if (code !== undefined) return code;
  const row = stmt(db, 'SELECT code FROM search_labels WHERE label = ?').get(label) as { code: number } | undefined;
  if (row) code = row.code;
  else {
    code = (db.prepare('SELECT coalesce(max(code), 0) + 1 AS c FROM search_labels').get() as { c: number }).c;
    if (code >= 65536) throw new Error('search_labels is full (65,535 distinct categories, statuses and embedders)');
    db.prepare('INSERT INTO search_labels (code, label) VALUES (?, ?)').run(code, label);
  }
  memo.set(label, code);
  return code;
}
