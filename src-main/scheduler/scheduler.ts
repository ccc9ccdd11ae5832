import { ConflictError, NotFoundError } from '../common/errors';
import { JOBS, type JobName, type ScheduledJob } from './jobs';
import { faultText, HeldWrites } from './held-writes';
import { type RunTrigger, ScheduleLog, type ScheduleRun } from './run-log';
import { type JobRunResult, type JobStatus, realTimers, type SchedulerOptions, type Timers } from './scheduler-types';
import { STOPPED_SERVER, SlotGate, slotKey } from './slot-gate';
import { formatLocal, latestSlot, nextSlot, type ResolvedTimeZone, resolveTimeZone } from './time';

interface LiveRun {
  run: ScheduleRun;
  controller: AbortController;
  done: Promise<void>;
  /** stop() asked it to end: it is recorded as interrupted, its slot stays owed. */
  stopping: boolean;
  /** Already recorded (by stop() after the grace period): a late result is ignored. */
  recorded: boolean;
  /** Its lease key on a desk (slot or `manual <start>`). */
  key: string;
  /** Another server took its slot over (this one stopped answering): its lease is not ours to finish. */
  lost: boolean;
  /** Stops heart-beating its lease. */
  unkeep: () => void;
}

const MINUTE = 60_000;
/** Far enough back to find any job's latest slot (the weekly one included). */
const LOOKBACK_MS = 8 * 24 * 60 * MINUTE;
/** A slot run more than this after its time is labelled a catch-up, and a timer this late means the machine slept. */
const LATE_MS = MINUTE;

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const hours = (ms: number) => `${Math.round((ms / 3_600_000) * 10) / 10} h`;

/**
 * Runs the scheduled jobs in the configured time zone. One timer, always aimed at the earliest
 * next slot (capped at maxWaitMs); every check runs each job's latest slot that is owed — once,
 * however many slots were missed — if it is still within the job's catch-up window, and logs it
 * as skipped otherwise. A job never runs twice at once; pause state and every run are in SQLite.
 */
export class Scheduler {
  readonly jobs: readonly ScheduledJob[];
  private readonly log: ScheduleLog;
  private readonly now: () => Date;
  private readonly timers: Timers;
  private readonly maxWaitMs: number;
  private readonly live = new Map<JobName, LiveRun>();
  private readonly listeners = new Set<(job: JobName) => void>();
  private timer: unknown = null;
  private expectedAt: number | null = null;
  private zoneInUse: string | null = null;
  private started = false;
  private stopped = false;
  private wake: { at: Date; lateByMs: number } | null = null;
  private readonly held: HeldWrites;
  /** On a desk, which server runs each slot (a lease per slot); elsewhere it always says "this one". */
  private readonly gate: SlotGate;

  constructor(private readonly o: SchedulerOptions) {
    this.jobs = o.jobs ?? JOBS;
    this.log = new ScheduleLog(o.db);
    this.now = o.now ?? (() => new Date());
    this.timers = o.timers ?? realTimers;
    this.maxWaitMs = o.maxWaitMs ?? MINUTE;
    this.gate = new SlotGate(o.leases, this.timers);
    // On a desk the run log is shared: a run another server is doing is not "left behind" at start.
    this.held = new HeldWrites(this.log, (job) => this.emit(job), this.gate.orphan);
  }

  /** Marks runs a stopped process left behind as interrupted, catches up, and arms the timer. */
  start(): ScheduleRun[] {
    if (this.started) return [];
    this.started = true;
    let interrupted: ScheduleRun[] = [];
    try {
      this.zoneInUse = this.zone().zone;
      interrupted = this.held.markInterrupted(this.now());
      const now = this.now();
      for (const job of this.jobs) this.log.state(job.name, now);
    } catch (e) {
      // A locked database at start must not leave the schedule unarmed: check() retries.
      for (const job of this.jobs) this.fault(job, null, e);
    }
    this.check();
    for (const r of interrupted) this.emit(r.job as JobName);
    return interrupted;
  }

