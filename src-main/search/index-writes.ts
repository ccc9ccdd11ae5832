import { AppError } from '../common/errors';
import { renderRecord } from '../fs';
import type { Db } from '../store';
import { asServerWork } from '../store/postgres/postgres-db';
import {
  BLOCK_SLOTS,
  type BlockEntry,
  type BlockLayout,
  foldAllPatches,
  freeEntries,
  patchEntries,
  quantizeInt8,
  readLayout,
  removeEntries,
  resetBlocks,
  type Touched,
  writeEntries,
} from './block-store';
import { embedEach, queueFailed, type RecordSource } from './embed-queue';
import type { Embedder } from './embedder';
import { CODE_VERSION, Quantizer } from './quantizer';
import { dayNumber } from './vectors';

/**
 * Writing memory's vectors into the blocks, outside the SearchIndex class: one note (a slot patch),
 * a batch (whole blocks), the full rebuild (`forge reindex`, `search/reindex`), and the conversions
 * an older index gets on open. The class (search-index.ts) keeps the indexer hook, the queue and status.
 */

/** Text sent to the embedder: the canonical record, cut to what embedding models accept. */
const MAX_EMBED_CHARS = 8000;
export const textForEmbedding = (content: string) => content.slice(0, MAX_EMBED_CHARS);

export function contentOf(row: RecordSource): string {
  return renderRecord({ id: row.id, title: row.title, header: JSON.parse(row.header), body: row.body });
}

export interface ReindexProgress {
  /** Memory notes and broker-note passages re-embedded so far, of `total`. */
  done: number;
  total: number;
  embedder: string;
  /** How many of `total` are broker-note passages. */
  passages?: number;
}

export function setState(db: Db, key: string, value: string): void {
  db.prepare('INSERT INTO search_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}

export interface IndexRow {
  rid: number;
  category: string;
  status: string | null;
  updated_at: string;
}

/** Sets the blocks' layout on first use, or empties them when the embedder's size changed. Inside a transaction. */
export function ensureLayout(db: Db, want: BlockLayout): void {
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

/** The blocks' layout (`known`: as the caller just read it), set from the quantiser on the first write. Inside a transaction. */
function layoutFor(db: Db, quantizer: Quantizer, known: BlockLayout | null = readLayout(db)): BlockLayout {
  let layout = known;
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
export function writeEntry(
  db: Db,
  embedderId: string,
  r: IndexRow,
  vector: Float32Array,
  quantizer: Quantizer,
  wholeBlock = false,
  known?: BlockLayout | null,
): Touched {
  if (wholeBlock) return { blocks: writeEntryBatch(db, embedderId, [r], [vector], quantizer), slots: new Set() };
  const layout = layoutFor(db, quantizer, known === undefined ? readLayout(db) : known);
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
export function reencodeCodes(db: Db, quantizer: Quantizer): void {
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
export function convertFloatEntries(db: Db, quantizer: Quantizer): void {
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
export function reindex(
  db: Db,
  embedder: Embedder,
  onProgress?: (p: ReindexProgress) => void,
  signal?: AbortSignal,
  quantizer: Quantizer = new Quantizer(embedder.dims),
  batch = 256,
): Promise<ReindexProgress> {
  // On a desk, the server's own work even when an admin's call started it: read as that person, the
  // rebuild would see only their notes and remove every other note's vector as deleted.
  return asServerWork(db, () => rebuild(db, embedder, quantizer, batch, onProgress, signal));
}

async function rebuild(
  db: Db,
  embedder: Embedder,
  quantizer: Quantizer,
  batch: number,
  onProgress?: (p: ReindexProgress) => void,
  signal?: AbortSignal,
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
