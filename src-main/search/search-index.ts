import { AppError } from '../common/errors';
import { renderRecord } from '../fs';
import type { Db, IndexableRecord, MemoryIndexer } from '../store';
import { buildKeywordIndex, buildKeywordIndexInBackground, keywordRankingStatus, yieldToEventLoop } from './keyword-index';
import { dayNumber } from './vectors';
import { type Embedder, stalledNow } from './embedder';
import { CODE_VERSION, Quantizer } from './quantizer';
import {
  BLOCK_SLOTS,
  type BlockEntry,
  BlockIndex,
  type BlockLayout,
  foldAllPatches,
  freeEntries,
  patchEntries,
  quantizeInt8,
  readLayout,
  removeEntries,
  resetBlocks,
  stmt,
  type Touched,
  writeEntries,
} from './block-store';
import { searchMemory, type SearchRequest, type SearchResponse } from './search';
import type { ResearchSource } from './research-search';
import { PassageVectorCache } from './passage-cache';
import {
  drainEmbedQueue,
  embedEach,
  type ParkedNote,
  parkedNotes,
  type QueuedRecord,
  queueFailed,
  type RecordSource,
  queuedCount,
  retryParked,
} from './embed-queue';

/** What `prepare` hands to `apply`: the vector made before the write transaction, or why not. */
type Prepared = { embedder: string; vector: Float32Array } | { error: string };

/** Text sent to the embedder: the canonical record, cut to what embedding models accept. */
const MAX_EMBED_CHARS = 8000;
export const textForEmbedding = (content: string) => content.slice(0, MAX_EMBED_CHARS);

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

export interface ReindexProgress {
  /** Memory notes and broker-note passages re-embedded so far, of `total`. */
  done: number;
  total: number;
  embedder: string;
  /** How many of `total` are broker-note passages. */
  passages?: number;
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

