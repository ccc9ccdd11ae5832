import { AppError } from '../common/errors';
import { renderRecord } from '../fs';
import type { Db, IndexableRecord, MemoryIndexer } from '../store';
import { asBlob, dayNumber, encodeVector, ensureVectorTable, VEC_TABLE } from './vectors';
import type { Embedder } from './embedder';
import { DEFAULT_BITS, Quantizer } from './quantizer';
import { VectorCache } from './vector-cache';
import { searchMemory, type SearchRequest, type SearchResponse } from './search';
import type { ResearchSource } from './research-search';
import { PassageVectorCache } from './passage-cache';

/** What `prepare` hands to `apply`: the vector made before the write transaction, or why not. */
type Prepared = { embedder: string; vector: Float32Array } | { error: string };

/** Text sent to the embedder: the canonical record, cut to what embedding models accept. */
const MAX_EMBED_CHARS = 8000;
export const textForEmbedding = (content: string) => content.slice(0, MAX_EMBED_CHARS);

export interface SearchIndexStatus {
  embedder: string;
  dims: number;
  /** Vectors were made by another embedder (or records are missing): run a reindex. */
  stale: boolean;
  indexed: number;
  records: number;
  queued: number;
  lastError: string | null;
  /** Broker-note passages searched with memory (0 when research is off), and those with a vector from this embedder. */
  passages: number;
  passagesIndexed: number;
}

export interface ReindexProgress {
  /** Memory notes and broker-note passages re-embedded so far, of `total`. */
  done: number;
  total: number;
  embedder: string;
  /** How many of `total` are broker-note passages. */
  passages?: number;
}

interface RecordSource {
  rid: number;
  category: string;
  id: string;
  title: string;
  status: string | null;
  updated_at: string;
  header: string;
  body: string | null;
}

function contentOf(row: RecordSource): string {
  return renderRecord({ id: row.id, title: row.title, header: JSON.parse(row.header), body: row.body });
}

/**
 * Keeps the search index in step with memory (the store's MemoryIndexer hook): vectors are made
 * before the write transaction opens and written inside it, so record and index commit together.
 * When the embedder fails, the write still commits and the record waits in `search_queue`.
 */
export class SearchIndex implements MemoryIndexer {
  readonly cache: VectorCache;
  readonly dfCache = new Map<string, { df: number; at: number }>();
  readonly passageCache = new PassageVectorCache();
  private quantizers = new Map<number, Quantizer>();
  private researchRef: ResearchSource | undefined;

  constructor(
    readonly db: Db,
    private embedderRef: Embedder,
  ) {
    ensureVectorTable(db, DEFAULT_BITS);
    this.cache = new VectorCache(db);
    if (!this.state('embedder')) {
      this.setState('embedder', embedderRef.id);
      this.setState('dims', String(embedderRef.dims));
    }
  }

  get embedder(): Embedder {
    return this.embedderRef;
  }

  /** The SimHash quantiser for the current embedder's vector size (built once per size). */
  get quantizer(): Quantizer {
    const dims = this.embedderRef.dims;
    let q = this.quantizers.get(dims);
    if (!q) {
      q = new Quantizer(dims);
      this.quantizers.set(dims, q);
    }
    return q;
  }

  /** Loads the in-memory codes now (a few seconds at 100k notes) so the first search is fast. */
  warm(): void {
    this.cache.nearest(new Uint8Array(this.quantizer.bits / 8), 1, { category: null, status: null, sinceDay: null, allowed: null });
  }

  /** The broker notes (attached by the host): searched with memory, re-embedded by `reindex`, counted by `status`. */
  get research(): ResearchSource | undefined {
    return this.researchRef;
  }

  attachResearch(source: ResearchSource): void {
    this.researchRef = source;
  }

  /** Hybrid search over memory, session files and broker notes (see `searchMemory`). */
  search(req: SearchRequest): Promise<SearchResponse> {
    return searchMemory(this, req);
  }

