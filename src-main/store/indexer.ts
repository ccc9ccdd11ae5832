import type { Db } from './open';

/** What a search index sees of a memory record. */
export interface IndexableRecord {
  category: string;
  /** Null before the write transaction when the id is still to be assigned (`new.md`). */
  id: string | null;
  title: string;
  header: Record<string, unknown>;
  body: string | null;
  /** The canonical markdown that will be stored. */
  content: string;
}

/** The record's status and update time as its row holds them after the write (status lower-cased). */
export interface StoredColumns {
  status: string | null;
  updated_at: string;
}

/**
 * Hook for a search index that must stay in step with memory. `prepare` runs before the write
 * transaction opens (it may be slow and async, e.g. computing an embedding); `apply` and `remove`
 * run inside the transaction, synchronously, so the index and the record commit together.
 * `prepared` is undefined when a write was not announced in advance (its content was only known
 * inside the transaction): the indexer should then index what it can and catch up later.
 */
export interface MemoryIndexer {
  prepare(record: IndexableRecord): Promise<unknown>;
  apply(db: Db, record: IndexableRecord & { rid: number; id: string; path: string; stored?: StoredColumns }, prepared: unknown): void;
  remove(db: Db, ref: { rid: number; category: string; id: string }): void;
}
