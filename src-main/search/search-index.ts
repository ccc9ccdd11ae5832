import type { Db, IndexableRecord, MemoryIndexer, StoredColumns } from '../store';
import { buildKeywordIndex, buildKeywordIndexInBackground, keywordRankingStatus, yieldToEventLoop } from './keyword-index';
import { type Embedder, stalledNow } from './embedder';
import { Quantizer } from './quantizer';
import { BlockIndex, readLayout, stmt } from './block-store';
import { searchMemory, type SearchRequest, type SearchResponse } from './search';
import {
  contentOf,
  convertFloatEntries,
  ensureLayout,
  type IndexRow,
  type ReindexProgress,
  reencodeCodes,
  reindex,
  removeEntry,
  setState,
  textForEmbedding,
  writeEntry,
  writeEntryBatch,
} from './index-writes';

import type { ResearchSource } from './research-search';
import { PassageVectorCache } from './passage-cache';
import { drainEmbedQueue, type ParkedNote, parkedNotes, type QueuedRecord, queuedCount, retryParked } from './embed-queue';

// The vector writes moved to index-writes.ts; importers of this module keep their names.
export { reindex, removeEntry, textForEmbedding, writeEntry, writeEntryBatch, type ReindexProgress };

/** What `prepare` hands to `apply`: the vector made before the write transaction, or why not. */
type Prepared = { embedder: string; vector: Float32Array } | { error: string };

/** What Settings → Search says about a model that stopped answering. */
export interface ModelStallStatus {
  at: string;
  timeoutMs: number;
  restarts: number;
  recovered: boolean;
  message: string;
}

export interface SearchIndexStatus {
  embedder: string;
  dims: number;
  /** Vectors were made by another embedder (or records are missing): run a reindex. */
  stale: boolean;
  indexed: number;
  records: number;
  queued: number;
  lastError: string | null;
  /** Notes that failed to embed on their own MAX_EMBED_ATTEMPTS times: no longer retried until Retry (or a rewrite). */
  parked: number;
  /** The newest parked notes (at most 20) with their last error. */
  parkedNotes: ParkedNote[];
  /** The last time the local model stopped answering and what Forge did; null if it never did. */
  modelStall: ModelStallStatus | null;
  /** Broker-note passages searched with memory (0 when research is off), and those with a vector from this embedder. */
  passages: number;
  passagesIndexed: number;
  /** How keywords are ranked: Forge's extension, or SQLite's bm25() (same results, slower) and why. */
  keywordRanking: string;
}

/**
 * Keeps the search index in step with memory (the store's MemoryIndexer hook): vectors are made
 * before the write transaction opens and written inside it, so record and index commit together.
 * When the embedder fails, the write still commits and the record waits in `search_queue`.
 */
export class SearchIndex implements MemoryIndexer {
  readonly blocks: BlockIndex;
  readonly passageCache = new PassageVectorCache();
  private quantizers = new Map<number, Quantizer>();
  private researchRef: ResearchSource | undefined;