  /** Switches embedder: new writes use it at once; old vectors are stale until `reindex`. */
  useEmbedder(embedder: Embedder): void {
    this.embedderRef = embedder;
  }

  async prepare(record: IndexableRecord): Promise<Prepared> {
    try {
      const [vector] = await this.embedderRef.embed([textForEmbedding(record.content)], 'document');
      return { embedder: this.embedderRef.id, vector };
    } catch (e) {
      return { error: (e as Error)?.message ?? String(e) };
    }
  }

  apply(db: Db, record: IndexableRecord & { rid: number; id: string; path: string }, prepared: unknown): void {
    let p = prepared as Prepared | undefined;
    // Not announced in advance: the offline embedder can still embed synchronously inside the transaction.
    const sync = (this.embedderRef as { embedOne?: (t: string) => Float32Array }).embedOne;
    if (!p && sync) p = { embedder: this.embedderRef.id, vector: sync.call(this.embedderRef, textForEmbedding(record.content)) };
    if (!p || 'error' in p || p.embedder !== this.embedderRef.id || p.vector.length !== this.embedderRef.dims) {
      this.enqueue(db, record.rid, record.category, record.id, p && 'error' in p ? p.error : 'not embedded before the write');
      return;
    }
    const row = db.prepare('SELECT status, updated_at FROM memory_records WHERE rid = ?').get(record.rid) as
      | { status: string | null; updated_at: string }
      | undefined;
    writeEntry(
      db,
      this.embedderRef.id,
      { rid: record.rid, category: record.category, status: row?.status ?? null, updated_at: row?.updated_at ?? new Date().toISOString() },
      p.vector,
      this.quantizer,
    );
    db.prepare('DELETE FROM search_queue WHERE rid = ?').run(record.rid);
    this.cache.touch(record.rid);
  }

  remove(db: Db, ref: { rid: number; category: string; id: string }): void {
    removeEntry(db, ref.rid);
    db.prepare('DELETE FROM search_queue WHERE rid = ?').run(ref.rid);
    this.cache.touch(ref.rid);
  }

  private enqueue(db: Db, rid: number, category: string, id: string, error: string): void {
    db.prepare(
      `INSERT INTO search_queue (rid, category, id, queued_at, attempts, last_error) VALUES (?, ?, ?, ?, 0, ?)
       ON CONFLICT (rid) DO UPDATE SET queued_at = excluded.queued_at, last_error = excluded.last_error`,
    ).run(rid, category, id, new Date().toISOString(), error.slice(0, 500));
  }

  /** Retries queued records; returns how many were indexed. Safe to call any time (idempotent). */
  async drainQueue(batch = 32): Promise<{ indexed: number; remaining: number }> {
    const queued = this.db
      .prepare(
        `SELECT r.rid, r.category, r.id, r.title, r.status, r.updated_at, r.header, r.body, r.content_hash
         FROM search_queue q JOIN memory_records r ON r.rid = q.rid ORDER BY q.queued_at LIMIT ?`,
      )
      .all(batch) as (RecordSource & { content_hash: string })[];
    // Entries whose record has gone (deleted meanwhile) leave the queue.
    this.db.prepare('DELETE FROM search_queue WHERE rid NOT IN (SELECT rid FROM memory_records)').run();
    let indexed = 0;
    if (queued.length) {
      try {
        const vectors = await this.embedderRef.embed(
          queued.map((r) => textForEmbedding(contentOf(r))),
          'document',
        );
        const tx = this.db.transaction(() => {
          queued.forEach((r, i) => {
            // Skip a record rewritten while we embedded: its own write handles it.
            const now = this.db.prepare('SELECT content_hash, status, updated_at FROM memory_records WHERE rid = ?').get(r.rid) as
              | { content_hash: string; status: string | null; updated_at: string }
              | undefined;
            if (!now || now.content_hash !== r.content_hash) return;
            writeEntry(this.db, this.embedderRef.id, { ...r, status: now.status, updated_at: now.updated_at }, vectors[i], this.quantizer);
            this.db.prepare('DELETE FROM search_queue WHERE rid = ?').run(r.rid);
            this.cache.touch(r.rid);
            indexed++;
          });
        });
        tx.immediate();
      } catch (e) {
        const msg = ((e as Error)?.message ?? String(e)).slice(0, 500);
        const bump = this.db.prepare('UPDATE search_queue SET attempts = attempts + 1, last_error = ? WHERE rid = ?');
        this.db.transaction(() => {
          for (const r of queued) bump.run(msg, r.rid);
        })();
      }
    }
    return { indexed, remaining: this.queuedCount() };
  }

