import type Database from 'better-sqlite3';
import { AuditLog } from './audit';
import { PortfolioDocuments, Sessions } from './documents';
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
  private closed = false;
  private readonly runInTransaction: Database.Transaction<(fn: () => unknown) => unknown>;

  constructor(readonly db: Db) {
    this.records = new MemoryRecords(db);
    this.tables = new RecordTables(db);
    this.portfolio = new PortfolioDocuments(db);
    this.sessions = new Sessions(db);
    this.audit = new AuditLog(db);
    this.runInTransaction = db.transaction((fn: () => unknown) => fn());
  }

  static open(path: string, options?: OpenDatabaseOptions): Store {
    return new Store(openDatabase(path, options));
  }

  /** Runs `fn` in an IMMEDIATE transaction; nested calls become savepoints. */
  writeTransaction<T>(fn: () => T): T {
    if (this.db.inTransaction) return this.runInTransaction(fn) as T;
    return this.runInTransaction.immediate(fn) as T;
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
