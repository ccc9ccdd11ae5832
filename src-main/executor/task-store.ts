import type { Db } from '../store';
import type { TaskEvent, TaskFailure, TaskRecord, TaskSpec, TaskStatus, ValidationResult } from './types';

interface TaskRow {
  session_id: string;
  id: string;
  skill: string;
  objective: string;
  spec: string;
  status: TaskStatus;
  failure: TaskFailure | null;
  error: string | null;
  summary: string | null;
  result_path: string | null;
  validation: string | null;
  retry_of: string | null;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  rounds: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
}

function fromRow(r: TaskRow): TaskRecord {
  return {
    sessionId: r.session_id,
    id: r.id,
    spec: JSON.parse(r.spec) as TaskSpec,
    status: r.status,
    failure: r.failure,
    error: r.error,
    summary: r.summary,
    resultPath: r.result_path,
    validation: r.validation ? (JSON.parse(r.validation) as ValidationResult) : null,
    inputTokens: r.input_tokens,
    outputTokens: r.output_tokens,
    costUsd: r.cost_usd,
    rounds: r.rounds,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    updatedAt: r.updated_at,
  };
}

export interface TaskListFilter {
  sessionId?: string;
  status?: TaskStatus[];
  limit?: number;
  /** Only tasks created before this ISO time (paging). */
  before?: string;
}

/**
 * SQLite persistence of tasks and their event trail (migration 004). Synchronous, one statement
 * per state change: a state change and its event commit together.
 */
export class TaskStore {
  private readonly upsertStmt;
  private readonly eventStmt;
  private readonly getStmt;
  private readonly eventsStmt;
  private readonly nextAttemptStmt;
  private readonly retryIdsStmt;
  private readonly runTasksStmt;
  private readonly uncollectedStmt;
  private readonly collectStmt;

  constructor(private readonly db: Db) {
    this.upsertStmt = db.prepare(`
      INSERT INTO tasks (session_id, id, skill, objective, spec, status, failure, error, summary, result_path, validation,
                         retry_of, input_tokens, output_tokens, cost_usd, rounds, created_at, started_at, finished_at, updated_at)
      VALUES (@session_id, @id, @skill, @objective, @spec, @status, @failure, @error, @summary, @result_path, @validation,
              @retry_of, @input_tokens, @output_tokens, @cost_usd, @rounds, @created_at, @started_at, @finished_at, @updated_at)
      ON CONFLICT (session_id, id) DO UPDATE SET
        status = excluded.status, failure = excluded.failure, error = excluded.error, summary = excluded.summary,
        result_path = excluded.result_path, validation = excluded.validation, input_tokens = excluded.input_tokens,
        output_tokens = excluded.output_tokens, cost_usd = excluded.cost_usd, rounds = excluded.rounds,
        started_at = excluded.started_at, finished_at = excluded.finished_at, updated_at = excluded.updated_at`);
    this.eventStmt = db.prepare('INSERT INTO task_events (session_id, task_id, at, kind, detail) VALUES (?, ?, ?, ?, ?)');
    this.getStmt = db.prepare('SELECT * FROM tasks WHERE session_id = ? AND id = ?');
    this.eventsStmt = db.prepare('SELECT seq, session_id, task_id, at, kind, detail FROM task_events WHERE session_id = ? AND task_id = ? ORDER BY seq');
    // Index tasks_by_retry_of (migration 005).
    this.nextAttemptStmt = db.prepare(
      `SELECT id FROM tasks WHERE session_id = ? AND retry_of = ? AND status != 'cancelled' ORDER BY created_at DESC, rowid DESC LIMIT 1`,
    );
    // Task ids allow no GLOB metacharacters (TASK_ID), so the base id is matched literally.
    this.retryIdsStmt = db.prepare(`SELECT id FROM tasks WHERE session_id = ? AND id GLOB ? || '-r[0-9]*'`);
    this.runTasksStmt = db.prepare('SELECT * FROM tasks WHERE session_id = ? AND rowid > ? ORDER BY rowid');
    this.uncollectedStmt = db.prepare(`
      SELECT t.* FROM tasks t
      WHERE t.session_id = ? AND t.rowid > ? AND t.status IN ('ok', 'failed', 'cancelled')
        AND NOT EXISTS (SELECT 1 FROM task_events e WHERE e.session_id = t.session_id AND e.task_id = t.id AND e.kind = 'collected')
      ORDER BY t.finished_at, t.rowid`);
    this.collectStmt = db.prepare(`
      INSERT INTO task_events (session_id, task_id, at, kind, detail)
      SELECT session_id, id, ?, 'collected', 'the analyst read the result' FROM tasks t
      WHERE t.session_id = ? AND t.id = ? AND t.status IN ('ok', 'failed', 'cancelled')
        AND NOT EXISTS (SELECT 1 FROM task_events e WHERE e.session_id = t.session_id AND e.task_id = t.id AND e.kind = 'collected')`);
  }

  /** The newest rowid so far: tasks dispatched from now on have a larger one (this run's tasks). */
  lastRowid(): number {
    return (this.db.prepare('SELECT COALESCE(MAX(rowid), 0) AS n FROM tasks').get() as { n: number }).n;
  }

