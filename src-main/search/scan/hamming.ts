import { dotFits } from './dots';
import { HAMMING_WASM } from './hamming-wasm';

/**
 * The block index's scan arrays inside one WebAssembly memory, with the two hamming passes of
 * `BlockIndex.nearest` run as SIMD code over them (hamming.wat): 128 bits a step where the JS
 * passes do 32, about twice as fast over 100,000 codes. A new memory is made for each capacity
 * (the index grows by doubling), so the typed arrays handed out are never detached by a grow.
 */

/** Words (32 bits) of the prefix the SIMD pass compares: exactly one 128-bit lane. */
const LANE_WORDS = 4;
const LABELS = 3;

/** The part of the WebAssembly API used here (Node's type definitions declare no values for it). */
interface Wasm {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
  Memory: new (d: { initial: number }) => { buffer: ArrayBuffer };
}
const wasm = (globalThis as unknown as { WebAssembly?: Wasm }).WebAssembly;

let compiled: object | null | undefined;

function module(): object | null {
  if (compiled === undefined) {
    const bytes = Buffer.from(HAMMING_WASM, 'base64');
    // A runtime without WebAssembly SIMD fails validation: the JS passes are used instead.
    compiled = wasm?.validate(bytes) ? new wasm.Module(bytes) : null;
  }
  return compiled;
}

export interface ScanFilterCodes {
  emb: number;
  cat: number;
  stat: number;
  since: number;
}

interface Exports {
  prefixPass(...args: number[]): number;
  fullPass(...args: number[]): number;
  dotPass(...args: number[]): number;
}

/** Candidates rescored per call of dotPass (more are done in several calls). */
const DOT_CHUNK = 4096;

export class HammingScan {
  readonly rids: Int32Array<ArrayBuffer>;
  readonly labels: Uint16Array<ArrayBuffer>;
  readonly days: Int32Array<ArrayBuffer>;
  readonly codes: Uint32Array<ArrayBuffer>;
  readonly prefix: Uint32Array<ArrayBuffer>;
  /** The int8 vectors (dims a slot), when dims suits the SIMD rescoring (dotFits); else null and they live in JS. */
  readonly vectors: Int8Array<ArrayBuffer> | null;
  private readonly q: Uint32Array<ArrayBuffer>;
  private readonly d1: Uint16Array<ArrayBuffer>;
  private readonly hist1: Uint32Array<ArrayBuffer>;
  private readonly idx: Int32Array<ArrayBuffer>;
  private readonly d2: Uint16Array<ArrayBuffer>;
  private readonly hist2: Uint32Array<ArrayBuffer>;
  private readonly dotSlots: Int32Array<ArrayBuffer>;
  private readonly dotQ: Int16Array<ArrayBuffer>;
  private readonly dotOut: Int32Array<ArrayBuffer>;
  private readonly at: Record<
    'rids' | 'labels' | 'days' | 'codes' | 'prefix' | 'q' | 'd1' | 'hist1' | 'idx' | 'd2' | 'hist2' | 'vectors' | 'dotSlots' | 'dotQ' | 'dotOut',
    number
  >;
  private readonly fn: Exports;

  /** Whether codes of `words` words with a `prefixWords`-word first pass can use the SIMD scan here. */
  static fits(words: number, prefixWords: number): boolean {
    return prefixWords === LANE_WORDS && words % LANE_WORDS === 0 && words >= 2 * LANE_WORDS && words <= 32 * LANE_WORDS && module() !== null;
  }

  /** The scan's memory for this capacity, or null (use the JS passes) where WebAssembly cannot address that much. */
  static create(capacity: number, words: number, dims: number): HammingScan | null {
    try {
      return new HammingScan(capacity, words, dims);
    } catch (e) {
      if (e instanceof RangeError) return null;
      throw e;
    }
  }

