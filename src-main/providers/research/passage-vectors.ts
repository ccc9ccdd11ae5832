import { AppError } from '../../common/errors';
import { type Db, engineOf } from '../../store/open';

/**
 * Vectors of broker-note passages (table `research_passage_vectors`, migration 009). The research
 * index cannot import the search module (contracts/boundaries.json), so the host injects the
 * workspace's embedder through this port; the vectors are the same float32 encoding as memory's
 * (`search_entries.vector`), and the search module reads them.
 *
 * Waiting, decided: a passage whose embedding failed is indexed without a vector (keyword search
 * finds it) and is embedded by a later sync — every sync embeds up to `pendingPerSync` passages
 * that have no vector from the current embedder, which also covers passages made by an embedder
 * that has since been replaced. After a failure the embedder is left alone for `retryAfterMs`, so a
 * provider that is down costs one failed call, not one per search.
 */
export interface PassageEmbedder {
  readonly id: string;
  readonly dims: number;
  embed(texts: string[], kind: 'document' | 'query'): Promise<Float32Array[]>;
}

export interface PassageVectorOptions {
  /** Texts per embedding call (default 64). */
  batch?: number;
  /** Passages without a vector embedded by one sync (default 512); the rest wait for the next one. */
  pendingPerSync?: number;
  /** After a failed embedding, no new attempt for this long (default 60 s). */
  retryAfterMs?: number;
  now?: () => Date;
}

/** What a passage is embedded from: its heading (when it has one) and its text. */
export const embeddingText = (p: { section: string; text: string }) => (p.section ? `${p.section}\n${p.text}` : p.text).slice(0, 8000);

export interface Embedded {
  embedder: string;
  vectors: Float32Array[];
}

/**
 * The column that names a passage: FTS5 keys its rows by `rowid` (a PM's SQLite file), a desk's
 * PostgreSQL table has no rowid and keeps the same number in `passage` (store/postgres/schema.ts).
 * Neither engine reads the other's spelling, so the statements below take it from here.
 */
const passageKey = (db: Db) => (engineOf(db) === 'postgres' ? 'passage' : 'rowid');

export class PassageVectors {
  /** Why the last embedding failed (null once one succeeds). */
  lastError: string | null = null;
  /** Bumped by every write of passages or vectors in this process: a search's in-memory copy of the vectors is then stale. */
  generation = 0;
  private coolUntil = 0;

  constructor(
    private readonly db: Db,
    private readonly embedder: PassageEmbedder | undefined,
    private readonly options: PassageVectorOptions = {},
  ) {}

  get enabled(): boolean {
    return !!this.embedder;
  }

  private now(): number {
    return (this.options.now ?? (() => new Date()))().getTime();
  }

  /**
   * Vectors for these passages, made before the write transaction opens; null when there is no
   * embedder, it is cooling down after a failure, or it fails now (the passages then wait).
   */
  async tryEmbed(passages: { section: string; text: string }[]): Promise<Embedded | null> {
    if (!this.embedder || !passages.length || this.now() < this.coolUntil) return null;
    try {
      return await this.embed(passages);
    } catch (e) {
      this.lastError = ((e as Error)?.message ?? String(e)).slice(0, 300);
      this.coolUntil = this.now() + (this.options.retryAfterMs ?? 60_000);
      return null;
    }
  }

  /** Embeds in batches with the current embedder; throws when it fails or returns the wrong size. */
  private async embed(passages: { section: string; text: string }[]): Promise<Embedded> {
    const embedder = this.embedder!;
    const id = embedder.id;
    const batch = this.options.batch ?? 64;
    const vectors: Float32Array[] = [];
    for (let i = 0; i < passages.length; i += batch) {
      const part = passages.slice(i, i + batch);
      const out = await embedder.embed(part.map(embeddingText), 'document');
      if (out.length !== part.length || out.some((v) => v.length !== embedder.dims)) {
        throw new Error(`the embedder ${id} returned ${out.length} vectors for ${part.length} passages, or vectors of the wrong size`);
      }
      vectors.push(...out);
    }
    this.lastError = null;
    return { embedder: id, vectors };
  }

