import { popcount32 } from './quantizer';
import type { Db } from '../store';
import { HammingScan } from './scan/hamming';

/**
 * Where memory's vectors live: contiguous blocks of BLOCK_SLOTS notes in `search_blocks`
 * (migration 014), each column one packed array — record ids, label codes, update days, SimHash
 * codes, int8 vectors and their norm factors. One row read brings 256 notes, so opening an index
 * of 100,000 notes reads ~400 rows (the per-note rows it replaces took seconds), and int8 vectors
 * cost 384 bytes a note instead of 1,536 for float32.
 *
 * The persistent side (`writeEntries`, `removeEntries`) runs inside the caller's transaction;
 * it reads and rewrites whole blocks, so a batch should be written in one call. The in-memory
 * side (`BlockIndex`) mirrors the table: writes mark their blocks dirty and those are re-read
 * before the next scan (a rolled-back write is simply re-read as it was); a commit by another
 * connection (`PRAGMA data_version`) reloads everything.
 */
export const BLOCK_SLOTS = 256;
const SHIFT = 8; // log2(BLOCK_SLOTS)
/** Three uint16 labels per slot: category, status, embedder. */
const LABELS = 3;

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

export function readLayout(db: Db): BlockLayout | null {
  const get = (key: string) => (db.prepare('SELECT value FROM search_state WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  const dims = Number(get('block_dims'));
  const bits = Number(get('block_bits'));
  return dims > 0 && bits > 0 ? { dims, bits } : null;
}

/** Empties the blocks and sets their layout (a rebuild with an embedder of another size). Inside a transaction. */
export function resetBlocks(db: Db, layout: BlockLayout): void {
  db.prepare('DELETE FROM search_blocks').run();
  db.prepare('DELETE FROM search_free_slots').run();
  db.prepare('UPDATE search_entries SET slot = NULL').run();
  const set = db.prepare('INSERT INTO search_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  set.run('block_dims', String(layout.dims));
  set.run('block_bits', String(layout.bits));
}

interface BlockBuf {
  rids: Int32Array;
  labels: Uint16Array;
  days: Int32Array;
  codes: Uint8Array;
  vectors: Int8Array;
  norms: Float32Array;
}

interface BlockRow {
  block: number;
  rids: Buffer;
  labels: Buffer;
  days: Buffer;
  codes: Buffer;
  vectors: Buffer;
  norms: Buffer;
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

function blockFrom(row: BlockRow | undefined, layout: BlockLayout): BlockBuf {
  return {
    rids: column(Int32Array, BLOCK_SLOTS, row?.rids),
    labels: column(Uint16Array, BLOCK_SLOTS * LABELS, row?.labels),
    days: column(Int32Array, BLOCK_SLOTS, row?.days),
    codes: column(Uint8Array, BLOCK_SLOTS * (layout.bits / 8), row?.codes),
    vectors: column(Int8Array, BLOCK_SLOTS * layout.dims, row?.vectors),
    norms: column(Float32Array, BLOCK_SLOTS, row?.norms),
  };
}

const blob = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** The uint16 code of a label (category, status or embedder id), created on first use. */
function labelCode(db: Db, label: string, memo: Map<string, number>): number {
  let code = memo.get(label);
  if (code !== undefined) return code;
  const row = db.prepare('SELECT code FROM search_labels WHERE label = ?').get(label) as { code: number } | undefined;
  if (row) code = row.code;
  else {
    code = (db.prepare('SELECT coalesce(max(code), 0) + 1 AS c FROM search_labels').get() as { c: number }).c;
    if (code >= 65536) throw new Error('search_labels is full (65,535 distinct categories, statuses and embedders)');
    db.prepare('INSERT INTO search_labels (code, label) VALUES (?, ?)').run(code, label);
  }
  memo.set(label, code);
  return code;
}

/**
 * Writes these entries (and their `search_entries` rows) into their blocks. Call inside a
 * transaction. Returns the blocks touched, for the in-memory index to re-read.
 */
export function writeEntries(db: Db, layout: BlockLayout, entries: BlockEntry[]): Set<number> {
  const codeBytes = layout.bits / 8;
  const getSlot = db.prepare('SELECT slot FROM search_entries WHERE rid = ?');
  const takeFree = db.prepare('DELETE FROM search_free_slots WHERE slot = (SELECT min(slot) FROM search_free_slots) RETURNING slot');
  const lastSlot = db.prepare('SELECT slot FROM search_entries WHERE slot IS NOT NULL ORDER BY slot DESC LIMIT 1');
  const upsert = db.prepare(
    `INSERT INTO search_entries (rid, category, embedder, vector, slot) VALUES (?, ?, ?, x'', ?)
     ON CONFLICT (rid) DO UPDATE SET category = excluded.category, embedder = excluded.embedder, vector = x'', slot = excluded.slot`,
  );
  const memo = new Map<string, number>();
  const blocks = new Map<number, BlockBuf>();
  const readBlock = db.prepare('SELECT * FROM search_blocks WHERE block = ?');
  const bufOf = (b: number) => {
    let buf = blocks.get(b);
    if (!buf) {
      buf = blockFrom(readBlock.get(b) as BlockRow | undefined, layout);
      blocks.set(b, buf);
    }
    return buf;
  };
  for (const e of entries) {
    if (e.code.length !== codeBytes || e.vector.length !== layout.dims) {
      throw new Error(
        `index entry for record ${e.rid} has ${e.vector.length} dims / ${e.code.length * 8} bits; the index holds ${layout.dims} / ${layout.bits}`,
      );
    }
    let slot = (getSlot.get(e.rid) as { slot: number | null } | undefined)?.slot ?? null;
    if (slot === null) {
      slot = (takeFree.get() as { slot: number } | undefined)?.slot ?? ((lastSlot.get() as { slot: number } | undefined)?.slot ?? -1) + 1;
    }
    upsert.run(e.rid, e.category, e.embedder, slot);
    const buf = bufOf(slot >> SHIFT);
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

/** Frees the slots of these records (and deletes their `search_entries` rows). Inside a transaction. */
export function removeEntries(db: Db, layout: BlockLayout | null, rids: number[]): Set<number> {
  const touched = new Map<number, BlockBuf>();
  const getSlot = db.prepare('SELECT slot FROM search_entries WHERE rid = ?');
  const readBlock = db.prepare('SELECT * FROM search_blocks WHERE block = ?');
  for (const rid of rids) {
    const slot = (getSlot.get(rid) as { slot: number | null } | undefined)?.slot ?? null;
    db.prepare('DELETE FROM search_entries WHERE rid = ?').run(rid);
    if (slot === null || !layout) continue;
    const b = slot >> SHIFT;
    let buf = touched.get(b);
    if (!buf) {
      buf = blockFrom(readBlock.get(b) as BlockRow | undefined, layout);
      touched.set(b, buf);
    }
    buf.rids[slot & (BLOCK_SLOTS - 1)] = 0;
    db.prepare('INSERT OR IGNORE INTO search_free_slots (slot) VALUES (?)').run(slot);
  }
  saveBlocks(db, touched);
  return new Set(touched.keys());
}

function saveBlocks(db: Db, blocks: Map<number, BlockBuf>): void {
  const save = db.prepare(
    `INSERT INTO search_blocks (block, rids, labels, days, codes, vectors, norms) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (block) DO UPDATE SET rids = excluded.rids, labels = excluded.labels, days = excluded.days,
       codes = excluded.codes, vectors = excluded.vectors, norms = excluded.norms`,
  );
  for (const [b, x] of blocks) save.run(b, blob(x.rids), blob(x.labels), blob(x.days), blob(x.codes), blob(x.vectors), blob(x.norms));
}

export interface ScanFilter {
  category: string | null;
  status: string | null;
  sinceDay: number | null;
  /** Only these records (a filter the scan cannot express, resolved in SQL first). */
  allowed: Set<number> | null;
  /** Only vectors made by this embedder (others are stale until a rebuild). */
  embedder: string;
}

/**
 * The in-memory copy of the blocks, scanned for candidates (hamming distance of the SimHash codes,
 * in two passes) and rescored with the int8 vectors. Why a JS scan and not vec0's own KNN: its
 * top-k cost grows with N×k (at 100k: k=10 2.8 ms, k=300 44 ms) and good recall needs hundreds of
 * candidates; a popcount pass over 100k codes takes a few ms whatever k is.
 */
export class BlockIndex {
  private loaded = false;
  private dataVersion = -1;
  private layout: BlockLayout | null = null;
  private words = 0;
  private capacity = 0;
  private rids = new Int32Array(0);
  private labels = new Uint16Array(0);
  private days = new Int32Array(0);
  private codes = new Uint32Array(0);
  /** The first PREFIX_WORDS words of every code again, contiguous: the first pass reads 16 bytes a note, not a strided 96. */
  private prefix = new Uint32Array(0);
  private pw = 0;
  private vectors = new Int8Array(0);
  private norms = new Float32Array(0);
  /** Slot + 1 of each record id (0 = none): a typed array indexed by rid, cheaper to fill at start than a Map. */
  private slotByRid = new Int32Array(0);
  private held = 0;
  /** The scan arrays in WebAssembly memory with the SIMD passes, where the codes fit (HammingScan.fits). */
  private scan: HammingScan | null = null;
  private readonly labelCode = new Map<string, number>();
  private readonly dirty = new Set<number>();
  /** Bumped by every full read: a stepwise warm that sees it change was overtaken, and stops. */
  private generation = 0;

  /** simd: false keeps the JS passes (tests compare the two); warmStepBlocks: blocks read per step of `warmInSteps`. */
  constructor(
    private readonly db: Db,
    private readonly options: { simd?: boolean; warmStepBlocks?: number } = {},
  ) {}

  /** Blocks written by the current transaction: re-read them before the next scan. */
  touch(blocks: Iterable<number>): void {
    for (const b of blocks) this.dirty.add(b);
  }

  invalidate(): void {
    this.loaded = false;
  }

  /** Notes held (after catching up with the database). */
  size(): number {
    this.refresh();
    return this.held;
  }

  /** Reads every block now, so the first search does not pay for it. */
  warm(): void {
    this.refresh();
  }

  /**
   * Reads every block as `warm` does, a step of blocks at a time with `pause` between steps, so the
   * app keeps answering while a large memory loads (a million notes take ~2 s to read). A search
   * that arrives meanwhile reads everything at once, as without a warm, and this one stops; writes
   * made between steps are caught up as after any load (their blocks are marked dirty).
   */
  async warmInSteps(pause: () => Promise<void>): Promise<void> {
    const version = this.db.pragma('data_version', { simple: true }) as number;
    if (this.loaded && version === this.dataVersion) return this.refresh();
    const last = this.begin(version);
    const generation = this.generation;
    const step = Math.max(1, this.options.warmStepBlocks ?? WARM_STEP_BLOCKS);
    const read = this.db.prepare('SELECT * FROM search_blocks WHERE block >= ? AND block < ? ORDER BY block');
    for (let b = 0; b <= last; b += step) {
      if (b > 0) {
        await pause();
        if (this.generation !== generation) return;
      }
      for (const row of read.all(b, b + step) as BlockRow[]) this.place(row.block, row);
    }
    if (this.generation === generation) this.loaded = true;
  }

  private refresh(): void {
    const version = this.db.pragma('data_version', { simple: true }) as number;
    if (!this.loaded || version !== this.dataVersion) {
      this.load(version);
      return;
    }
    if (!this.dirty.size) return;
    // The first write of a new index sets the layout, and a rebuild for another size replaces it:
    // then every block is re-read, not only the ones written.
    const layout = readLayout(this.db);
    if (!layout || !this.layout || layout.dims !== this.layout.dims || layout.bits !== this.layout.bits) {
      this.load(version);
      return;
    }
    const read = this.db.prepare('SELECT * FROM search_blocks WHERE block = ?');
    this.readLabels();
    for (const b of this.dirty) this.place(b, read.get(b) as BlockRow | undefined);
    this.dirty.clear();
  }

  private readLabels(): void {
    this.labelCode.clear();
    for (const r of this.db.prepare('SELECT code, label FROM search_labels').all() as { code: number; label: string }[]) this.labelCode.set(r.label, r.code);
  }

  private load(version: number): void {
    if (this.begin(version) >= 0) {
      for (const row of this.db.prepare('SELECT * FROM search_blocks').iterate() as IterableIterator<BlockRow>) this.place(row.block, row);
    }
    this.loaded = true;
  }

  /** Empties the arrays for a full read at `version` and sizes them: returns the last block number (-1: none). */
  private begin(version: number): number {
    this.generation++;
    this.slotByRid = new Int32Array(0);
    this.held = 0;
    this.dirty.clear();
    this.layout = readLayout(this.db);
    this.capacity = 0;
    this.scan = null;
    this.loaded = false;
    this.dataVersion = version;
    this.readLabels();
    if (!this.layout) return -1;
    this.words = this.layout.bits / 32;
    this.pw = Math.min(PREFIX_WORDS, this.words);
    const last = (this.db.prepare('SELECT coalesce(max(block), -1) AS b FROM search_blocks').get() as { b: number }).b;
    this.grow(last + 1);
    return last;
  }

  /** Makes room for `blocks` blocks (doubling, so a growing index copies rarely). */
  private grow(blocks: number): void {
    const need = blocks * BLOCK_SLOTS;
    if (need <= this.capacity) return;
    const cap = Math.max(need, this.capacity * 2, BLOCK_SLOTS);
    const L = this.layout!;
    const g = <T extends Int32Array | Uint16Array | Uint32Array | Int8Array | Float32Array>(a: T, per: number): T => {
      const b = new (a.constructor as new (n: number) => T)(cap * per);
      b.set(a.subarray(0, Math.min(a.length, this.capacity * per)));
      return b;
    };
    const scan = this.options.simd !== false && HammingScan.fits(this.words, this.pw) ? new HammingScan(cap, this.words) : null;
    const h = <T extends Int32Array | Uint16Array | Uint32Array>(a: T, per: number, into: T | undefined): T => {
      if (!into) return g(a, per);
      into.set(a.subarray(0, Math.min(a.length, this.capacity * per)));
      return into;
    };
    this.rids = h(this.rids, 1, scan?.rids);
    this.labels = h(this.labels, LABELS, scan?.labels);
    this.days = h(this.days, 1, scan?.days);
    this.codes = h(this.codes, this.words, scan?.codes);
    this.prefix = h(this.prefix, this.pw, scan?.prefix);
    this.scan = scan;
    this.vectors = g(this.vectors, L.dims);
    this.norms = g(this.norms, 1);
    this.capacity = cap;
  }

  /** Copies one stored block into the arrays (or clears it when the row is gone). */
  private place(b: number, row: BlockRow | undefined): void {
    const L = this.layout;
    if (!L) return;
    this.grow(b + 1);
    const base = b * BLOCK_SLOTS;
    for (let i = 0; i < BLOCK_SLOTS; i++) {
      const old = this.rids[base + i];
      if (old && this.slotByRid[old] === base + i + 1) {
        this.slotByRid[old] = 0;
        this.held--;
      }
    }
    // Straight from the row's bytes into the arrays: one copy per column, no per-block arrays.
    const into = (target: ArrayBufferView, perSlot: number, from: Buffer | undefined) => {
      const bytes = BLOCK_SLOTS * perSlot;
      const view = new Uint8Array(target.buffer, target.byteOffset + base * perSlot, bytes);
      if (from && from.byteLength >= bytes) view.set(from.subarray(0, bytes));
      else view.fill(0);
    };
    into(this.rids, 4, row?.rids);
    into(this.labels, LABELS * 2, row?.labels);
    into(this.days, 4, row?.days);
    into(this.codes, this.words * 4, row?.codes);
    const P = this.pw;
    const W = this.words;
    for (let i = base; i < base + BLOCK_SLOTS; i++) for (let w = 0; w < P; w++) this.prefix[i * P + w] = this.codes[i * W + w];
    into(this.vectors, L.dims, row?.vectors);
    into(this.norms, 4, row?.norms);
    for (let i = base; i < base + BLOCK_SLOTS; i++) {
      const rid = this.rids[i];
      if (!rid) continue;
      if (rid >= this.slotByRid.length) {
        const grown = new Int32Array(Math.max(rid + 1, this.slotByRid.length * 2, 1024));
        grown.set(this.slotByRid);
        this.slotByRid = grown;
      }
      if (!this.slotByRid[rid]) this.held++;
      this.slotByRid[rid] = i + 1;
    }
  }

  /**
   * The `count` entries nearest to the query code (hamming), among those passing `filter`, as
   * slots. Pass one: the first PREFIX_WORDS words of every code (a shorter SimHash of the same
   * vector); pass two: full codes for the best PREFILTER_FACTOR × count of pass one.
   */
  nearest(query: Uint8Array, count: number, filter: ScanFilter): number[] {
    this.refresh();
    const W = this.words;
    const n = this.capacity;
    if (!W || !n || !this.held || query.length < W * 4) return [];
    const q = new Uint32Array(W);
    new Uint8Array(q.buffer).set(query.subarray(0, W * 4));
    const cat = filter.category === null ? 0 : (this.labelCode.get(filter.category) ?? -1);
    const stat = filter.status === null ? 0 : (this.labelCode.get(filter.status) ?? -1);
    const emb = this.labelCode.get(filter.embedder) ?? -1;
    if (cat < 0 || stat < 0 || emb < 0) return [];
    const P = this.pw;
    const NONE = P * 32 + 1;
    const since = filter.sinceDay ?? -2147483648;
    // The SIMD passes take every filter but an explicit set of allowed records.
    const scan = filter.allowed === null ? this.scan : null;
    let d1: Uint16Array;
    let hist1: Uint32Array;
    let passing: number;
    if (scan) ({ d1, hist: hist1, passing } = scan.prefixPass(q, { emb, cat, stat, since }, n, NONE));
    else {
      d1 = new Uint16Array(n);
      hist1 = new Uint32Array(NONE + 1);
      passing = prefixPass(
        { capacity: n, pw: P, prefix: this.prefix, rids: this.rids, labels: this.labels, days: this.days },
        q,
        { emb, cat, stat, since, allowed: filter.allowed },
        d1,
        hist1,
      );
    }
    const keep = Math.min(passing, Math.max(count * PREFILTER_FACTOR, MIN_PREFILTER));
    const th1 = threshold(hist1, keep, NONE);
    let kept: number;
    let idx: Int32Array;
    let d2: Uint16Array;
    let hist2: Uint32Array;
    if (scan) ({ kept, idx, d2, hist: hist2 } = scan.fullPass(n, Math.min(th1, NONE - 1)));
    else {
      kept = 0;
      for (let d = 0; d <= th1 && d < NONE; d++) kept += hist1[d];
      idx = new Int32Array(kept);
      d2 = new Uint16Array(kept);
      hist2 = new Uint32Array(W * 32 + 1);
      fullPass(this.codes, n, P, W, q, d1, Math.min(th1, NONE - 1), idx, d2, hist2);
    }
    const th2 = threshold(hist2, count, W * 32 + 1);
    const out: number[] = [];
    const atTh: number[] = [];
    for (let j = 0; j < kept; j++) {
      if (d2[j] < th2) out.push(idx[j]);
      else if (d2[j] === th2) atTh.push(idx[j]);
    }
    for (let j = 0; out.length < count && j < atTh.length; j++) out.push(atTh[j]);
    return out;
  }

  private slotFor(rid: number): number {
    return rid > 0 && rid < this.slotByRid.length ? this.slotByRid[rid] - 1 : -1;
  }

  /** The SimHash code held in memory for a record (after catching up with the database), or null. */
  codeOf(rid: number): Uint8Array | null {
    this.refresh();
    const s = this.slotFor(rid);
    if (s < 0) return null;
    return new Uint8Array(this.codes.slice(s * this.words, (s + 1) * this.words).buffer);
  }

  /** Cosine of a float query with each slot's int8 vector, as [record id, cosine]. */
  scoreSlots(query: Float32Array, slots: number[]): [number, number][] {
    const D = this.layout?.dims ?? 0;
    if (query.length !== D) return [];
    const { vectors, norms, rids } = this;
    const out: [number, number][] = new Array(slots.length);
    const tail = D & 3;
    for (let k = 0; k < slots.length; k++) {
      const s = slots[k];
      const o = s * D;
      // Four partial sums: fewer dependent adds per step, ~2× faster than one running sum here.
      let d0 = 0;
      let d1 = 0;
      let d2 = 0;
      let d3 = 0;
      let j = 0;
      for (; j < D - tail; j += 4) {
        d0 += query[j] * vectors[o + j];
        d1 += query[j + 1] * vectors[o + j + 1];
        d2 += query[j + 2] * vectors[o + j + 2];
        d3 += query[j + 3] * vectors[o + j + 3];
      }
      for (; j < D; j++) d0 += query[j] * vectors[o + j];
      out[k] = [rids[s], (d0 + d1 + d2 + d3) * norms[s]];
    }
    return out;
  }

  /** Cosine for these records, where they hold a vector made by `embedder` (others are left out). */
  scoreRecords(query: Float32Array, rids: number[], embedder: string): [number, number][] {
    this.refresh();
    const emb = this.labelCode.get(embedder);
    if (emb === undefined) return [];
    const slots: number[] = [];
    for (const rid of rids) {
      const s = this.slotFor(rid);
      if (s >= 0 && this.labels[s * LABELS + 2] === emb) slots.push(s);
    }
    return this.scoreSlots(query, slots);
  }
}

interface PassFilter {
  emb: number;
  cat: number;
  stat: number;
  since: number;
  allowed: Set<number> | null;
}

/**
 * Pass one of `nearest`: the prefix distance of every note passing the filter (NONE for the others),
 * counted into `hist`. Its own small function over typed arrays, so V8 keeps it optimised.
 */
function prefixPass(
  ix: { capacity: number; pw: number; prefix: Uint32Array; rids: Int32Array; labels: Uint16Array; days: Int32Array },
  q: Uint32Array,
  f: PassFilter,
  d1: Uint16Array,
  hist: Uint32Array,
): number {
  const { capacity: n, pw: P, prefix, rids, labels, days } = ix;
  const NONE = P * 32 + 1;
  const { emb, cat, stat, since, allowed } = f;
  let passing = 0;
  for (let i = 0; i < n; i++) {
    const l = i * LABELS;
    if (
      rids[i] === 0 ||
      labels[l + 2] !== emb ||
      (cat !== 0 && labels[l] !== cat) ||
      (stat !== 0 && labels[l + 1] !== stat) ||
      days[i] < since ||
      (allowed !== null && !allowed.has(rids[i]))
    ) {
      d1[i] = NONE;
      continue;
    }
    const o = i * P;
    let d = 0;
    for (let w = 0; w < P; w++) d += popcount32(prefix[o + w] ^ q[w]);
    d1[i] = d;
    hist[d]++;
    passing++;
  }
  return passing;
}

/** Pass two: full distances of the notes within `th1` after pass one, into `idx`/`d2`, counted into `hist`. */
function fullPass(
  codes: Uint32Array,
  n: number,
  P: number,
  W: number,
  q: Uint32Array,
  d1: Uint16Array,
  th1: number,
  idx: Int32Array,
  d2: Uint16Array,
  hist: Uint32Array,
): void {
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (d1[i] > th1) continue;
    const o = i * W;
    let d = d1[i];
    for (let w = P; w < W; w++) d += popcount32(codes[o + w] ^ q[w]);
    idx[k] = i;
    d2[k++] = d;
    hist[d]++;
  }
}

/** Words (32 bits each) of the code compared in the first pass, and how many rows it keeps per wanted candidate. */
const PREFIX_WORDS = 4;
/** Blocks read per step of a background warm: 4,096 notes, ~1.8 MB, a few milliseconds. */
const WARM_STEP_BLOCKS = 16;
const PREFILTER_FACTOR = 20;
const MIN_PREFILTER = 2000;

/** Smallest distance whose cumulative count reaches `count` (counting select, no sort). */
function threshold(hist: Uint32Array, count: number, limit: number): number {
  let acc = 0;
  let th = 0;
  for (; th < limit; th++) {
    acc += hist[th];
    if (acc >= count) break;
  }
  return th;
}