  /** Throws a RangeError when the memory cannot be had (a capacity beyond what WebAssembly addresses): use the JS passes then. */
  constructor(
    readonly capacity: number,
    readonly words: number,
    readonly dims = 0,
  ) {
    const vectorDims = dotFits(dims) ? dims : 0;
    const sizes = {
      prefix: capacity * LANE_WORDS * 4,
      codes: capacity * words * 4,
      rids: capacity * 4,
      labels: capacity * LABELS * 2,
      days: capacity * 4,
      q: words * 4,
      d1: capacity * 2,
      hist1: (LANE_WORDS * 32 + 2) * 4,
      idx: capacity * 4,
      d2: capacity * 2,
      hist2: (words * 32 + 1) * 4,
      vectors: capacity * vectorDims,
      dotSlots: DOT_CHUNK * 4,
      dotQ: vectorDims * 2,
      dotOut: DOT_CHUNK * 4,
    };
    let end = 0;
    const at = {} as HammingScan['at'];
    for (const [name, bytes] of Object.entries(sizes) as [keyof typeof sizes, number][]) {
      at[name] = end;
      end += Math.ceil(bytes / 16) * 16; // v128 loads want 16-byte alignment
    }
    this.at = at;
    const memory = new wasm!.Memory({ initial: Math.max(1, Math.ceil(end / 65536)) });
    const instance = new wasm!.Instance(module()!, { env: { memory } });
    this.fn = instance.exports as unknown as Exports;
    const buf = memory.buffer;
    this.prefix = new Uint32Array(buf, at.prefix, capacity * LANE_WORDS);
    this.codes = new Uint32Array(buf, at.codes, capacity * words);
    this.rids = new Int32Array(buf, at.rids, capacity);
    this.labels = new Uint16Array(buf, at.labels, capacity * LABELS);
    this.days = new Int32Array(buf, at.days, capacity);
    this.q = new Uint32Array(buf, at.q, words);
    this.d1 = new Uint16Array(buf, at.d1, capacity);
    this.hist1 = new Uint32Array(buf, at.hist1, LANE_WORDS * 32 + 2);
    this.idx = new Int32Array(buf, at.idx, capacity);
    this.d2 = new Uint16Array(buf, at.d2, capacity);
    this.hist2 = new Uint32Array(buf, at.hist2, words * 32 + 1);
    this.vectors = vectorDims ? new Int8Array(buf, at.vectors, capacity * vectorDims) : null;
    this.dotSlots = new Int32Array(buf, at.dotSlots, DOT_CHUNK);
    this.dotQ = new Int16Array(buf, at.dotQ, vectorDims);
    this.dotOut = new Int32Array(buf, at.dotOut, DOT_CHUNK);
  }

  /** The integer dot products of the int16 query with the vectors of `slots` (see dots.ts); only when `vectors` is set. */
  dots(q: Int16Array, slots: ArrayLike<number>): Int32Array {
    const out = new Int32Array(slots.length);
    this.dotQ.set(q);
    const a = this.at;
    for (let from = 0; from < slots.length; from += DOT_CHUNK) {
      const n = Math.min(DOT_CHUNK, slots.length - from);
      for (let k = 0; k < n; k++) this.dotSlots[k] = slots[from + k];
      this.fn.dotPass(n, a.dotSlots, a.vectors, this.dims, a.dotQ, a.dotOut);
      out.set(this.dotOut.subarray(0, n), from);
    }
    return out;
  }

  /** Pass one over the first `n` slots (see prefixPass in block-store.ts): prefix distances and their histogram. */
  prefixPass(query: Uint32Array, f: ScanFilterCodes, n: number, none: number): { passing: number; d1: Uint16Array; hist: Uint32Array } {
    this.q.set(query.subarray(0, this.words));
    this.hist1.fill(0);
    const a = this.at;
    const passing = this.fn.prefixPass(n, a.prefix, a.rids, a.labels, a.days, a.q, f.emb, f.cat, f.stat, f.since, a.d1, a.hist1, none);
    return { passing, d1: this.d1, hist: this.hist1 };
  }

  /** Pass two (see fullPass in block-store.ts): full distances of the slots within `th1` after pass one. */
  fullPass(n: number, th1: number): { kept: number; idx: Int32Array; d2: Uint16Array; hist: Uint32Array } {
    this.hist2.fill(0);
    const a = this.at;
    const kept = this.fn.fullPass(n, a.codes, this.words / LANE_WORDS, a.q, a.d1, th1, a.idx, a.d2, a.hist2);
    return { kept, idx: this.idx, d2: this.d2, hist: this.hist2 };
  }
}
