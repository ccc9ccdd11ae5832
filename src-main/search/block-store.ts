import type { Db } from '../store';
import { BlockChangeLog } from './block-changes';
import { dotsJs, quantizeQuery } from './scan/dots';
import { HammingScan } from './scan/hamming';
import { fullPass, prefixPass, threshold } from './scan/js-passes';
import { BLOCK_SLOTS, type BlockLayout, type BlockRow, LABELS, PATCHES_IN_RANGE, type PatchRow, readLayout, SHIFT } from './block-format';

/**
 * Where memory's vectors live (block-format.ts): contiguous blocks of BLOCK_SLOTS notes in
 * `search_blocks`, each column one packed array, plus single-slot patches over them. One row read
 * brings 256 notes, so opening an index of 100,000 notes reads ~400 rows (the per-note rows it
 * replaces took seconds), and int8 vectors cost 384 bytes a note instead of 1,536 for float32.
 *
 * The persistent side (block-writes.ts) runs inside the caller's transaction: batches rewrite
 * whole blocks, a single note writes one slot's patch. The in-memory side (`BlockIndex`) mirrors
 * the tables: writes mark their blocks or slots dirty and those are re-read before the next scan
 * (a rolled-back write is simply re-read as it was). Another connection's commits: on a desk,
 * only the blocks it changed are re-read; on SQLite everything is (block-changes.ts).
 */
