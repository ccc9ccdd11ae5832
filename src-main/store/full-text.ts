import type Database from 'better-sqlite3';
import { type Db, engineOf } from './open';

interface PendingChange {
  seq: number;
  rid: number;
  op: 1 | 2 | 3;
  old_rid: number | null;
}

interface ColumnTexts {
  t: string | null;
  h: string | null;
  b: string | null;
}

/** A row that was logged and then removed in the same transaction (a later delete follows). */
const GONE: ColumnTexts = { t: '', h: '', b: '' };

/**
 * Memory's full-text rows, written once per write transaction (migration 019 says why).
 *
 * `begin` turns the triggers to logging for the transaction it runs in; `flush` replays the log into
 * `memory_fts` with the very column expressions of the immediate triggers (migration 001), one plain
 * single-row statement at a time — no statement there opens a statement journal, so FTS5 keeps the
 * whole batch in memory and writes it as one segment at the commit; `end` flushes and turns the
 * logging off. All three run inside the caller's transaction: a rollback takes the log, the flag and
 * the full-text rows back together.
 */
export class DeferredFullText {
  private active = false;
  private statements?: {
    on: Database.Statement;
    off: Database.Statement;
    pending: Database.Statement;
    clear: Database.Statement;
    texts: Database.Statement;
    insert: Database.Statement;
    remove: Database.Statement;
  };

  /** On a desk's PostgreSQL there is no FTS5: memory_records' generated tsvector is always current. */
  private readonly none: boolean;

  constructor(private readonly db: Db) {
    this.none = engineOf(db) === 'postgres';
  }

  /** Starts logging full-text changes. Inside the outermost write transaction only. */
  begin(): void {
    if (this.none) return;
    // OR IGNORE: a database copied mid-way from elsewhere may already hold the row; end() removes it.
    this.stmts().on.run();
    this.active = true;
  }

  /** Writes the logged changes into `memory_fts` now (before the commit, or before a full-text read). */
  flush(): void {
    if (this.none || !this.active) return;
    const s = this.stmts();
    const changes = s.pending.all() as PendingChange[];
    if (!changes.length) return;
    // FTS5 keeps pending rows only while rowids ascend; each record's own changes stay in order.
    changes.sort((a, b) => a.rid - b.rid || a.seq - b.seq);
    for (const c of changes) {
      if (c.op !== 1) s.remove.run(c.op === 2 ? (c.old_rid ?? c.rid) : c.rid);
      if (c.op === 3) continue;
      const t = (s.texts.get(c.rid) as ColumnTexts | undefined) ?? GONE;
      s.insert.run(c.rid, t.t, t.h, t.b);
    }
    s.clear.run();
  }

  /** Flushes and stops logging; the transaction can then commit. */
  end(): void {
    if (this.none || !this.active) return;
    try {
      this.flush();
      this.stmts().off.run();
    } finally {
      this.active = false;
    }
  }

  /** After a rollback: nothing to write (the log went with it). */
  abandon(): void {
    this.active = false;
  }

  private stmts() {
    if (!this.statements) {
      const db = this.db;
      this.statements = {
        on: db.prepare('INSERT OR IGNORE INTO memory_text_deferral (on_) VALUES (1)'),
        off: db.prepare('DELETE FROM memory_text_deferral'),
        pending: db.prepare('SELECT seq, rid, op, old_rid FROM memory_text_pending'),
        clear: db.prepare('DELETE FROM memory_text_pending'),
        // The expressions of migration 001's triggers, so a deferred row is the row they would write.
        texts: db.prepare(
          `SELECT id || ' ' || title AS t, (SELECT group_concat(key || ' ' || value, ' ') FROM json_each(header)) AS h, coalesce(body, '') AS b
           FROM memory_records WHERE rid = ?`,
        ),
        insert: db.prepare('INSERT INTO memory_fts (rowid, title, header, body) VALUES (?, ?, ?, ?)'),
        remove: db.prepare('DELETE FROM memory_fts WHERE rowid = ?'),
      };
    }
    return this.statements;
  }
}