  queuedCount(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM search_queue').get() as { n: number }).n;
  }

  status(): SearchIndexStatus {
    const id = this.embedderRef.id;
    const records = (this.db.prepare('SELECT count(*) AS n FROM memory_records').get() as { n: number }).n;
    const indexed = (this.db.prepare('SELECT count(*) AS n FROM search_entries WHERE embedder = ?').get(id) as { n: number }).n;
    const other = (this.db.prepare('SELECT count(*) AS n FROM search_entries WHERE embedder <> ?').get(id) as { n: number }).n;
    const queued = this.queuedCount();
    const last = this.db.prepare('SELECT last_error FROM search_queue WHERE last_error IS NOT NULL ORDER BY queued_at DESC LIMIT 1').get() as
      | { last_error: string }
      | undefined;
    const { passages, passagesIndexed } = this.passageCounts();
    return {
      embedder: id,
      dims: this.embedderRef.dims,
      stale: this.state('embedder') !== id || other > 0 || indexed + queued < records || passagesIndexed < passages,
      indexed,
      records,
      queued,
      lastError: last?.last_error ?? null,
      passages,
      passagesIndexed,
    };
  }

  /** Passages in the research index (tables of migrations 007 and 009), when research is attached and on. */
  private passageCounts(): { passages: number; passagesIndexed: number } {
    if (!this.researchRef?.enabled()) return { passages: 0, passagesIndexed: 0 };
    // research_notes.passages is written with the passages, in the same transaction.
    const passages = (this.db.prepare('SELECT COALESCE(SUM(passages), 0) AS n FROM research_notes').get() as { n: number }).n;
    const passagesIndexed = (this.db.prepare('SELECT count(*) AS n FROM research_passage_vectors WHERE embedder = ?').get(this.embedderRef.id) as { n: number })
      .n;
    return { passages, passagesIndexed };
  }

  /**
   * Rebuilds every vector with the current embedder (see `reindex`): memory first, then the broker
   * notes' passages (their index re-embeds them), counted together in the progress.
   */
  async reindex(onProgress?: (p: ReindexProgress) => void, signal?: AbortSignal): Promise<ReindexProgress> {
    const research = this.researchRef?.enabled() ? this.researchRef : undefined;
    const passages = research ? this.passageCounts().passages : 0;
    let memory: ReindexProgress;
    try {
      memory = await reindex(
        this.db,
        this.embedderRef,
        onProgress && ((p) => onProgress({ ...p, total: p.total + passages, ...(passages ? { passages } : {}) })),
        signal,
        this.quantizer,
      );
    } finally {
      this.cache.invalidate();
    }
    if (!research) return memory;
    const embedder = memory.embedder;
    // `passages` is reported only when there are some: a workspace without broker notes reads as before.
    const r = await research.reembed((done, total) => {
      if (total) onProgress?.({ done: memory.done + done, total: memory.total + total, embedder, passages: total });
    }, signal);
    return r.total ? { done: memory.done + r.done, total: memory.total + r.total, embedder, passages: r.total } : memory;
  }

