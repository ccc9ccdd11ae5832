import { type Db, engineOf } from '../store';

/**
 * An in-memory copy of the broker-note passage vectors (`research_passage_vectors`) of one
 * embedder, scanned by brute force. Measured at 5,000 passages (bench/research-search.ts): reading
 * the blobs from SQLite on every query cost ~25 ms, the float scan itself a few ms.
 *
 * Consistency: the copy is reloaded when the research index wrote passages or vectors in this
 * process (its `generation`; without one, after any write on this connection, `total_changes()`) or
 * another connection committed (`PRAGMA data_version`, e.g. `forge reindex` in a terminal). A
 * reload costs what an uncached scan would. On a desk, both would move with every commit of anything
 * on the desk (an audit row, a session), so there the copy is keyed on the desk's log of passage
 * vector writes (research_vector_changes: store/postgres/schema.ts), which moves only when they
 * change, on any server; a desk made before that log keeps the old key.
 */
/** One scan: the cosine of every cached passage (-Infinity where its note is not allowed), by row. */
export interface PassageScan {
  ids: Int32Array;
  notes: string[];
  cos: Float32Array;
  /** Row of a passage id. */
  rowOf: Map<number, number>;
}

export class PassageVectorCache {
  private key = '';
  private ids = new Int32Array(0);
  private notes: string[] = [];
  private rowOf = new Map<number, number>();
  private matrix = new Float32Array(0);
  private dims = 0;
  /** Whether the last database scanned is a desk with the passage vector log. */
  private log: { db: Db; present: boolean } | undefined;
  private loads = 0;

  /** Times the vectors were read from the database (tests: a commit that changes none must not). */
  get reloads(): number {
    return this.loads;
  }

  private version(db: Db, generation: number | undefined): string {
    if (this.log?.db !== db) {
      const present = engineOf(db) === 'postgres' && Boolean(db.prepare("SELECT to_regclass('research_vector_changes') IS NOT NULL AS present").pluck().get());
      this.log = { db, present };
    }
    if (this.log.present) return `log${db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM research_vector_changes').pluck().get()}`;
    const changes = generation ?? `c${(db.prepare('SELECT total_changes() AS n').get() as { n: number }).n}`;
    return `${changes}|${db.pragma('data_version', { simple: true }) as number}`;
  }

  private load(db: Db, embedderId: string, dims: number, generation: number | undefined): void {
    const key = `${embedderId}|${dims}|${this.version(db, generation)}`;
    if (key === this.key) return;
    this.loads++;
    const read = db.prepare('SELECT passage, note, vector FROM research_passage_vectors WHERE embedder = ?');
    // A desk's statements answer rows as objects only (no raw()).
    const rows = (
      engineOf(db) === 'postgres'
        ? (read.all(embedderId) as { passage: number; note: string; vector: Buffer }[]).map((r) => [Number(r.passage), r.note, r.vector])
        : read.raw().all(embedderId)
    ) as [number, string, Buffer][];
    const usable = rows.filter((r) => r[2].byteLength === dims * 4);
    this.ids = new Int32Array(usable.length);
    this.notes = new Array(usable.length);
    this.rowOf = new Map();
    this.matrix = new Float32Array(usable.length * dims);
    usable.forEach(([passage, note, blob], i) => {
      this.ids[i] = passage;
      this.notes[i] = note;
      this.rowOf.set(passage, i);
      this.matrix.set(new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength)), i * dims);
    });
    this.dims = dims;
    this.key = key;
  }

  /** Cosine (vectors are unit length: the dot) of the query with every passage of the allowed notes (null = all). */
  scan(db: Db, embedderId: string, query: Float32Array, allowed: Set<string> | null, generation?: number): PassageScan {
    this.load(db, embedderId, query.length, generation);
    const n = this.ids.length;
    const d = this.dims;
    const m = this.matrix;
    const cos = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      if (allowed && !allowed.has(this.notes[i]!)) {
        cos[i] = Number.NEGATIVE_INFINITY;
        continue;
      }
      let s = 0;
      for (let j = 0, o = i * d; j < d; j++, o++) s += query[j]! * m[o]!;
      cos[i] = s;
    }
    return { ids: this.ids, notes: this.notes, cos, rowOf: this.rowOf };
  }
}

/** Rows of the `k` highest positive values, best first (a bounded min-heap: no sort of every passage). */
export function topRows(values: Float32Array, k: number): number[] {
  const heap: number[] = [];
  const less = (a: number, b: number) => values[a]! < values[b]!;
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let s = i;
      if (l < heap.length && less(heap[l]!, heap[s]!)) s = l;
      if (r < heap.length && less(heap[r]!, heap[s]!)) s = r;
      if (s === i) return;
      [heap[i], heap[s]] = [heap[s]!, heap[i]!];
      i = s;
    }
  };
  for (let row = 0; row < values.length; row++) {
    if (!(values[row]! > 0)) continue;
    if (heap.length < k) {
      heap.push(row);
      for (let i = heap.length - 1; i > 0; ) {
        const p = (i - 1) >> 1;
        if (!less(heap[i]!, heap[p]!)) break;
        [heap[i], heap[p]] = [heap[p]!, heap[i]!];
        i = p;
      }
    } else if (values[row]! > values[heap[0]!]!) {
      heap[0] = row;
      down(0);
    }
  }
  return heap.sort((a, b) => values[b]! - values[a]! || a - b);
}
