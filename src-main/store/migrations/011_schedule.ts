import type { Migration } from './types';

/**
 * The scheduler (src-main/scheduler/): every run of a scheduled job (morning review, end of day,
 * weekly retrospective, hourly monitoring, or a PM's "Run now") with its outcome, session and cost,
 * and each job's state — paused or not, the last slot it handled, and since when slots are owed a
 * run (slots before that — before the first start, or while paused — are never caught up).
 * The partial unique index makes "a job never runs twice at once" hold even across processes.
 */
export const scheduleRuns: Migration = {
  version: 11,
  name: '011_schedule',
  up(db) {
    db.exec(`
      CREATE TABLE schedule_runs (
        id            INTEGER PRIMARY KEY,
        job           TEXT NOT NULL,
        trigger       TEXT NOT NULL CHECK (trigger IN ('schedule', 'catch_up', 'manual')),
        scheduled_for TEXT,
        started_at    TEXT NOT NULL,
        finished_at   TEXT,
        status        TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed', 'skipped', 'interrupted')),
        session_id    TEXT,
        cost_usd      REAL,
        summary       TEXT,
        error         TEXT
      ) STRICT;
      CREATE INDEX schedule_runs_by_job ON schedule_runs (job, id);
      CREATE UNIQUE INDEX schedule_runs_one_running ON schedule_runs (job) WHERE status = 'running';

      CREATE TABLE schedule_state (
        job        TEXT PRIMARY KEY,
        paused     INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
        paused_at  TEXT,
        last_slot  TEXT,
        owed_since TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
    `);
  },
};