  private state(key: string): string | undefined {
    return (this.db.prepare('SELECT value FROM search_state WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }

  private setState(key: string, value: string): void {
    setState(this.db, key, value);
  }
}

function setState(db: Db, key: string, value: string): void {
  db.prepare('INSERT INTO search_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}

/** Writes one record's vector (float for rescoring, bits for the fast scan). Call inside a transaction. */
export function writeEntry(
  db: Db,
  embedderId: string,
  r: { rid: number; category: string; status: string | null; updated_at: string },
  vector: Float32Array,
  quantizer: Quantizer,
): void {
  db.prepare(
    `INSERT INTO search_entries (rid, category, embedder, vector) VALUES (?, ?, ?, ?)
     ON CONFLICT (rid) DO UPDATE SET category = excluded.category, embedder = excluded.embedder, vector = excluded.vector`,
  ).run(r.rid, r.category, embedderId, encodeVector(vector));
  // vec0 has no upsert: replace the row. Its rowids must be BigInt.
  db.prepare(`DELETE FROM ${VEC_TABLE} WHERE rowid = ?`).run(BigInt(r.rid));
  db.prepare(`INSERT INTO ${VEC_TABLE} (rowid, category, status, updated_day, embedding) VALUES (?, ?, ?, ?, vec_bit(?))`).run(
    BigInt(r.rid),
    r.category,
    r.status ?? '',
    BigInt(dayNumber(r.updated_at)),
    asBlob(quantizer.encode(vector)),
  );
}

export function removeEntry(db: Db, rid: number): void {
  db.prepare('DELETE FROM search_entries WHERE rid = ?').run(rid);
  db.prepare(`DELETE FROM ${VEC_TABLE} WHERE rowid = ?`).run(BigInt(rid));
}

/**
 * Rebuilds the whole index with `embedder`, in batches (each batch embedded outside, written inside
 * a short transaction, so memory writes keep flowing). Reports progress after every batch. The
 * vector table is recreated when the size changes. `forge reindex` and `search/reindex` call this.
 */
export async function reindex(
  db: Db,
  embedder: Embedder,
  onProgress?: (p: ReindexProgress) => void,
  signal?: AbortSignal,
  quantizer: Quantizer = new Quantizer(embedder.dims),
  batch = 64,
): Promise<ReindexProgress> {
  db.transaction(() => {
    if (ensureVectorTable(db, quantizer.bits)) db.prepare('DELETE FROM search_entries').run();
    setState(db, 'embedder', embedder.id);
    setState(db, 'dims', String(embedder.dims));
  }).immediate();
  const total = (db.prepare('SELECT count(*) AS n FROM memory_records').get() as { n: number }).n;
  const page = db.prepare('SELECT rid, category, id, title, status, updated_at, header, body FROM memory_records WHERE rid > ? ORDER BY rid LIMIT ?');
  let done = 0;
  let after = 0;
  onProgress?.({ done, total, embedder: embedder.id });
  for (;;) {
    // Typed as `cancelled`: the PM stopped it; what was rebuilt stays, and the index reads as stale until a full run.
    if (signal?.aborted) throw new AppError('cancelled', 'Rebuild stopped; run it again to finish.');
    const rows = page.all(after, batch) as RecordSource[];
    if (!rows.length) break;
    const vectors = await embedder.embed(
      rows.map((r) => textForEmbedding(contentOf(r))),
      'document',
    );
    db.transaction(() => {
      rows.forEach((r, i) => {
        writeEntry(db, embedder.id, r, vectors[i], quantizer);
        db.prepare('DELETE FROM search_queue WHERE rid = ?').run(r.rid);
      });
    }).immediate();
    after = rows[rows.length - 1].rid;
    done += rows.length;
    onProgress?.({ done, total: Math.max(total, done), embedder: embedder.id });
  }
  // Vectors of records deleted while we ran.
  db.prepare('DELETE FROM search_entries WHERE rid NOT IN (SELECT rid FROM memory_records)').run();
  return { done, total: Math.max(total, done), embedder: embedder.id };
}
