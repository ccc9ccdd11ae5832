import { AppError, ConflictError } from '../common/errors';
import type { Db } from '../store';

export type RunStatus = 'running' | 'ok' | 'failed' | 'skipped' | 'interrupted';
/** `schedule`: on time; `catch_up`: a slot missed while closed or asleep; `manual`: the PM's Run now. */
export type RunTrigger = 'schedule' | 'catch_up' | 'manual';

export interface ScheduleRun {
  id: number;
  job: string;
  trigger: RunTrigger;
  scheduledFor: string | null;
  startedAt: string;
  finishedAt: string | null;
  status: RunStatus;
  sessionId: string | null;
  costUsd: number | null;
  summary: string | null;
  error: string | null;
}

export interface JobState {
  job: string;
  paused: boolean;
  pausedAt: string | null;
  /** The latest slot that was run (or skipped as too late). */
  lastSlot: string | null;
  /** Slots after this instant are owed a run: the first start, or the last resume. */
  owedSince: string;
}

interface RunRow {
  id: number;
  job: string;
  trigger: RunTrigger;
  scheduled_for: string | null;
  started_at: string;
  finished_at: string | null;
  status: RunStatus;
  session_id: string | null;
  cost_usd: number | null;
  summary: string | null;
  error: string | null;
}

interface StateRow {
  job: string;
  paused: number;
  paused_at: string | null;
  last_slot: string | null;
  owed_since: string;
}

const TEXT_LIMIT = 2000;
const clip = (s: string | null | undefined): string | null => (s == null ? null : s.length > TEXT_LIMIT ? `${s.slice(0, TEXT_LIMIT)}…` : s);

const toRun = (r: RunRow): ScheduleRun => ({
  id: r.id,
  job: r.job,
  trigger: r.trigger,
  scheduledFor: r.scheduled_for,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  status: r.status,
  sessionId: r.session_id,
  costUsd: r.cost_usd,
  summary: r.summary,
  error: r.error,
});