  apply(db: Db, record: IndexableRecord & { rid: number; id: string; path: string }, prepared: unknown): void {
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
    const row = stmt(db, 'SELECT status, updated_at FROM memory_records WHERE rid = ?').get(record.rid) as
      | { status: string | null; updated_at: string }
      | undefined;
    const touched = writeEntry(
      db,
      this.embedderRef.id,
      { rid: record.rid, category: record.category, status: row?.status ?? null, updated_at: row?.updated_at ?? new Date().toISOString() },
      p.vector,
      this.quantizer,
      this.options.wholeBlockWrites,
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

function setState(db: Db, key: string, value: string): void {
  db.prepare('INSERT INTO search_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}

interface IndexRow {
  rid: number;
  category: string;
  status: string | null;
  updated_at: string;
}

/** Sets the blocks' layout on first use, or empties them when the embedder's size changed. Inside a transaction. */
function ensureLayout(db: Db, want: BlockLayout): void {
  const have = readLayout(db);
  if (!have || have.dims !== want.dims || have.bits !== want.bits) {
    resetBlocks(db, want);
    setState(db, 'block_code', CODE_VERSION);
  }
}

/**
 * Writes these records' vectors into the blocks: the int8 vector for rescoring and its SimHash code
 * for the candidate scan. Inside a transaction; returns the blocks touched.
 */
export function writeEntryBatch(db: Db, embedderId: string, rows: IndexRow[], vectors: Float32Array[], quantizer: Quantizer): Set<number> {
  const layout = layoutFor(db, quantizer);
  return writeEntries(
    db,
    layout,
    rows.map((r, i) => entryOf(embedderId, r, vectors[i], quantizer)),
  );
}

/** The blocks' layout, set from the quantiser on the first write. Inside a transaction. */
function layoutFor(db: Db, quantizer: Quantizer): BlockLayout {
  let layout = readLayout(db);
  if (!layout) {
    layout = { dims: quantizer.dims, bits: quantizer.bits };
    resetBlocks(db, layout);
    setState(db, 'block_code', CODE_VERSION);
  }
  return layout;
}

function entryOf(embedderId: string, r: IndexRow, vector: Float32Array, quantizer: Quantizer): BlockEntry {
  return {
    rid: r.rid,
    category: r.category,
    status: r.status,
    day: dayNumber(r.updated_at),
    embedder: embedderId,
    code: quantizer.encode(vector),
    ...quantizeInt8(vector),
  };
}

/**
 * Writes one record's vector as a patch of its slot (see block-writes.ts): a memory write costs one
 * small row, not its 256-note block. `wholeBlock` rewrites the block as versions before 018 did
 * (kept for the memory benchmark's baseline). Call inside a transaction.
 */
export function writeEntry(db: Db, embedderId: string, r: IndexRow, vector: Float32Array, quantizer: Quantizer, wholeBlock = false): Touched {
  if (wholeBlock) return { blocks: writeEntryBatch(db, embedderId, [r], [vector], quantizer), slots: new Set() };
  const layout = layoutFor(db, quantizer);
  return patchEntries(db, layout, [entryOf(embedderId, r, vector, quantizer)]);
}

/** Frees a record's slot with a patch (or by rewriting its block: `wholeBlock`, see `writeEntry`). Inside a transaction. */
export function removeEntry(db: Db, rid: number, wholeBlock = false): Touched {
  if (wholeBlock) return { blocks: removeEntries(db, readLayout(db), [rid]), slots: new Set() };
  return freeEntries(db, readLayout(db), [rid]);
}

/**
 * Codes written by another quantiser version (CODE_VERSION) are re-encoded from the stored int8
 * vectors, block by block, so a change of code family needs no re-embedding.
 */
function reencodeCodes(db: Db, quantizer: Quantizer): void {
  const layout = readLayout(db);
  const have = (db.prepare("SELECT value FROM search_state WHERE key = 'block_code'").get() as { value: string } | undefined)?.value;
  if (!layout || have === CODE_VERSION) return;
  db.transaction(() => {
    if (layout.dims === quantizer.dims && layout.bits === quantizer.bits) {
      // Codes are re-encoded in the blocks' columns: patched slots are folded in first.
      foldAllPatches(db, layout);
      const codeBytes = layout.bits / 8;
      const update = db.prepare('UPDATE search_blocks SET codes = ? WHERE block = ?');
      for (const row of db.prepare('SELECT block, vectors FROM search_blocks').all() as { block: number; vectors: Buffer }[]) {
        const vectors = new Int8Array(row.vectors.buffer, row.vectors.byteOffset, row.vectors.byteLength);
        const codes = new Uint8Array(BLOCK_SLOTS * codeBytes);
        for (let i = 0; i < BLOCK_SLOTS; i++) codes.set(quantizer.encode(vectors.subarray(i * layout.dims, (i + 1) * layout.dims)), i * codeBytes);
        update.run(Buffer.from(codes.buffer), row.block);
      }
    }
    setState(db, 'block_code', CODE_VERSION);
  }).immediate();
}

/**
 * Indexes written before migration 014 kept a float32 vector per row; this moves them into the
 * blocks (int8) once, on open, so an upgrade needs no re-embedding. Vectors of another size than
 * the quantiser's are stale anyway and are dropped (the index then reads as stale).
 */
function convertFloatEntries(db: Db, quantizer: Quantizer): void {
  // Blocks with a layout exist once anything was written or converted: nothing left to do.
  if (readLayout(db) || !db.prepare('SELECT 1 FROM search_entries LIMIT 1').get()) return;
  db.transaction(() => {
    ensureLayout(db, { dims: quantizer.dims, bits: quantizer.bits });
    const rows = db
      .prepare(
        `SELECT e.rid, e.category, e.embedder, e.vector, r.status, r.updated_at FROM search_entries e
         JOIN memory_records r ON r.rid = e.rid WHERE e.slot IS NULL`,
      )
      .all() as (IndexRow & { embedder: string; vector: Buffer })[];
    const byEmbedder = new Map<string, { rows: IndexRow[]; vectors: Float32Array[] }>();
    for (const r of rows) {
      if (r.vector.byteLength !== quantizer.dims * 4) continue;
      const g = byEmbedder.get(r.embedder) ?? { rows: [], vectors: [] };
      g.rows.push(r);
      g.vectors.push(new Float32Array(new Uint8Array(r.vector).buffer));
      byEmbedder.set(r.embedder, g);
    }
    for (const [embedder, g] of byEmbedder) writeEntryBatch(db, embedder, g.rows, g.vectors, quantizer);
    // Left without a slot: another size, or the record is gone.
    db.prepare('DELETE FROM search_entries WHERE slot IS NULL').run();
  }).immediate();
}

/**
 * Rebuilds the whole index with `embedder`, in batches (each batch embedded outside, written inside
 * a short transaction, so memory writes keep flowing). Reports progress after every batch. The
 * vector tables are recreated when the size changes. `forge reindex` and `search/reindex` call this.
 */
export async function reindex(
  db: Db,
  embedder: Embedder,
  onProgress?: (p: ReindexProgress) => void,
  signal?: AbortSignal,
  quantizer: Quantizer = new Quantizer(embedder.dims),
  batch = 256,
): Promise<ReindexProgress> {
  db.transaction(() => {
    ensureLayout(db, { dims: embedder.dims, bits: quantizer.bits });
    setState(db, 'embedder', embedder.id);
    setState(db, 'dims', String(embedder.dims));
  }).immediate();
  const total = (db.prepare('SELECT count(*) AS n FROM memory_records').get() as { n: number }).n;
  const page = db.prepare('SELECT rid, category, id, title, status, updated_at, header, body FROM memory_records WHERE rid > ? ORDER BY rid LIMIT ?');
  const dequeue = db.prepare('DELETE FROM search_queue WHERE rid = ?');
  let done = 0;
  let after = 0;
  onProgress?.({ done, total, embedder: embedder.id });
  for (;;) {
    // Typed as `cancelled`: the PM stopped it; what was rebuilt stays, and the index reads as stale until a full run.
    if (signal?.aborted) throw new AppError('cancelled', 'Rebuild stopped; run it again to finish.');
    const rows = page.all(after, batch) as RecordSource[];
    if (!rows.length) break;
    const vectors = await embedEach(
      rows.map((r) => textForEmbedding(contentOf(r))),
      (texts) => embedder.embed(texts, 'document'),
    );
    db.transaction(() => {
      const ok = rows.flatMap((r, i) => (vectors[i] instanceof Float32Array ? [{ r, v: vectors[i] as Float32Array }] : []));
      if (ok.length)
        writeEntryBatch(
          db,
          embedder.id,
          ok.map((o) => o.r),
          ok.map((o) => o.v),
          quantizer,
        );
      for (const o of ok) dequeue.run(o.r.rid);
      // A note the model cannot embed waits in the queue (and is parked if it keeps failing); the rebuild goes on.
      const at = new Date().toISOString();
      rows.forEach((r, i) => {
        const v = vectors[i];
        if (!(v instanceof Float32Array)) queueFailed(db, r, v?.error ?? 'no vector returned', at);
      });
    }).immediate();
    after = rows[rows.length - 1].rid;
    done += rows.length;
    onProgress?.({ done, total: Math.max(total, done), embedder: embedder.id });
  }
  // Vectors of records deleted while we ran.
  db.transaction(() => {
    const gone = db.prepare('SELECT rid FROM search_entries WHERE rid NOT IN (SELECT rid FROM memory_records)').all() as { rid: number }[];
    for (const g of gone) removeEntry(db, g.rid);
  }).immediate();
  return { done, total: Math.max(total, done), embedder: embedder.id };
}
