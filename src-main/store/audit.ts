import type { Db } from './open';

export interface AuditRow {
  seq: number;
  at: string;
  actor: string;
  operation: string;
  path: string;
  session_id: string | null;
  task_id: string | null;
  content_hash: string | null;
}

export type AuditInput = Omit<AuditRow, 'seq'>;

/** The append-only decision lineage: who wrote what, when, and from which session and task. */
export class AuditLog {
  private readonly appendStmt;

  constructor(private readonly db: Db) {
    this.appendStmt = db.prepare(
      `INSERT INTO audit_log (at, actor, operation, path, session_id, task_id, content_hash)
       VALUES (@at, @actor, @operation, @path, @session_id, @task_id, @content_hash)`,
    );
  }

  append(entry: AuditInput): number {
    return Number(this.appendStmt.run(entry).lastInsertRowid);
  }

  /**
   * Newest first. `path` ending in `/` means everything under that folder; otherwise the exact path.
   * `before` pages back by sequence number.
   */
  list(options: { path?: string; limit: number; before?: number }): AuditRow[] {
    const conds: string[] = [];
    const params: unknown[] = [];
    if (options.path) {
      if (options.path.endsWith('/')) {
        conds.push('path >= ? AND path < ?');
        params.push(options.path, options.path.slice(0, -1) + '0'); // '0' sorts right after '/'
      } else {
        conds.push('path = ?');
        params.push(options.path);
      }
    }
    if (options.before !== undefined) {
      conds.push('seq < ?');
      params.push(options.before);
    }
    const where = conds.length ? `WHERE ${conds.join(' AND ')}` : '';
    return this.db.prepare(`SELECT * FROM audit_log ${where} ORDER BY seq DESC LIMIT ?`).all(...params, options.limit) as AuditRow[];
  }
}
