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

/** Who ran (or holds) a slot, as a lease store answers (desk/leases' DeskLeases has this shape). */
export type SlotClaim = { claimed: true; attempt: number } | { claimed: false; holder: string; finished: boolean };

/**
 * "Does this server run this slot?" on a desk, where several servers share one schedule: a lease
 * per (job, slot) in the database. The host injects it (the scheduler never imports desk/); on one
 * PM's workbench there is none and every slot is this process's to run. A slot key is the slot's
 * ISO time, or `manual <start time>` for a Run now.
 */
export interface SlotLeases {
  /** How long a claim holds without a heartbeat; the scheduler heart-beats every third of it. */
  readonly leaseMs: number;
  /** Claims the slot (attempt > 1: taken over from a holder whose lease expired), or says who has it. */
  claim(job: string, slot: string): SlotClaim;
  /** Extends this server's lease; false once another server has taken the slot over. */
  heartbeat(job: string, slot: string): boolean;
  /** The slot is done with: never run again. Throws when this server no longer holds it. */
  finish(job: string, slot: string, outcome: 'ok' | 'failed' | 'skipped'): void;
  /** Gives an unfinished slot up at once (this server stops): another server may take it over. */
  release(job: string, slot: string): void;
  /** Someone holds the slot now (claimed, unfinished, unexpired): a run row for it is not an orphan. */
  isLive(job: string, slot: string): boolean;
}

export interface SchedulerOptions {
  /** On a desk: the lease that decides which server runs each slot. Absent: this process runs them all. */
  leases?: SlotLeases;
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
