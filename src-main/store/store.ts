import type Database from 'better-sqlite3';
import { AppError } from '../common/errors';
import { AuditLog } from './audit';
import { PortfolioDocuments, Sessions } from './documents';
import { DeferredFullText } from './full-text';
import { openDatabase, type Db, type OpenDatabaseOptions } from './open';
import { MemoryRecords } from './records';
import { RecordTables } from './record-table';

/**
 * One workspace database and its repositories. Writes go through `writeTransaction`, which takes
 * the write lock up front (BEGIN IMMEDIATE) so id sequences and read-modify-write steps are safe
 * against other processes on the same file.
 */
export class Store {
  readonly records: MemoryRecords;
  /** The Views and Expressions tables: sorted, filtered pages (memory/table). */
  readonly tables: RecordTables;
  readonly portfolio: PortfolioDocuments;
  readonly sessions: Sessions;
  readonly audit: AuditLog;
  /** Memory's full-text rows, written once per write transaction (migration 019). */
  readonly fullText: DeferredFullText;
  private closed = false;
  private readonly runInTransaction: Database.Transaction<(fn: () => unknown) => unknown>;

  constructor(readonly db: Db) {
    this.fullText = new DeferredFullText(db);
    this.records = new MemoryRecords(db, this.fullText);
    this.tables = new RecordTables(db, this.fullText);
    this.portfolio = new PortfolioDocuments(db);
    this.sessions = new Sessions(db);
    this.audit = new AuditLog(db);
    this.runInTransaction = db.transaction((fn: () => unknown) => fn());
  }

  static open(path: string, options?: OpenDatabaseOptions): Store {
    return new Store(openDatabase(path, options));
  }

  /**
   * Runs `fn` in an IMMEDIATE transaction; nested calls become savepoints. The outermost one writes
   * memory's full-text rows once, just before it commits (DeferredFullText) — unless the caller
   * knows it writes one record (`fullTextOnce: false`), where the switch's two extra pages would
   * cost more than the one segment they save.
   */
  writeTransaction<T>(fn: () => T, options: { fullTextOnce?: boolean } = {}): T {
    const nested = this.db.inTransaction;
    try {
      if (nested) return this.runInTransaction(fn) as T;
      const once = options.fullTextOnce ?? true;
      return this.runInTransaction.immediate(() => {
        if (once) this.fullText.begin();
        const result = fn();
        if (once) this.fullText.end();
        return result;
      }) as T;
    } catch (e) {
      // Rolled back with the log; a nested failure leaves the outer transaction's logging on.
      if (!nested) this.fullText.abandon();
      throw storageFault(e) ?? e;
    }
  }

  getMeta(key: string): string | undefined {
    return (this.db.prepare('SELECT value FROM workspace_meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }

  setMeta(key: string, value: string): void {
    this.db.prepare('INSERT INTO workspace_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.db.pragma('optimize');
    } catch {
      /* closing anyway */
    }
    this.db.close();
  }
}

/**
 * The machine, not the input, refused a write: a full disk or a data folder that became
 * read-only. SQLite rolled the transaction back, so the PM is told that nothing was half-written
 * (a raw SqliteError would reach the app as its bare code, e.g. "SQLITE_FULL").
 */
function storageFault(e: unknown): AppError | undefined {
  const code = (e as { code?: unknown })?.code;
  if (typeof code !== 'string') return undefined;
  if (code === 'SQLITE_FULL')
    return new AppError('unavailable', 'The disk is full: Forge could not save this change; free some space and try again. Nothing was half-written.', {
      cause: e,
    });
  if (code.startsWith('SQLITE_READONLY'))
    return new AppError(
      'unavailable',
      "Forge's data folder is read-only, so this change could not be saved; check the folder's permissions (or the disk) and try again. Nothing was half-written.",
      { cause: e },
    );
  return undefined;
}