export { BLOCK_SLOTS, type BlockEntry, type BlockLayout, quantizeInt8, readLayout, resetBlocks, stmt } from './block-format';
export { foldAllPatches, freeEntries, PATCHES_PER_BLOCK, patchEntries, removeEntries, type Touched, writeEntries } from './block-writes';

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
  private readonly changes: BlockChangeLog;
  /** Rows read (blocks and patches) since this index was made (tests: an unrelated commit must read none). */
  private reads = 0;
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
  /** Slots patched by the current transaction (their blocks are re-read only when the patch is gone). */
  private readonly dirtySlots = new Set<number>();
  /** Bumped by every full read: a stepwise warm that sees it change was overtaken, and stops. */
  private generation = 0;

  /** simd: false keeps the JS passes (tests compare the two); warmStepBlocks: blocks read per step of `warmInSteps`. */
  constructor(
    private readonly db: Db,
    private readonly options: { simd?: boolean; warmStepBlocks?: number } = {},
  ) {
    this.changes = new BlockChangeLog(db);
  }

  /** Blocks (and single slots) written by the current transaction: re-read them before the next scan. */
  touch(blocks: Iterable<number>, slots: Iterable<number> = []): void {
    for (const b of blocks) this.dirty.add(b);
    for (const s of slots) this.dirtySlots.add(s);
  }

  /** Rows read so far, blocks and patches (a full load reads them all; catching up, the changed ones). */
  get rowsRead(): number {
    return this.reads;
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
    if (this.loaded && !this.changes.mustReadAll()) return this.refresh();
    const last = this.begin();
    const generation = this.generation;
    const step = Math.max(1, this.options.warmStepBlocks ?? WARM_STEP_BLOCKS);
    const read = this.db.prepare('SELECT * FROM search_blocks WHERE block >= ? AND block < ? ORDER BY block');
    const patches = this.db.prepare(PATCHES_IN_RANGE);
    for (let b = 0; b <= last; b += step) {
      if (b > 0) {
        await pause();
        if (this.generation !== generation) return;
      }
      for (const row of read.all(b, b + step) as BlockRow[]) this.place(row.block, row);
      for (const p of patches.all(b * BLOCK_SLOTS, (b + step) * BLOCK_SLOTS) as PatchRow[]) this.placePatch(p);
    }
    if (this.generation === generation) this.loaded = true;
  }

  private refresh(): void {
    if (!this.loaded || !this.changes.catchUp(this.dirty, this.dirtySlots)) {
      this.load();
      return;
    }
    if (!this.dirty.size && !this.dirtySlots.size) return;
    // The first write of a new index sets the layout, and a rebuild for another size replaces it:
    // then every block is re-read, not only the ones written.
    const layout = readLayout(this.db);
    if (!layout || !this.layout || layout.dims !== this.layout.dims || layout.bits !== this.layout.bits) {
      this.load();
      return;
    }
    this.readLabels();
    // A patched slot reads its one row; a slot whose patch is gone (rolled back, or folded into its
    // block) reads its block again.
    const patch = this.db.prepare('SELECT * FROM search_slot_patches WHERE slot = ?');
    for (const s of this.dirtySlots) {
      if (this.dirty.has(s >> SHIFT)) continue;
      const p = patch.get(s) as PatchRow | undefined;
      if (p) this.placePatch(p);
      else this.dirty.add(s >> SHIFT);
    }
    this.dirtySlots.clear();
    if (!this.dirty.size) return;
    const read = this.db.prepare('SELECT * FROM search_blocks WHERE block = ?');
    const patches = this.db.prepare(PATCHES_IN_RANGE);
    for (const b of this.dirty) {
      this.place(b, read.get(b) as BlockRow | undefined);
      for (const p of patches.all(b * BLOCK_SLOTS, (b + 1) * BLOCK_SLOTS) as PatchRow[]) this.placePatch(p);
    }
    this.dirty.clear();
  }

  private readLabels(): void {
    this.labelCode.clear();
    for (const r of this.db.prepare('SELECT code, label FROM search_labels').all() as { code: number; label: string }[]) this.labelCode.set(r.label, r.code);
  }

  private load(): void {
    if (this.begin() >= 0) {
      for (const row of this.db.prepare('SELECT * FROM search_blocks').iterate() as IterableIterator<BlockRow>) this.place(row.block, row);
      for (const p of this.db.prepare('SELECT * FROM search_slot_patches').iterate() as IterableIterator<PatchRow>) this.placePatch(p);
    }
    this.loaded = true;
  }

  /** Empties the arrays for a full read and sizes them: returns the last block number (-1: none). */
  private begin(): number {
    this.generation++;
    this.slotByRid = new Int32Array(0);
    this.held = 0;
    this.dirty.clear();
    this.dirtySlots.clear();
    this.layout = readLayout(this.db);
    this.capacity = 0;
    this.scan = null;
    this.loaded = false;
    this.changes.mark();
    this.readLabels();
    if (!this.layout) return -1;
    this.words = this.layout.bits / 32;
    this.pw = Math.min(PREFIX_WORDS, this.words);
    // A block may so far exist only as patches (a new block filled by single writes).
    const last = (
      this.db
        .prepare('SELECT max((SELECT coalesce(max(block), -1) FROM search_blocks), (SELECT coalesce(max(slot) >> 8, -1) FROM search_slot_patches)) AS b')
        .get() as { b: number }
    ).b;
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
    const scan = this.options.simd !== false && HammingScan.fits(this.words, this.pw) ? HammingScan.create(cap, this.words, L.dims) : null;
    const h = <T extends Int32Array | Uint16Array | Uint32Array | Int8Array>(a: T, per: number, into: T | null | undefined): T => {
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
    this.vectors = h(this.vectors, L.dims, scan?.vectors);
    this.norms = g(this.norms, 1);
    this.capacity = cap;
  }

  /** Copies one stored block into the arrays (or clears it when the row is gone). */
  private place(b: number, row: BlockRow | undefined): void {
    const L = this.layout;
    if (!L) return;
    this.grow(b + 1);
    this.reads++;
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
    for (let i = base; i < base + BLOCK_SLOTS; i++) if (this.rids[i]) this.mapRid(this.rids[i], i);
  }

  /** Copies one slot's patch into the arrays over its block's copy (rid 0: the slot is free). */
  private placePatch(p: PatchRow): void {
    const L = this.layout;
    if (!L) return;
    const s = p.slot;
    this.grow((s >> SHIFT) + 1);
    this.reads++;
    const old = this.rids[s];
    if (old && this.slotByRid[old] === s + 1) {
      this.slotByRid[old] = 0;
      this.held--;
    }
    this.rids[s] = p.rid;
    if (!p.rid) return;
    this.labels[s * LABELS] = p.category;
    this.labels[s * LABELS + 1] = p.status;
    this.labels[s * LABELS + 2] = p.embedder;
    this.days[s] = p.day;
    const W = this.words;
    new Uint8Array(this.codes.buffer, this.codes.byteOffset + s * W * 4, W * 4).set(p.code.subarray(0, W * 4));
    for (let w = 0; w < this.pw; w++) this.prefix[s * this.pw + w] = this.codes[s * W + w];
    this.vectors.set(new Int8Array(p.vector.buffer, p.vector.byteOffset, L.dims), s * L.dims);
    this.norms[s] = p.norm;
    this.mapRid(p.rid, s);
  }

  private mapRid(rid: number, slot: number): void {
    if (rid >= this.slotByRid.length) {
      const grown = new Int32Array(Math.max(rid + 1, this.slotByRid.length * 2, 1024));
      grown.set(this.slotByRid);
      this.slotByRid = grown;
    }
    if (!this.slotByRid[rid]) this.held++;
    this.slotByRid[rid] = slot + 1;
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

  /** Cosine of a float query (rounded to int16: scan/dots.ts) with each slot's int8 vector, as [record id, cosine]. */
  scoreSlots(query: Float32Array, slots: number[]): [number, number][] {
    const D = this.layout?.dims ?? 0;
    if (query.length !== D) return [];
    const { vectors, norms, rids } = this;
    const { q, scale } = quantizeQuery(query);
    if (!scale) return slots.map((s) => [rids[s], 0]);
    const dots = this.scan?.vectors ? this.scan.dots(q, slots) : dotsJs(vectors, D, q, slots);
    const out: [number, number][] = new Array(slots.length);
    for (let k = 0; k < slots.length; k++) out[k] = [rids[slots[k]], (dots[k] / scale) * norms[slots[k]]];
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

/** Words (32 bits each) of the code compared in the first pass, and how many rows it keeps per wanted candidate. */
const PREFIX_WORDS = 4;
/** Blocks read per step of a background warm: 4,096 notes, ~1.8 MB, a few milliseconds. */
const WARM_STEP_BLOCKS = 16;
const PREFILTER_FACTOR = 20;
const MIN_PREFILTER = 2000;
