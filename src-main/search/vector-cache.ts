import type { Db } from '../store';
import { popcount32 } from './quantizer';
import { VEC_TABLE } from './vectors';

export interface ScanFilter {
  category: string | null;
  status: string | null;
  sinceDay: number | null;
  /** Only these records (a filter sqlite-vec cannot express, resolved in SQL first). */
  allowed: Set<number> | null;
}

/**
 * An in-memory copy of the vec0 bit codes and their metadata, scanned for hamming-nearest
 * candidates. Why not vec0's own KNN: its top-k selection costs grow with N×k (measured at 100k:
 * k=10 2.8 ms, k=100 14 ms, k=300 44 ms), and good recall needs a few hundred candidates.
 * A JS popcount scan of 100k × 768 bits takes a few ms regardless of k.
 *
 * Consistency: writes mark record ids dirty and they are re-read from the database before the next
 * scan (so a rolled-back write is simply re-read as it was); a commit by another connection
 * (`PRAGMA data_version`) triggers a full reload.
 */
export class VectorCache {
  private loaded = false;
  private dataVersion = -1;
  private words = 0;
  private n = 0;
  private rids = new Int32Array(0);
  private cats = new Uint8Array(0);
  private stats = new Uint16Array(0);
  private days = new Int32Array(0);
  private codes = new Uint32Array(0);
  private readonly slotOf = new Map<number, number>();
  private readonly free: number[] = [];
  private readonly dirty = new Set<number>();
  private readonly catCode = new Map<string, number>();
  private readonly statCode = new Map<string, number>();

  constructor(private readonly db: Db) {}

  /** Called from the write transaction: re-read this record before the next scan. */
  touch(rid: number): void {
    this.dirty.add(rid);
  }

  invalidate(): void {
    this.loaded = false;
  }

  size(): number {
    return this.slotOf.size;
  }

  private code(map: Map<string, number>, key: string): number {
    let c = map.get(key);
    if (c === undefined) {
      c = map.size + 1;
      map.set(key, c);
    }
    return c;
  }

  private refresh(): void {
    const version = this.db.pragma('data_version', { simple: true }) as number;
    if (!this.loaded || version !== this.dataVersion) {
      this.load(version);
      return;
    }
    if (!this.dirty.size) return;
    const get = this.db.prepare(`SELECT rowid, category, status, updated_day, embedding FROM ${VEC_TABLE} WHERE rowid = ?`);
    for (const rid of this.dirty) {
      const row = get.get(BigInt(rid)) as Row | undefined;
      if (row) this.put(row);
      else this.drop(rid);
    }
    this.dirty.clear();
  }

  private load(version: number): void {
    this.slotOf.clear();
    this.free.length = 0;
    this.dirty.clear();
    this.n = 0;
    this.words = 0;
    const rows = this.db.prepare(`SELECT rowid, category, status, updated_day, embedding FROM ${VEC_TABLE}`).iterate() as IterableIterator<Row>;
    for (const row of rows) this.put(row);
    this.loaded = true;
    this.dataVersion = version;
  }

  private ensureCapacity(words: number): void {
    if (this.words === 0) this.words = words;
    if (this.n < this.rids.length) return;
    const cap = Math.max(1024, this.rids.length * 2);
    const grow = <T extends Int32Array | Uint8Array | Uint16Array | Uint32Array>(a: T, size: number): T => {
      const b = new (a.constructor as new (n: number) => T)(size);
      b.set(a);
      return b;
    };
    this.rids = grow(this.rids, cap);
    this.cats = grow(this.cats, cap);
    this.stats = grow(this.stats, cap);
    this.days = grow(this.days, cap);
    this.codes = grow(this.codes, cap * this.words);
  }

