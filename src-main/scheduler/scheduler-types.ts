// The scheduler's contract (what a runner receives and returns, timers, options, status), apart from the Scheduler class so runners and tests depend on the shape only.
import type { Db } from '../store';
import type { ScheduledJob } from './jobs';
import type { RunTrigger, ScheduleRun } from './run-log';

/** What a run came to. `ok: false` with `error` is a failed run; the scheduler goes on either way. */
export interface JobRunResult {
  ok: boolean;
  sessionId?: string | null;
  costUsd?: number | null;
  summary?: string | null;
  error?: string | null;
}

export interface JobRunContext {
  runId: number;
  /** The slot this run is for; null for Run now. */
  scheduledFor: Date | null;
  trigger: RunTrigger;
  /** Aborted when the app stops or the run outlives its time budget. */
  signal: AbortSignal;
  /** The IANA zone the slot was computed in. */
  zone: string;
}

/** Does the work of one run (the host starts an analyst session; see analystRunner). */
export type JobRunner = (job: ScheduledJob, run: JobRunContext) => Promise<JobRunResult>;

/** One-shot timers; the default never keeps a process (a CLI) alive. */
export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const realTimers: Timers = {
  set(fn, ms) {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface SchedulerOptions {
  /** The workspace database (migration 011: schedule_runs, schedule_state). */
  db: Db;
  run: JobRunner;
  /** The Settings time zone (read at every check, so a change is seen; "US/Eastern" is accepted). */
  timeZone: () => string | undefined;
  now?: () => Date;
  timers?: Timers;
  jobs?: readonly ScheduledJob[];
  /**
   * Longest wait between checks. A timer does not advance while the machine sleeps, so after a
   * wake (or a wall-clock change) missed slots are noticed within this long at most.
   */
  maxWaitMs?: number;
  /** After stop() asks runs to end, how long it waits before recording them interrupted anyway. */
  stopGraceMs?: number;
}

export interface JobStatus {
  job: ScheduledJob;
  zone: string;
  /** Null while paused. */
  nextRun: Date | null;
  paused: boolean;
  running: ScheduleRun | null;
  lastRun: ScheduleRun | null;
}