/** The scheduler's tables (migration 011): the run log and each job's state. Plain synchronous SQL. */
export class ScheduleLog {
  constructor(private readonly db: Db) {
    const has = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('schedule_runs', 'schedule_state')").get() as {
      n: number;
    };
    if (has.n !== 2) {
      throw new AppError('internal', 'This workspace database has no schedule tables (migration 011_schedule has not run); schedules cannot be kept.');
    }
  }

  /** The job's state, created on first sight with nothing owed before `now`. */
  state(job: string, now: Date): JobState {
    const read = () =>
      this.db.prepare('SELECT job, paused, paused_at, last_slot, owed_since FROM schedule_state WHERE job = ?').get(job) as StateRow | undefined;
    // Read first: the timer checks every minute, and a no-op INSERT would still take the write lock.
    let r = read();
    if (!r) {
      this.db
        .prepare('INSERT INTO schedule_state (job, owed_since, updated_at) VALUES (?, ?, ?) ON CONFLICT (job) DO NOTHING')
        .run(job, now.toISOString(), now.toISOString());
      r = read() as StateRow;
    }
    return { job: r.job, paused: r.paused === 1, pausedAt: r.paused_at, lastSlot: r.last_slot, owedSince: r.owed_since };
  }

  setPaused(job: string, paused: boolean, now: Date): void {
    this.state(job, now);
    const at = now.toISOString();
    // Resuming owes nothing for the slots that passed while paused.
    if (paused) this.db.prepare('UPDATE schedule_state SET paused = 1, paused_at = ?, updated_at = ? WHERE job = ? AND paused = 0').run(at, at, job);
    else
      this.db.prepare('UPDATE schedule_state SET paused = 0, paused_at = NULL, owed_since = ?, updated_at = ? WHERE job = ? AND paused = 1').run(at, at, job);
  }

  /** Slots up to now are no longer owed (the time zone changed: a new zone's slot must not fire at once). */
  owedFrom(job: string, now: Date): void {
    this.state(job, now);
    this.db.prepare('UPDATE schedule_state SET owed_since = max(owed_since, ?), updated_at = ? WHERE job = ?').run(now.toISOString(), now.toISOString(), job);
  }

  setLastSlot(job: string, slot: Date, now: Date): void {
    this.db
      .prepare("UPDATE schedule_state SET last_slot = max(coalesce(last_slot, ''), ?), updated_at = ? WHERE job = ?")
      .run(slot.toISOString(), now.toISOString(), job);
  }

  /** Opens a run; refused when the job already has one running (here or in another process). */
  begin(input: { job: string; trigger: RunTrigger; scheduledFor: Date | null; startedAt: Date }): ScheduleRun {
    try {
      const r = this.db
        .prepare("INSERT INTO schedule_runs (job, trigger, scheduled_for, started_at, status) VALUES (?, ?, ?, ?, 'running') RETURNING *")
        .get(input.job, input.trigger, input.scheduledFor?.toISOString() ?? null, input.startedAt.toISOString()) as RunRow;
      return toRun(r);
    } catch (e) {
      // SQLite's code, or PostgreSQL's unique violation on a desk (another server runs the job).
      const { code, sqlState } = e as { code?: string; sqlState?: string };
      if (code === 'SQLITE_CONSTRAINT_UNIQUE' || sqlState === '23505') throw new ConflictError(`${input.job} is already running; wait for it to finish.`);
      throw e;
    }
  }

  finish(
    id: number,
    outcome: {
      status: Exclude<RunStatus, 'running'>;
      at: Date;
      sessionId?: string | null;
      costUsd?: number | null;
      summary?: string | null;
      error?: string | null;
    },
  ): ScheduleRun {
    const r = this.db
      .prepare('UPDATE schedule_runs SET status = ?, finished_at = ?, session_id = ?, cost_usd = ?, summary = ?, error = ? WHERE id = ? RETURNING *')
      .get(
        outcome.status,
        outcome.at.toISOString(),
        outcome.sessionId ?? null,
        outcome.costUsd ?? null,
        clip(outcome.summary),
        clip(outcome.error),
        id,
      ) as RunRow;
    return toRun(r);
  }

  /** A slot that was missed for good: logged so the history shows it, never run. */
  skipped(job: string, slot: Date, now: Date, reason: string): ScheduleRun {
    const at = now.toISOString();
    const r = this.db
      .prepare(
        "INSERT INTO schedule_runs (job, trigger, scheduled_for, started_at, finished_at, status, summary) VALUES (?, 'catch_up', ?, ?, ?, 'skipped', ?) RETURNING *",
      )
      .get(job, slot.toISOString(), at, at, clip(reason)) as RunRow;
    return toRun(r);
  }

  /** A check that failed before a run could start (the database was locked): a failed run, so the PM sees why nothing ran. */
  fault(job: string, slot: Date | null, now: Date, error: string): ScheduleRun {
    const at = now.toISOString();
    const r = this.db
      .prepare(
        "INSERT INTO schedule_runs (job, trigger, scheduled_for, started_at, finished_at, status, error) VALUES (?, 'schedule', ?, ?, ?, 'failed', ?) RETURNING *",
      )
      .get(job, slot?.toISOString() ?? null, at, at, clip(error)) as RunRow;
    return toRun(r);
  }

  /**
   * Runs left `running` by a process that stopped without finishing them. On a desk the log is
   * shared: `orphan` tells a stopped server's row from a live one on another server (its lease).
   */
  markInterrupted(now: Date, orphan?: (run: ScheduleRun) => boolean, error = 'Forge stopped while this run was in progress.'): ScheduleRun[] {
    if (!orphan) {
      const rows = this.db
        .prepare("UPDATE schedule_runs SET status = 'interrupted', finished_at = ?, error = ? WHERE status = 'running' RETURNING *")
        .all(now.toISOString(), error) as RunRow[];
      return rows.map(toRun);
    }
    const running = (this.db.prepare("SELECT * FROM schedule_runs WHERE status = 'running' ORDER BY id").all() as RunRow[]).map(toRun);
    const marked: ScheduleRun[] = [];
    for (const run of running.filter(orphan)) {
      // `AND status = 'running'`: a row its server finished meanwhile keeps its real outcome.
      const r = this.db
        .prepare("UPDATE schedule_runs SET status = 'interrupted', finished_at = ?, error = ? WHERE id = ? AND status = 'running' RETURNING *")
        .get(now.toISOString(), error, run.id) as RunRow | undefined;
      if (r) marked.push(toRun(r));
    }
    return marked;
  }

  get(id: number): ScheduleRun | undefined {
    const r = this.db.prepare('SELECT * FROM schedule_runs WHERE id = ?').get(id) as RunRow | undefined;
    return r && toRun(r);
  }

  last(job: string): ScheduleRun | null {
    const r = this.db.prepare('SELECT * FROM schedule_runs WHERE job = ? ORDER BY id DESC LIMIT 1').get(job) as RunRow | undefined;
    return r ? toRun(r) : null;
  }

  /** Newest first; `before` pages back by run id. */
  history(filter: { job?: string; limit: number; before?: number }): ScheduleRun[] {
    const rows = this.db
      .prepare('SELECT * FROM schedule_runs WHERE (@job IS NULL OR job = @job) AND (@before IS NULL OR id < @before) ORDER BY id DESC LIMIT @limit')
      .all({ job: filter.job ?? null, before: filter.before ?? null, limit: filter.limit }) as RunRow[];
    return rows.map(toRun);
  }
}