  /** wholeBlockWrites: a single write rewrites its 256-note block, as before migration 018 (the memory benchmark's baseline only). */
  constructor(
    readonly db: Db,
    private embedderRef: Embedder,
    private readonly options: { wholeBlockWrites?: boolean } = {},
  ) {
    this.blocks = new BlockIndex(db);
    if (!this.state('embedder')) {
      this.setState('embedder', embedderRef.id);
      this.setState('dims', String(embedderRef.dims));
    }
    convertFloatEntries(db, this.quantizer);
    reencodeCodes(db, this.quantizer);
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

  /**
   * Reads the vector blocks into memory and runs one scan, so neither the reading (tens of ms at
   * 100k notes) nor the compiling of the scan loops falls on the PM's first search.
   */
  warm(): void {
    this.blocks.warm();
    this.compileScan();
    buildKeywordIndex(this.db);
  }

  /**
   * `warm` in steps that yield to the event loop (see BlockIndex.warmInSteps): what the app runs at
   * start, so the window and the API stay responsive while a large memory loads. The pauses are
   * unref'd: a command-line run that has finished its work exits without waiting for them.
   */
  async warmInBackground(pause: () => Promise<void> = yieldToEventLoop): Promise<void> {
    await this.blocks.warmInSteps(pause);
    this.compileScan();
    // Keyword search ranks with FTS5's bm25() (the same results, slower) until this is done.
    await buildKeywordIndexInBackground(this.db);
  }

  /** One scan over the loaded blocks, so the scan loops are compiled before the PM's first search. */
  private compileScan(): void {
    const q = new Float32Array(this.embedderRef.dims);
    q[0] = 1;
    const slots = this.blocks.nearest(this.quantizer.encode(q), 50, {
      category: null,
      status: null,
      sinceDay: null,
      allowed: null,
      embedder: this.embedderRef.id,
    });
    this.blocks.scoreSlots(q, slots);
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
    // A hung model is not waited on again: the note is queued and the background drain retries it.
    const stall = stalledNow(this.embedderRef);
    if (stall) {
      return { error: `the embedding model stopped answering at ${stall.at}; the note waits for its vector until it answers again` };
    }
    try {
      const [vector] = await this.embedderRef.embed([textForEmbedding(record.content)], 'document');
      return { embedder: this.embedderRef.id, vector };
    } catch (e) {
      return { error: (e as Error)?.message ?? String(e) };
    }
  }

  apply(db: Db, record: IndexableRecord & { rid: number; id: string; path: string; stored?: StoredColumns }, prepared: unknown): void {
    let p = prepared as Prepared | undefined;
    // Not announced in advance: the offline embedder can still embed synchronously inside the transaction.
    const sync = (this.embedderRef as { embedOne?: (t: string) => Float32Array }).embedOne;
    if (!p && sync) p = { embedder: this.embedderRef.id, vector: sync.call(this.embedderRef, textForEmbedding(record.content)) };
    if (!p || 'error' in p || p.embedder !== this.embedderRef.id || p.vector.length !== this.embedderRef.dims) {
      this.enqueue(db, record.rid, record.category, record.id, p && 'error' in p ? p.error : 'not embedded before the write');
      return;
    }
    const layout = readLayout(db);
    if (layout && layout.dims !== p.vector.length) {
      // The blocks hold another embedder's size: this record waits for the rebuild that switches them.
      this.enqueue(db, record.rid, record.category, record.id, 'waiting for the search index to be rebuilt for the new embedder');
      return;
    }
    // The row as just written, when the writer says it (one read less inside the write lock).
    const row =
      record.stored ??
      (stmt(db, 'SELECT status, updated_at FROM memory_records WHERE rid = ?').get(record.rid) as { status: string | null; updated_at: string } | undefined);
    const touched = writeEntry(
      db,
      this.embedderRef.id,
      { rid: record.rid, category: record.category, status: row?.status ?? null, updated_at: row?.updated_at ?? new Date().toISOString() },
      p.vector,
      this.quantizer,
      this.options.wholeBlockWrites,
      layout,
    );
    stmt(db, 'DELETE FROM search_queue WHERE rid = ?').run(record.rid);
    this.blocks.touch(touched.blocks, touched.slots);
  }

  remove(db: Db, ref: { rid: number; category: string; id: string }): void {
    const touched = removeEntry(db, ref.rid, this.options.wholeBlockWrites);
    this.blocks.touch(touched.blocks, touched.slots);
    stmt(db, 'DELETE FROM search_queue WHERE rid = ?').run(ref.rid);
  }

  private enqueue(db: Db, rid: number, category: string, id: string, error: string): void {
    db.prepare(
      `INSERT INTO search_queue (rid, category, id, queued_at, attempts, last_error) VALUES (?, ?, ?, ?, 0, ?)
       ON CONFLICT (rid) DO UPDATE SET queued_at = excluded.queued_at, attempts = 0, last_error = excluded.last_error`,
    ).run(rid, category, id, new Date().toISOString(), error.slice(0, 500));
  }

  /**
   * Retries queued records (see drainEmbedQueue: a failed batch is retried note by note, and a note
   * that keeps failing is parked); returns how many were indexed. Safe to call any time.
   */
  drainQueue(batch = 32): Promise<{ indexed: number; remaining: number }> {
    return drainEmbedQueue(
      this.db,
      {
        text: (r) => textForEmbedding(contentOf(r)),
        embed: (texts) => this.embedderRef.embed(texts, 'document'),
        write: (records, vectors) => this.writeQueued(records, vectors),
      },
      batch,
    );
  }

  /** Settings → Search → Retry: parked notes go back in the queue with fresh attempts. */
  retryParked(): number {
    return retryParked(this.db);
  }

  private writeQueued(queued: QueuedRecord[], vectors: Float32Array[]): number {
    let indexed = 0;
    this.db
      .transaction(() => {
        const batch: IndexRow[] = [];
        const batchVectors: Float32Array[] = [];
        queued.forEach((r, i) => {
          // Skip a record rewritten while we embedded: its own write handles it.
          const now = this.db.prepare('SELECT content_hash, status, updated_at FROM memory_records WHERE rid = ?').get(r.rid) as
            | { content_hash: string; status: string | null; updated_at: string }
            | undefined;
          if (!now || now.content_hash !== r.content_hash) return;
          batch.push({ ...r, status: now.status, updated_at: now.updated_at });
          batchVectors.push(vectors[i]);
        });
        if (!batch.length) return;
        ensureLayout(this.db, { dims: this.embedderRef.dims, bits: this.quantizer.bits });
        this.blocks.touch(writeEntryBatch(this.db, this.embedderRef.id, batch, batchVectors, this.quantizer));
        const dequeue = this.db.prepare('DELETE FROM search_queue WHERE rid = ?');
        for (const r of batch) dequeue.run(r.rid);
        indexed = batch.length;
      })
      .immediate();
    return indexed;
  }

  /** Notes waiting for a vector (parked ones not included). */
  queuedCount(): number {
    return queuedCount(this.db);
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
    const parked = parkedNotes(this.db);
    return {
      embedder: id,
      dims: this.embedderRef.dims,
      stale: this.state('embedder') !== id || other > 0 || indexed + queued + parked.count < records || passagesIndexed < passages,
      indexed,
      records,
      queued,
      lastError: last?.last_error ?? null,
      parked: parked.count,
      parkedNotes: parked.notes,
      modelStall: stallStatus(this.embedderRef.lastStall?.() ?? null),
      passages,
      passagesIndexed,
      keywordRanking: keywordRankingStatus(this.db),
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
      this.blocks.invalidate();
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

function stallStatus(stall: ReturnType<NonNullable<Embedder['lastStall']>>): ModelStallStatus | null {
  if (!stall) return null;
  const s = Math.round(stall.timeoutMs / 100) / 10;
  const times = stall.restarts === 1 ? 'once' : `${stall.restarts} times`;
  return {
    ...stall,
    message: stall.recovered
      ? `The local model stopped answering (no answer in ${s} s) at ${stall.at}; Forge restarted it (${times}) and it answers again. Notes saved meanwhile were queued and get their vectors.`
      : `The local model stopped answering (no answer in ${s} s) at ${stall.at}. Forge stopped it (${times}) and saves notes without waiting: they are searchable by keywords and get their meaning vectors once the model answers again.`,
  };
}
