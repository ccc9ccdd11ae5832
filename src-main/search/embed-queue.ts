import type { Db } from '../store';
import { asServerWork } from '../store/postgres/postgres-db';
import { EmbedderError, ModelStoppedError } from './embedder';

/**
 * A note that failed this many times on its own is parked: it no longer holds up the queue, and
 * Settings → Search lists it with its last error and a Retry button. Rewriting the note un-parks it.
 */
export const MAX_EMBED_ATTEMPTS = 3;

export interface ParkedNote {
  category: string;
  id: string;
  attempts: number;
  lastError: string | null;
  queuedAt: string;
}

/** A memory record as read for embedding. */
export interface RecordSource {
  rid: number;
  category: string;
  id: string;
  title: string;
  status: string | null;
  updated_at: string;
  header: string;
  body: string | null;
}

/** A queued record as read for embedding (its content hash detects a rewrite while embedding). */
export interface QueuedRecord extends RecordSource {
  content_hash: string;
}

export interface DrainDeps {
  /** The document text of a record, as the embedder sees it. */
  text(r: QueuedRecord): string;
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Writes the vectors and dequeues the records in one transaction; returns how many were indexed. */
  write(records: QueuedRecord[], vectors: Float32Array[]): number;
}

const messageOf = (e: unknown) => ((e as Error)?.message ?? String(e)).slice(0, 500);

/** A provider that is down (network, 429, 5xx) fails every note alike: no note is to blame for it. */
export const providerDown = (e: unknown) => e instanceof EmbedderError && e.retryable && !(e instanceof ModelStoppedError);

/**
 * Embeds the next batch of queued notes. When the batch fails, each note is tried alone, so one
 * note the model cannot embed no longer keeps every note behind it from its vector; a note that
 * fails alone counts an attempt and is parked at MAX_EMBED_ATTEMPTS. Notes that failed before go
 * to the back of the queue. A model that hung or crashed on a note ends the pass there: the rest
 * wait for the next one rather than for another timeout.
 */
export function drainEmbedQueue(db: Db, deps: DrainDeps, batch: number): Promise<{ indexed: number; remaining: number }> {
  // On a desk, the server's own work even when a person's write started it: read as that person,
  // the queue would look like it held only their notes, and drop everyone else's entries.
  return asServerWork(db, () => drainQueue(db, deps, batch));
}

async function drainQueue(db: Db, deps: DrainDeps, batch: number): Promise<{ indexed: number; remaining: number }> {
  const queued = db
    .prepare(
      `SELECT r.rid, r.category, r.id, r.title, r.status, r.updated_at, r.header, r.body, r.content_hash
       FROM search_queue q JOIN memory_records r ON r.rid = q.rid WHERE q.attempts < ? ORDER BY q.attempts, q.queued_at LIMIT ?`,
    )
    .all(MAX_EMBED_ATTEMPTS, batch) as QueuedRecord[];
  // Entries whose record has gone (deleted meanwhile) leave the queue.
  db.prepare('DELETE FROM search_queue WHERE rid NOT IN (SELECT rid FROM memory_records)').run();
  let indexed = 0;
  const note = db.prepare('UPDATE search_queue SET last_error = ? WHERE rid = ?');
  const failed = db.prepare('UPDATE search_queue SET attempts = attempts + 1, last_error = ? WHERE rid = ?');
  if (queued.length > 1) {
    const vectors = await deps.embed(queued.map(deps.text)).catch(() => null);
    if (vectors) return { indexed: deps.write(queued, vectors), remaining: queuedCount(db) };
  }
  for (const [i, r] of queued.entries()) {
    let vector: Float32Array | undefined;
    try {
      [vector] = await deps.embed([deps.text(r)]);
    } catch (e) {
      if (providerDown(e)) {
        const rest = queued.slice(i);
        db.transaction(() => {
          for (const q of rest) note.run(messageOf(e), q.rid);
        })();
        break;
      }
      failed.run(messageOf(e), r.rid);
      if (e instanceof ModelStoppedError) break;
      continue;
    }
    if (vector) indexed += deps.write([r], [vector]);
  }
  return { indexed, remaining: queuedCount(db) };
}

/**
 * Embeds a rebuild's batch; when the batch fails on a note (not a provider outage, not a model that
 * stopped), each note is tried alone and the ones that fail come back as errors, so one bad note
 * does not end the whole rebuild. Outages and stopped models still fail the rebuild, as before.
 */
export async function embedEach(texts: string[], embed: (texts: string[]) => Promise<Float32Array[]>): Promise<(Float32Array | { error: string })[]> {
  try {
    return await embed(texts);
  } catch (e) {
    if (texts.length === 1 || providerDown(e) || e instanceof ModelStoppedError) throw e;
  }
  const out: (Float32Array | { error: string })[] = [];
  for (const t of texts) {
    try {
      const [v] = await embed([t]);
      out.push(v as Float32Array);
    } catch (e) {
      if (providerDown(e) || e instanceof ModelStoppedError) throw e;
      out.push({ error: messageOf(e) });
    }
  }
  return out;
}

/** A note a rebuild could not embed: queued with one failed attempt (parked at MAX_EMBED_ATTEMPTS). Inside a transaction. */
export function queueFailed(db: Db, r: { rid: number; category: string; id: string }, error: string, at: string): void {
  // `search_queue.attempts`, qualified: PostgreSQL reads a bare `attempts` here as ambiguous (the
  // row or `excluded`) and refuses the statement; both engines read the qualified name alike.
  db.prepare(
    `INSERT INTO search_queue (rid, category, id, queued_at, attempts, last_error) VALUES (?, ?, ?, ?, 1, ?)
     ON CONFLICT (rid) DO UPDATE SET attempts = search_queue.attempts + 1, last_error = excluded.last_error`,
  ).run(r.rid, r.category, r.id, at, error.slice(0, 500));
}

/** Notes waiting for a vector (parked ones are counted apart). */
export function queuedCount(db: Db): number {
  return (db.prepare('SELECT count(*) AS n FROM search_queue WHERE attempts < ?').get(MAX_EMBED_ATTEMPTS) as { n: number }).n;
}

/** The parked notes, newest first (at most `limit`), and how many there are. */
export function parkedNotes(db: Db, limit = 20): { count: number; notes: ParkedNote[] } {
  const count = (db.prepare('SELECT count(*) AS n FROM search_queue WHERE attempts >= ?').get(MAX_EMBED_ATTEMPTS) as { n: number }).n;
  const notes = db
    .prepare(
      `SELECT category, id, attempts, last_error AS "lastError", queued_at AS "queuedAt" FROM search_queue
       WHERE attempts >= ? ORDER BY queued_at DESC, rid DESC LIMIT ?`,
    )
    .all(MAX_EMBED_ATTEMPTS, limit) as ParkedNote[];
  return { count, notes };
}

/** Gives every parked note a fresh set of attempts (Settings → Search → Retry); returns how many. */
export function retryParked(db: Db): number {
  return db.prepare('UPDATE search_queue SET attempts = 0 WHERE attempts >= ?').run(MAX_EMBED_ATTEMPTS).changes;
}
