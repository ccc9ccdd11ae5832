import { NotFoundError } from '../common/errors';
import type { Db } from './open';

export interface DocumentRow {
  content: string;
  updated_at: string;
  content_hash: string;
}

/** Portfolio documents (`state.md`, `constraints.md`): whole-text files kept in the database. */
export class PortfolioDocuments {
  constructor(private readonly db: Db) {}

  get(name: string): DocumentRow | undefined {
    return this.db.prepare('SELECT content, updated_at, content_hash FROM portfolio_documents WHERE name = ?').get(name) as DocumentRow | undefined;
  }

  put(name: string, content: string, updatedAt: string, hash: string): { created: boolean } {
    const created = !this.get(name);
    this.db
      .prepare(
        `INSERT INTO portfolio_documents (name, content, updated_at, content_hash) VALUES (?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at, content_hash = excluded.content_hash`,
      )
      .run(name, content, updatedAt, hash);
    return { created };
  }

  list(): { name: string; updated_at: string }[] {
    return this.db.prepare('SELECT name, updated_at FROM portfolio_documents ORDER BY name').all() as { name: string; updated_at: string }[];
  }
}

export interface SessionRow {
  id: string;
  user_id: string;
  created_at: string;
  last_active: string;
  turn_number: number;
  status: 'active' | 'archived';
}

/** A session_files row whose session the viewer (the last parameter) may see: theirs or the server's own. */
const VISIBLE_SESSION = "EXISTS (SELECT 1 FROM sessions s WHERE s.id = session_files.session_id AND (s.user_id = ? OR s.user_id = 'default'))";

/** Conversations and their working files (`turn_history.md`, `tasks.md`, `results/<task>.md` ...). */
export class Sessions {
  /** Whose sessions the reads below may see (restrictTo); undefined: every session. */
  private viewer: () => string | undefined = () => undefined;

  constructor(private readonly db: Db) {}

  /**
   * A desk: from now on a session, its files and the list are seen only by its owner — `viewer()`,
   * the person of the call — and the server's own sessions ('default': scheduled runs) by anyone;
   * a colleague's read as absent. Here rather than in each reader (sessions/open, the /session/
   * paths of memory/read and list, the analyst's read tool) so none of them can leak one. When
   * `viewer()` answers undefined (the server's own work, the workbench) nothing is filtered.
   */
  restrictTo(viewer: () => string | undefined): void {
    this.viewer = viewer;
  }

  get(id: string): SessionRow | undefined {
    const v = this.viewer();
    if (v === undefined) return this.db.prepare('SELECT * FROM sessions WHERE id = ?').get(id) as SessionRow | undefined;
    return this.db.prepare("SELECT * FROM sessions WHERE id = ? AND (user_id = ? OR user_id = 'default')").get(id, v) as SessionRow | undefined;
  }

  /** Whether any session, anyone's, has this id (choosing a new session's id must not reuse a colleague's). */
  taken(id: string): boolean {
    return !!this.db.prepare('SELECT 1 AS one FROM sessions WHERE id = ?').get(id);
  }

  /** Creates the session if it does not exist yet (owned by `userId`, else the person of the call); returns it either way. */
  ensure(id: string, now: string, userId = this.viewer() ?? 'default'): SessionRow {
    this.db.prepare('INSERT INTO sessions (id, user_id, created_at, last_active) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING').run(id, userId, now, now);
    const row = this.get(id);
    if (!row) throw new NotFoundError(`There is no session ${id}; start a new conversation instead.`);
    return row;
  }

  touch(id: string, now: string, turnNumber?: number): void {
    if (turnNumber === undefined) this.db.prepare('UPDATE sessions SET last_active = ? WHERE id = ?').run(now, id);
    else this.db.prepare('UPDATE sessions SET last_active = ?, turn_number = ? WHERE id = ?').run(now, turnNumber, id);
  }

  setStatus(id: string, status: SessionRow['status']): void {
    this.db.prepare('UPDATE sessions SET status = ? WHERE id = ?').run(status, id);
  }

  /** The user's most recent active session, if any. */
  active(userId = 'default'): SessionRow | undefined {
    return this.db.prepare("SELECT * FROM sessions WHERE user_id = ? AND status = 'active' ORDER BY last_active DESC LIMIT 1").get(userId) as
      | SessionRow
      | undefined;
  }

  /**
   * Sessions newest first. `owner`: only that person's and the server's own ('default': scheduled
   * runs) — a desk, where a colleague's conversations are private; omitted: every session.
   */
  list(limit: number, offset: number, owner = this.viewer()): { rows: SessionRow[]; total: number } {
    const where = owner === undefined ? '' : "WHERE user_id = ? OR user_id = 'default'";
    const by = owner === undefined ? [] : [owner];
    const rows = this.db.prepare(`SELECT * FROM sessions ${where} ORDER BY last_active DESC LIMIT ? OFFSET ?`).all(...by, limit, offset) as SessionRow[];
    const total = (this.db.prepare(`SELECT count(*) AS n FROM sessions ${where}`).get(...by) as { n: number }).n;
    return { rows, total };
  }

  getFile(sessionId: string, path: string): DocumentRow | undefined {
    const v = this.viewer();
    if (v === undefined)
      return this.db.prepare('SELECT content, updated_at, content_hash FROM session_files WHERE session_id = ? AND path = ?').get(sessionId, path) as
        | DocumentRow
        | undefined;
    return this.db
      .prepare(`SELECT content, updated_at, content_hash FROM session_files WHERE session_id = ? AND path = ? AND ${VISIBLE_SESSION}`)
      .get(sessionId, path, v) as DocumentRow | undefined;
  }

  putFile(sessionId: string, path: string, content: string, updatedAt: string, hash: string): { created: boolean } {
    // A colleague's session is not one to write into (restrictTo): as if it did not exist.
    if (this.viewer() !== undefined && !this.get(sessionId)) throw new NotFoundError(`There is no session ${sessionId}; start a new conversation instead.`);
    const created = !this.getFile(sessionId, path);
    this.db
      .prepare(
        `INSERT INTO session_files (session_id, path, content, updated_at, content_hash) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (session_id, path) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at, content_hash = excluded.content_hash`,
      )
      .run(sessionId, path, content, updatedAt, hash);
    return { created };
  }

  /** Files of a session whose path starts with `prefix` ('' for all, 'results/' for one folder). */
  listFiles(sessionId: string, prefix: string): { path: string; updated_at: string }[] {
    const v = this.viewer();
    const mine = v === undefined ? '' : ` AND ${VISIBLE_SESSION}`;
    return this.db
      .prepare(`SELECT path, updated_at FROM session_files WHERE session_id = ? AND substr(path, 1, length(?)) = ?${mine} ORDER BY path`)
      .all(sessionId, prefix, prefix, ...(v === undefined ? [] : [v])) as { path: string; updated_at: string }[];
  }
}