  /** Stops the timer and every run (recorded as interrupted: their slots are caught up next start). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.disarm();
    const live = [...this.live.values()];
    for (const l of live) {
      l.stopping = true;
      l.controller.abort();
    }
    let graceTimer: unknown = null;
    const grace = new Promise<void>((resolve) => {
      graceTimer = this.timers.set(resolve, this.o.stopGraceMs ?? 5000);
    });
    await Promise.race([Promise.allSettled(live.map((l) => l.done)), grace]);
    this.timers.clear(graceTimer);
    // A runner that ignores its signal must not hold the app open: record it now, ignore it later.
    for (const l of live) if (!l.recorded) this.record(l, { ok: false, status: 'interrupted', error: 'Forge stopped while this run was in progress.' });
  }

  /** The zone in use and, when the configured one is unusable, why. */
  zone(): ResolvedTimeZone {
    return resolveTimeZone(this.o.timeZone());
  }

  /** How long the machine last slept, as seen by a timer that fired late. */
  get lastWake(): { at: Date; lateByMs: number } | null {
    return this.wake;
  }

  onChange(listener: (job: JobName) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs what is owed now and re-arms the timer. The timer calls it; so may a wake-from-sleep
   * notice (Electron's powerMonitor) or a settings change.
   */
  check(): void {
    if (!this.started || this.stopped) return;
    // Every failure here (SQLITE_BUSY from another process, a bad setting) is logged per job and
    // the timer is always re-armed: one bad minute must not end the schedule until a restart.
    try {
      const now = this.now();
      const zone = this.zone().zone;
      this.held.flush(now);
      // Null: the zone could not be read at start; the first one read is not a change.
      if (this.zoneInUse === null) this.zoneInUse = zone;
      if (this.zoneInUse !== zone) {
        // A new zone's slot that is already past (07:00 in London is 02:00 in New York) is not a
        // missed run: nothing before the change is owed.
        for (const job of this.jobs) this.log.owedFrom(job.name, now);
        this.zoneInUse = zone;
        for (const job of this.jobs) this.emit(job.name);
      }
      for (const job of this.jobs) this.checkJob(job, zone, now);
    } catch (e) {
      for (const job of this.jobs) this.fault(job, null, e);
    } finally {
      this.arm();
    }
  }

  /** Settings changed (the time zone): next runs are recomputed and the timer re-armed. */
  reschedule(): void {
    this.check();
  }

  status(name: JobName): JobStatus {
    const job = this.job(name);
    const now = this.now();
    const zone = this.zone().zone;
    const state = this.log.state(name, now);
    return {
      job,
      zone,
      nextRun: state.paused ? null : nextSlot(job.cron, zone, now),
      paused: state.paused,
      running: this.live.get(name)?.run ?? null,
      lastRun: this.log.last(name),
    };
  }

  list(): JobStatus[] {
    return this.jobs.map((j) => this.status(j.name));
  }

  history(filter: { job?: JobName; limit?: number; before?: number } = {}): ScheduleRun[] {
    if (filter.job) this.job(filter.job);
    return this.log.history({ job: filter.job, limit: filter.limit ?? 50, before: filter.before });
  }

  /** Pausing never stops a run in progress; it stops the next ones. */
  pause(name: JobName): JobStatus {
    this.job(name);
    this.log.setPaused(name, true, this.now());
    this.emit(name);
    this.arm();
    return this.status(name);
  }

  /** Slots missed while paused are not caught up: the next slot is the next run. */
  resume(name: JobName): JobStatus {
    this.job(name);
    this.log.setPaused(name, false, this.now());
    this.emit(name);
    this.arm();
    return this.status(name);
  }

  /** Starts the job at once (paused or not) and returns the run; refused while it is running. */
  runNow(name: JobName): ScheduleRun {
    const job = this.job(name);
    if (!this.started || this.stopped) throw new ConflictError('The scheduler is not running; Forge is starting or shutting down.');
    const live = this.live.get(name);
    if (live)
      throw new ConflictError(`${job.title} is already running (since ${formatLocal(new Date(live.run.startedAt), this.zone().zone)}); wait for it to finish.`);
    // On a desk a Run now holds a lease too, so that a server starting up can tell it from an orphan.
    const startedAt = this.now();
    const key = slotKey(null, startedAt);
    const gate = this.gate.claim(name, key);
    if (!gate.run) throw new ConflictError(`${job.title} was started on another server (${gate.holder}) at this same moment.`);
    try {
      return this.launch(job, null, 'manual', this.zone().zone, key, startedAt);
    } catch (e) {
      this.gate.release(name, key);
      throw e;
    }
  }

  /** Resolves when no run is in progress (tests; shutdown). */
  async settled(): Promise<void> {
    while (this.live.size) await Promise.allSettled([...this.live.values()].map((l) => l.done));
  }

  private job(name: JobName): ScheduledJob {
    const job = this.jobs.find((j) => j.name === name);
    if (!job) throw new NotFoundError(`There is no scheduled job "${String(name).slice(0, 60)}"; the jobs are ${this.jobs.map((j) => j.name).join(', ')}.`);
    return job;
  }

  private checkJob(job: ScheduledJob, zone: string, now: Date): void {
    if (this.live.has(job.name)) return; // its owed slot waits until the run in progress ends
    let slot: Date | null = null;
    try {
      const state = this.log.state(job.name, now);
      if (state.paused) return;
      const after = Math.max(Date.parse(state.owedSince), state.lastSlot ? Date.parse(state.lastSlot) : 0, this.held.heldSlot(job.name)?.getTime() ?? 0);
      slot = latestSlot(job.cron, zone, new Date(after), now, Math.max(LOOKBACK_MS, job.catchUpWindowMs));
      if (slot) this.checkSlot(job, slot, zone, now);
    } catch (e) {
      // The slot stays owed: the next check (within maxWaitMs) tries it again.
      this.fault(job, slot, e);
    }
  }

  private checkSlot(job: ScheduledJob, slot: Date, zone: string, now: Date): void {
    const late = now.getTime() - slot.getTime();
    const key = slotKey(slot, now);
    // On a desk the slot is run (or logged as missed) by the one server that claims its lease.
    const gate = this.gate.claim(job.name, key);
    if (!gate.run) {
      // Its holder ran it: this server moves past it. While the holder is still at it, the slot
      // stays owed here, so that it is taken over if that server stops answering.
      if (gate.finished) this.held.slotDone(job.name, slot, this.now());
      return;
    }
    if (gate.takeover && this.gate.closeTakenOver(this.log, job.name, key, now)) this.emit(job.name);
    if (late > job.catchUpWindowMs) {
      this.log.skipped(
        job.name,
        slot,
        now,
        `Missed at ${formatLocal(slot, zone)} while Forge was closed or the computer slept; by ${formatLocal(now, zone)} it was past its ${hours(job.catchUpWindowMs)} catch-up window.`,
      );
      this.gate.finish(job.name, key, 'skipped');
      this.held.slotDone(job.name, slot, this.now());
      this.emit(job.name);
      return;
    }
    try {
      this.launch(job, slot, late > LATE_MS ? 'catch_up' : 'schedule', zone, key, this.now());
      this.held.cleared(job.name);
    } catch (e) {
      // Not started: the slot is given up at once, for this server's next check or another's.
      this.gate.release(job.name, key);
      // Another Forge process on this workspace is running the job: the slot waits for it to end.
      if (!(e instanceof ConflictError)) throw e;
    }
  }

  private launch(job: ScheduledJob, slot: Date | null, trigger: RunTrigger, zone: string, key: string, startedAt: Date): ScheduleRun {
    const { run, freed } = this.gate.begin(this.log, { job: job.name, trigger, scheduledFor: slot, startedAt });
    if (freed) this.emit(job.name);
    const controller = new AbortController();
    const live: LiveRun = { run, controller, stopping: false, recorded: false, done: Promise.resolve(), key, lost: false, unkeep: () => undefined };
    this.live.set(job.name, live);
    live.unkeep = this.gate.keep(job.name, key, () => {
      live.lost = true;
      controller.abort();
    });
    let timedOut = false;
    let deadline: unknown = null;
    const outOfTime = new Promise<JobRunResult>((resolve) => {
      deadline = this.timers.set(() => {
        timedOut = true;
        controller.abort();
        resolve({ ok: false, error: `Stopped after ${job.budget.maxMinutes} minutes, the run's time budget.` });
      }, job.budget.maxMinutes * MINUTE);
    });
    live.done = (async () => {
      let result: JobRunResult;
      try {
        result = await Promise.race([this.o.run(job, { runId: run.id, scheduledFor: slot, trigger, signal: controller.signal, zone }), outOfTime]);
      } catch (e) {
        result = { ok: false, error: errorText(e) || 'The run failed without a message.' };
      } finally {
        this.timers.clear(deadline);
      }
      if (live.recorded) return;
      try {
        if (live.lost) this.record(live, { ...result, ok: false, status: 'interrupted', error: STOPPED_SERVER });
        else if (live.stopping && !result.ok) this.record(live, { ...result, status: 'interrupted', error: 'Forge stopped while this run was in progress.' });
        else this.record(live, { ...result, status: result.ok && !timedOut ? 'ok' : 'failed' });
        // A finished or failed slot is done with; an interrupted one stays owed for the next start
        // (a lost one belongs to the server that took it over).
        if (slot && !live.stopping && !live.lost) this.held.slotDone(job.name, slot, this.now());
      } finally {
        if (!this.stopped) this.arm();
      }
    })();
    this.emit(job.name);
    return run;
  }

  private record(live: LiveRun, outcome: JobRunResult & { status: 'ok' | 'failed' | 'interrupted' }): void {
    live.recorded = true;
    live.unkeep();
    const name = live.run.job as JobName;
    if (this.live.get(name) === live) this.live.delete(name);
    // On a desk: a finished slot is never run again anywhere; an interrupted one is given up at
    // once, so another server (or this one's next start) runs it without waiting for expiry.
    if (!live.lost) {
      if (outcome.status === 'interrupted') this.gate.release(name, live.key);
      else this.gate.finish(name, live.key, outcome.status);
    }
    const done = this.held.finish(
      live.run.id,
      {
        status: outcome.status,
        at: this.now(),
        sessionId: outcome.sessionId,
        costUsd: outcome.costUsd,
        summary: outcome.summary,
        error: outcome.status === 'ok' ? null : outcome.error || 'The run failed without a message.',
      },
      // Locked: written at the next check. If the database is gone (shutdown raced the run), the
      // row stays `running` and the next start marks it interrupted, so it is not lost either.
      !this.stopped,
    );
    if (done) live.run = done;
    this.emit(name);
  }

  /**
   * A check that threw: logged as a failed run of the job ("Hourly monitoring could not start at
   * 14:00: SQLITE_BUSY…") so Home's schedule shows it. When the run log cannot be written either,
   * it is held in memory and written at the next check that can.
   */
  private fault(job: ScheduledJob, slot: Date | null, e: unknown): void {
    const at = this.now();
    let zone: string;
    try {
      zone = this.zone().zone;
    } catch {
      zone = 'UTC';
    }
    const cause = faultText(e);
    const what = slot ? `start its ${formatLocal(slot, zone)} run` : 'check its schedule';
    const within = Math.max(1, Math.round(this.maxWaitMs / MINUTE));
    this.held.fault(
      job.name,
      slot,
      at,
      cause,
      `${job.title} could not ${what} at ${formatLocal(at, zone)}: ${cause}. Forge tries again at the next check (within ${within} min).`,
    );
  }

  private disarm(): void {
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
    this.expectedAt = null;
  }

  /** Always leaves a timer armed (while started): when the next slot cannot be read, it looks again within maxWaitMs. */
  private arm(): void {
    this.disarm();
    if (!this.started || this.stopped) return;
    const now = this.now();
    let delay = this.maxWaitMs;
    try {
      const zone = this.zone().zone;
      let earliest = Number.POSITIVE_INFINITY;
      for (const job of this.jobs) {
        if (this.log.state(job.name, now).paused) continue;
        const next = nextSlot(job.cron, zone, now);
        if (next) earliest = Math.min(earliest, next.getTime());
      }
      delay = Math.max(0, Math.min(earliest - now.getTime(), this.maxWaitMs));
    } catch {
      // The database is locked or a setting unreadable: the check this timer runs logs why.
    }
    this.expectedAt = now.getTime() + delay;
    this.timer = this.timers.set(() => this.onTimer(), delay);
  }

  private onTimer(): void {
    this.timer = null;
    try {
      const now = this.now();
      if (this.expectedAt !== null && now.getTime() - this.expectedAt > LATE_MS) this.wake = { at: now, lateByMs: now.getTime() - this.expectedAt };
      this.check();
    } finally {
      // check() re-arms; this is the guard for anything that escaped it.
      if (this.timer === null) this.arm();
    }
  }

  private emit(job: JobName): void {
    for (const l of [...this.listeners]) {
      try {
        l(job);
      } catch {
        // A broken subscriber must not stop the schedule.
      }
    }
  }
}