  private put(row: Row): void {
    const rid = Number(row.rowid);
    const bytes = row.embedding;
    const words = bytes.byteLength >> 2;
    if (this.words && words !== this.words) {
      this.invalidate();
      return;
    }
    let slot = this.slotOf.get(rid);
    if (slot === undefined) {
      slot = this.free.pop();
      if (slot === undefined) {
        this.ensureCapacity(words);
        slot = this.n++;
      }
      this.slotOf.set(rid, slot);
    }
    this.rids[slot] = rid;
    this.cats[slot] = this.code(this.catCode, row.category);
    this.stats[slot] = this.code(this.statCode, row.status ?? '');
    this.days[slot] = Number(row.updated_day);
    const view = new Uint32Array(this.words);
    new Uint8Array(view.buffer).set(bytes.subarray(0, this.words * 4));
    this.codes.set(view, slot * this.words);
  }

  private drop(rid: number): void {
    const slot = this.slotOf.get(rid);
    if (slot === undefined) return;
    this.slotOf.delete(rid);
    this.rids[slot] = -1;
    this.free.push(slot);
  }

  /** The cached code of one record (after catching up with the database), or null. */
  codeOf(rid: number): Uint8Array | null {
    this.refresh();
    const slot = this.slotOf.get(rid);
    if (slot === undefined) return null;
    return new Uint8Array(this.codes.buffer.slice(slot * this.words * 4, (slot + 1) * this.words * 4));
  }

  /** Record ids of the `count` codes nearest (hamming) to `query`, among rows passing `filter`. */
  nearest(query: Uint8Array, count: number, filter: ScanFilter): number[] {
    this.refresh();
    const W = this.words;
    if (!W || this.n === 0) return [];
    const q = new Uint32Array(W);
    new Uint8Array(q.buffer).set(query.subarray(0, W * 4));
    const cat = filter.category === null ? 0 : (this.catCode.get(filter.category) ?? -1);
    const stat = filter.status === null ? 0 : (this.statCode.get(filter.status) ?? -1);
    if (cat < 0 || stat < 0) return [];
    const since = filter.sinceDay ?? -Infinity;
    const allowed = filter.allowed;
    const n = this.n;
    const { rids, cats, stats, days, codes } = this;
    // Stage 1: the first PREFIX_WORDS words (a shorter SimHash of the same vector) over every row.
    const P = Math.min(PREFIX_WORDS, W);
    const d1 = new Uint16Array(n);
    const hist1 = new Uint32Array(P * 32 + 2);
    const NONE1 = P * 32 + 1;
    let passing = 0;
    for (let i = 0; i < n; i++) {
      if (rids[i] < 0 || (cat && cats[i] !== cat) || (stat && stats[i] !== stat) || days[i] < since || (allowed && !allowed.has(rids[i]))) {
        d1[i] = NONE1;
        continue;
      }
      const o = i * W;
      let d = 0;
      for (let w = 0; w < P; w++) d += popcount32(codes[o + w] ^ q[w]);
      d1[i] = d;
      hist1[d]++;
      passing++;
    }
    // Stage 2: full codes for the best PREFILTER_FACTOR × count of stage 1.
    const keep = Math.min(passing, Math.max(count * PREFILTER_FACTOR, MIN_PREFILTER));
    const th1 = threshold(hist1, keep, NONE1);
    const idx: number[] = [];
    const d2: number[] = [];
    const hist2 = new Uint32Array(W * 32 + 1);
    for (let i = 0; i < n; i++) {
      if (d1[i] > th1 || d1[i] === NONE1) continue;
      const o = i * W;
      let d = d1[i];
      for (let w = P; w < W; w++) d += popcount32(codes[o + w] ^ q[w]);
      idx.push(i);
      d2.push(d);
      hist2[d]++;
    }
    const th2 = threshold(hist2, count, W * 32 + 1);
    const out: number[] = [];
    const atTh: number[] = [];
    for (let j = 0; j < idx.length; j++) {
      if (d2[j] < th2) out.push(rids[idx[j]]);
      else if (d2[j] === th2) atTh.push(rids[idx[j]]);
    }
    for (let j = 0; out.length < count && j < atTh.length; j++) out.push(atTh[j]);
    return out;
  }
}

/** Words (32 bits each) of the code compared in the first pass, and how many rows it keeps per wanted candidate. */
const PREFIX_WORDS = 4;
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

interface Row {
  rowid: number | bigint;
  category: string;
  status: string | null;
  updated_day: number | bigint;
  embedding: Buffer;
}