  /** The newest attempt of a task that was not cancelled (following retry_of), else the id itself. */
  latestAttempt(sessionId: string, id: string): string {
    let current = id;
    for (let guard = 0; guard < 50; guard++) {
      const next = this.nextAttemptStmt.get(sessionId, current) as { id: string } | undefined;
      if (!next) break;
      current = next.id;
    }
    return current;
  }

  /** The lowest n for which `<base>-r<n>` is not taken in the session. */
  freeRetryNumber(sessionId: string, base: string): number {
    const taken = new Set<number>();
    for (const { id } of this.retryIdsStmt.all(sessionId, base) as { id: string }[]) {
      const suffix = id.slice(base.length + 2);
      if (/^[1-9]\d*$/.test(suffix)) taken.add(Number(suffix));
    }
    let n = 1;
    while (taken.has(n)) n++;
    return n;
  }

  /** The session's tasks dispatched after `afterRowid` (this run), in dispatch order. */
  runTasks(sessionId: string, afterRowid: number): TaskRecord[] {
    return (this.runTasksStmt.all(sessionId, afterRowid) as TaskRow[]).map(fromRow);
  }

  /** Finished tasks of this run the analyst has not collected yet, in the order they finished. */
  uncollected(sessionId: string, afterRowid: number): TaskRecord[] {
    return (this.uncollectedStmt.all(sessionId, afterRowid) as TaskRow[]).map(fromRow);
  }

  /** Records that the analyst read these finished tasks (collect), once each. */
  markCollected(sessionId: string, ids: readonly string[], at: string): void {
    if (!ids.length) return;
    this.db.transaction(() => {
      for (const id of ids) this.collectStmt.run(at, sessionId, id);
    })();
  }

  /** Writes the task's current state and, when given, one event — in one transaction. */
  save(t: TaskRecord, event?: { kind: string; detail?: string }): void {
    const run = () => {
      this.upsertStmt.run({
        session_id: t.sessionId,
        id: t.id,
        skill: t.spec.skill,
        objective: t.spec.objective,
        spec: JSON.stringify(t.spec),
        status: t.status,
        failure: t.failure,
        error: t.error,
        summary: t.summary,
        result_path: t.resultPath,
        validation: t.validation ? JSON.stringify(t.validation) : null,
        retry_of: t.spec.retryOf ?? null,
        input_tokens: t.inputTokens,
        output_tokens: t.outputTokens,
        cost_usd: t.costUsd,
        rounds: t.rounds,
        created_at: t.createdAt,
        started_at: t.startedAt,
        finished_at: t.finishedAt,
        updated_at: t.updatedAt,
      });
      if (event) this.eventStmt.run(t.sessionId, t.id, t.updatedAt, event.kind, event.detail ?? '');
    };
    if (event) this.db.transaction(run)();
    else run();
  }

  event(sessionId: string, taskId: string, at: string, kind: string, detail = ''): void {
    this.eventStmt.run(sessionId, taskId, at, kind, detail);
  }

  get(sessionId: string, id: string): TaskRecord | null {
    const row = this.getStmt.get(sessionId, id) as TaskRow | undefined;
    return row ? fromRow(row) : null;
  }

  events(sessionId: string, id: string): TaskEvent[] {
    return (this.eventsStmt.all(sessionId, id) as { seq: number; session_id: string; task_id: string; at: string; kind: string; detail: string }[]).map(
      (e) => ({
        seq: e.seq,
        sessionId: e.session_id,
        taskId: e.task_id,
        at: e.at,
        kind: e.kind,
        detail: e.detail,
      }),
    );
  }

  list(filter: TaskListFilter = {}): TaskRecord[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.sessionId) {
      where.push('session_id = ?');
      params.push(filter.sessionId);
    }
    if (filter.status?.length) {
      where.push(`status IN (${filter.status.map(() => '?').join(', ')})`);
      params.push(...filter.status);
    }
    if (filter.before) {
      where.push('created_at < ?');
      params.push(filter.before);
    }
    const sql = `SELECT * FROM tasks ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, rowid DESC LIMIT ?`;
    params.push(filter.limit ?? 200);
    return (this.db.prepare(sql).all(...params) as TaskRow[]).map(fromRow);
  }

  /**
   * Tasks a previous run left unfinished (the app quit or crashed) become `failed` with reason
   * `interrupted`, each with an event saying so. Returns how many.
   */
  markInterrupted(at: string): number {
    const tx = this.db.transaction(() => {
      const rows = this.db.prepare(`SELECT session_id, id, status FROM tasks WHERE status IN ('queued', 'waiting', 'running', 'validating')`).all() as {
        session_id: string;
        id: string;
        status: string;
      }[];
      const upd = this.db.prepare(
        `UPDATE tasks SET status = 'failed', failure = 'interrupted', error = ?, finished_at = ?, updated_at = ? WHERE session_id = ? AND id = ?`,
      );
      for (const r of rows) {
        const msg = `Interrupted: Forge stopped while this task was ${r.status}. Retry it to run it again.`;
        upd.run(msg, at, at, r.session_id, r.id);
        this.eventStmt.run(r.session_id, r.id, at, 'interrupted', `was ${r.status}`);
      }
      return rows.length;
    });
    return tx.immediate();
  }
}
