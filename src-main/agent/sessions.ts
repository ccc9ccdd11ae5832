import { ConflictError, NotFoundError } from '../common/errors';
import type { ForgeFS, WriteContext } from '../fs';
import type { SessionRow } from '../store';

/** What starts a turn: the PM typing, or the scheduler/an alert (those always get a fresh session). */
export type TriggerType = 'pm' | 'schedule' | 'alert';

export interface SessionContext {
  sessionId: string;
  turn: number;
  startedAt: Date;
  /** The last lines of turn history when the session continues (seed §10: 15 lines). */
  priorSummary: string | null;
  isNew: boolean;
}

export interface SessionManagerOptions {
  timeoutMinutes: () => number;
  now?: () => Date;
  /**
   * Whose sessions these are: one PM's workbench has one ('default'); on a desk, the person of the
   * call (read at each use), so each PM continues their own conversation, never a colleague's.
   * Undefined (the server's own work, a scheduled run) is 'default'.
   */
  userId?: string | (() => string | undefined);
}

export const PRIOR_LINES = 15;
const HISTORY = 'turn_history.md';

const pad = (n: number) => String(n).padStart(2, '0');
function compactStamp(d: Date): string {
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}_${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

/**
 * Sessions (seed §10): a PM message continues the active session unless it has been idle longer
 * than the timeout; an expired session is archived and stays readable, never writable again.
 */
export class SessionManager {
  private readonly now: () => Date;
  private readonly owner: () => string;

  constructor(
    private readonly fs: ForgeFS,
    private readonly options: SessionManagerOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    const { userId } = options;
    this.owner = typeof userId === 'function' ? () => userId() ?? 'default' : () => userId ?? 'default';
  }

  private get store() {
    return this.fs.store;
  }

  expired(row: SessionRow, at = this.now()): boolean {
    return at.getTime() - Date.parse(row.last_active) > this.options.timeoutMinutes() * 60_000;
  }

  /** Archives every active session that has been idle past the timeout; returns how many. */
  archiveExpired(): number {
    const at = this.now();
    let n = 0;
    for (;;) {
      const active = this.store.sessions.active(this.owner());
      if (!active || !this.expired(active, at)) break;
      this.store.sessions.setStatus(active.id, 'archived');
      n++;
    }
    return n;
  }

  /** `fresh`: the PM asked for a new conversation; the current one is archived (read-only). */
  resolve(trigger: { type: TriggerType; sessionId?: string; fresh?: boolean }): SessionContext {
    if (trigger.sessionId) {
      const row = this.store.sessions.get(trigger.sessionId);
      // A colleague's conversation is not one to continue (a desk): as if it did not exist. The
      // server's own sessions ('default': a scheduled review) stay open to whoever follows them up.
      const owner = this.owner();
      if (!row || (row.user_id !== owner && row.user_id !== 'default'))
        throw new NotFoundError(`There is no session ${trigger.sessionId}; start a new conversation instead.`);
      if (row.status === 'active' && this.expired(row)) this.store.sessions.setStatus(row.id, 'archived');
      if (row.status === 'archived' || this.expired(row)) {
        throw new ConflictError(`Session ${row.id} has ended and is read-only. Send your message without choosing a session to start a new one.`);
      }
      return this.continueSession(row);
    }
    this.archiveExpired();
    if (trigger.fresh) {
      const active = this.store.sessions.active(this.owner());
      if (active) this.store.sessions.setStatus(active.id, 'archived');
    } else if (trigger.type === 'pm') {
      const active = this.store.sessions.active(this.owner());
      if (active) return this.continueSession(active);
    }
    return this.newSession();
  }

  private continueSession(row: SessionRow): SessionContext {
    const turn = row.turn_number + 1;
    this.store.sessions.touch(row.id, this.now().toISOString(), turn);
    return { sessionId: row.id, turn, startedAt: new Date(row.created_at), priorSummary: this.priorSummary(row.id), isNew: false };
  }

  private newSession(): SessionContext {
    const at = this.now();
    const base = `sess_${compactStamp(at)}`;
    let id = base;
    for (let n = 2; this.store.sessions.taken(id); n++) id = `${base}_${n}`;
    this.store.sessions.ensure(id, at.toISOString(), this.owner());
    this.store.sessions.touch(id, at.toISOString(), 1);
    return { sessionId: id, turn: 1, startedAt: at, priorSummary: null, isNew: true };
  }

  priorSummary(sessionId: string): string | null {
    const f = this.store.sessions.getFile(sessionId, HISTORY);
    if (!f?.content.trim()) return null;
    return f.content.trim().split('\n').slice(-PRIOR_LINES).join('\n');
  }

  /** Appends the turn to /session/<id>/turn_history.md (query and the start of the answer). */
  async recordTurn(sessionId: string, turn: number, query: string, result: string, writer: WriteContext): Promise<void> {
    const path = `/session/${sessionId}/${HISTORY}`;
    const clip = (s: string, n: number) => {
      const one = s.replace(/\s+/g, ' ').trim();
      return one.length > n ? `${one.slice(0, n)}…` : one;
    };
    const entry = `## Turn ${turn} (${this.now().toISOString()})\nQuery: ${clip(query, 200)}\nResult: ${clip(result, 300) || '(no answer)'}\n`;
    await this.fs.transaction((tx) => {
      const existing = tx.exists(path) ? tx.readFile(path) : '';
      tx.writeFile(path, existing ? `${existing.replace(/\n*$/, '\n')}\n${entry}` : entry, { ...writer, sessionId });
    });
    this.store.sessions.touch(sessionId, this.now().toISOString());
  }

  /**
   * The session `id` if the person of the call may see it: their own or the server's own
   * ('default': a scheduled review, open to whoever follows it up). A colleague's (a desk) reads
   * as absent. On the one-PM workbench (and for the server's own work) the owner is 'default'
   * and every session is visible, as before.
   */
  private visible(id: string): SessionRow | undefined {
    const row = this.store.sessions.get(id);
    const owner = this.owner();
    return row && (owner === 'default' || row.user_id === owner || row.user_id === 'default') ? row : undefined;
  }

  /** The sessions the person of the call may see (visible), newest first. */
  list(limit = 50, offset = 0): { sessions: SessionSummary[]; total: number } {
    const owner = this.owner();
    const { rows, total } = this.store.sessions.list(limit, offset, owner === 'default' ? undefined : owner);
    return { sessions: rows.map((r) => this.summary(r)), total };
  }

  /** A session with its turn history and files; read-only unless it is the live one. A colleague's is not found. */
  open(id: string): { session: SessionSummary; turnHistory: string; files: { path: string; updatedAt: string }[] } {
    const row = this.visible(id);
    if (!row) throw new NotFoundError(`There is no session ${id}; list sessions to see them.`);
    const history = this.store.sessions.getFile(id, HISTORY)?.content ?? '';
    const files = this.store.sessions.listFiles(id, '').map((f) => ({ path: `/session/${id}/${f.path}`, updatedAt: f.updated_at }));
    return { session: this.summary(row), turnHistory: history, files };
  }

  private summary(r: SessionRow): SessionSummary {
    const expired = r.status === 'archived' || this.expired(r);
    const history = this.store.sessions.getFile(r.id, HISTORY)?.content ?? '';
    const firstQuery = /^Query: (.*)$/m.exec(history)?.[1] ?? '';
    return {
      id: r.id,
      createdAt: r.created_at,
      lastActive: r.last_active,
      turns: r.turn_number,
      status: expired ? 'archived' : 'active',
      readOnly: expired,
      title: firstQuery.slice(0, 120),
    };
  }
}

export interface SessionSummary {
  id: string;
  createdAt: string;
  lastActive: string;
  turns: number;
  status: 'active' | 'archived';
  readOnly: boolean;
  title: string;
}