  /** Writes one passage's vector; call inside the transaction that wrote the passage. */
  write(passage: number, note: string, embedder: string, vector: Float32Array): void {
    this.generation++;
    this.db
      .prepare(
        `INSERT INTO research_passage_vectors (passage, note, embedder, vector) VALUES (?, ?, ?, ?)
         ON CONFLICT (passage) DO UPDATE SET note = excluded.note, embedder = excluded.embedder, vector = excluded.vector`,
      )
      .run(passage, note, embedder, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
  }

  /** A note's vectors go with its passages (same transaction as the passages' delete). */
  removeNote(note: string): void {
    this.generation++;
    this.db.prepare('DELETE FROM research_passage_vectors WHERE note = ?').run(note);
  }

  /** Embeds passages that have no vector from the current embedder (at most `limit`); returns how many were embedded. */
  async fillPending(limit = this.options.pendingPerSync ?? 512): Promise<number> {
    if (!this.embedder || this.now() < this.coolUntil) return 0;
    // Cheap check first (a count on an index and the small notes table): usually nothing waits.
    const { passages, embedded } = this.counts();
    if (embedded >= passages) return 0;
    const key = passageKey(this.db);
    const rows = (
      this.db
        .prepare(
          `SELECT p.${key} AS passage, p.note AS note, p.section AS section, p.text AS text FROM research_passages p
           WHERE NOT EXISTS (SELECT 1 FROM research_passage_vectors v WHERE v.passage = p.${key} AND v.embedder = ?)
           ORDER BY p.${key} LIMIT ?`,
        )
        .all(this.embedder.id, limit) as PassageRow[]
    ).map(numbered);
    if (!rows.length) return 0;
    const made = await this.tryEmbed(rows);
    return made ? this.writeChecked(rows, made) : 0;
  }

  /**
   * Re-embeds every passage with the current embedder (`forge reindex`, `search/reindex`), in
   * batches, each written in its own short transaction. Throws when the embedder fails.
   */
  async reembedAll(onProgress?: (done: number, total: number) => void, signal?: AbortSignal): Promise<{ done: number; total: number }> {
    if (!this.embedder) return { done: 0, total: 0 };
    const key = passageKey(this.db);
    // Vectors of passages that are gone (none should be: they leave with their passages).
    this.db.prepare(`DELETE FROM research_passage_vectors WHERE passage NOT IN (SELECT ${key} FROM research_passages)`).run();
    const total = Number((this.db.prepare('SELECT count(*) AS n FROM research_passages').get() as { n: number }).n);
    const page = this.db.prepare(`SELECT ${key} AS passage, note, section, text FROM research_passages WHERE ${key} > ? ORDER BY ${key} LIMIT ?`);
    const batch = this.options.batch ?? 64;
    let after = 0;
    let done = 0;
    onProgress?.(0, total);
    for (;;) {
      // Typed as memory's rebuild is (`cancelled`): the PM stopped it; vectors written so far stay.
      if (signal?.aborted) throw new AppError('cancelled', 'Rebuild stopped; run it again to finish.');
      const rows = (page.all(after, batch) as PassageRow[]).map(numbered);
      if (!rows.length) break;
      done += this.writeChecked(rows, await this.embed(rows));
      after = rows[rows.length - 1]!.passage;
      onProgress?.(done, Math.max(total, done));
    }
    this.coolUntil = 0;
    return { done, total: Math.max(total, done) };
  }

  /** Writes vectors of passages that are still what was embedded (a note replaced meanwhile keeps its own). */
  private writeChecked(rows: PassageRow[], made: Embedded): number {
    const current = this.db.prepare(`SELECT note, text FROM research_passages WHERE ${passageKey(this.db)} = ?`);
    let written = 0;
    this.db.transaction(() => {
      rows.forEach((r, i) => {
        const now = current.get(r.passage) as { note: string; text: string } | undefined;
        if (!now || now.note !== r.note || now.text !== r.text) return;
        this.write(r.passage, r.note, made.embedder, made.vectors[i]!);
        written++;
      });
    })();
    return written;
  }

  /** Passages, and those with a vector from the current embedder. */
  counts(): { passages: number; embedded: number } {
    // research_notes.passages is written with the passages, in the same transaction.
    const passages = (this.db.prepare('SELECT COALESCE(SUM(passages), 0) AS n FROM research_notes').get() as { n: number }).n;
    const embedded = this.embedder
      ? (this.db.prepare('SELECT count(*) AS n FROM research_passage_vectors WHERE embedder = ?').get(this.embedder.id) as { n: number }).n
      : 0;
    return { passages, embedded };
  }
}

/** A desk hands a bigint column back as text: the passage number is a number on both engines. */
const numbered = (r: PassageRow): PassageRow => ({ ...r, passage: Number(r.passage) });

interface PassageRow {
  passage: number;
  note: string;
  section: string;
  text: string;
}
