import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../store';
import { JOBS, type JobName, type ScheduledJob } from './jobs';
import { Scheduler } from './scheduler';
import type { JobRunContext, JobRunResult, SchedulerOptions } from './scheduler-types';
import { ensureScheduleTables, FakeClock } from './testing';

let dir: string;
let dbPath: string;
const dbs: Db[] = [];
const schedulers: Scheduler[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-scheduler-'));
  dbPath = join(dir, 'forge.db');
});
afterEach(async () => {
  for (const s of schedulers.splice(0)) await s.stop();
  for (const db of dbs.splice(0)) if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A real workspace database file (reopened by a "restarted" app). */
function openDb(): Db {
  const db = openDatabase(dbPath);
  ensureScheduleTables(db);
  dbs.push(db);
  return db;
}

interface Call {
  job: JobName;
  scheduledFor: string | null;
  trigger: string;
  signal: AbortSignal;
}

/** Records every run; answers ok unless told otherwise per job. */
function recorder(answer: (job: ScheduledJob, ctx: JobRunContext) => Promise<JobRunResult> | JobRunResult = () => ({ ok: true })) {
  const calls: Call[] = [];
  let n = 0;
  const run = async (job: ScheduledJob, ctx: JobRunContext): Promise<JobRunResult> => {
    calls.push({ job: job.name, scheduledFor: ctx.scheduledFor?.toISOString() ?? null, trigger: ctx.trigger, signal: ctx.signal });
    const k = ++n;
    const r = await answer(job, ctx);
    return { sessionId: `sess_${job.name}_${k}`, costUsd: 0.25, summary: `${job.title} done.`, ...r };
  };
  return { calls, run };
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Tests that let a day or more pass awake check hourly instead of every minute, only to run faster. */
const HOURLY = { maxWaitMs: 3_600_000 };

function scheduler(clock: FakeClock, run: SchedulerOptions['run'], o: Partial<SchedulerOptions> = {}): Scheduler {
  const s = new Scheduler({ db: openDb(), run, timeZone: () => 'US/Eastern', now: clock.now, timers: clock, ...o });
  schedulers.push(s);
  return s;
}

const only = (...names: JobName[]) => JOBS.filter((j) => names.includes(j.name));

describe('catch-up after the machine slept', () => {
  it('after a 3-day sleep each missed job runs once, for its latest slot; a job whose window passed is logged skipped', async () => {
    const clock = new FakeClock('2026-01-12T11:00:00Z'); // Mon 06:00 EST
    const r = recorder();
    const s = scheduler(clock, r.run);
    s.start();
    expect(r.calls).toEqual([]); // a first start owes nothing from before it

    await clock.sleep(3 * 86_400_000 + 2 * 3_600_000 + 20 * 60_000); // wakes Thu 08:20 EST
    await s.settled();

    // Four morning reviews and ~50 monitoring hours were missed: one run each, for the latest slot.
    expect(r.calls.map((c) => [c.job, c.scheduledFor, c.trigger])).toEqual([
      ['morning_review', '2026-01-15T12:00:00.000Z', 'catch_up'],
      ['hourly_monitoring', '2026-01-15T13:00:00.000Z', 'catch_up'],
    ]);
    expect(s.lastWake?.lateByMs).toBeGreaterThan(3 * 86_400_000);
    // End of day's latest slot (Wed 16:30) was 16 h ago: past its 6 h window, so skipped — and shown.
    const eod = s.history({ job: 'end_of_day' });
    expect(eod.map((h) => [h.status, h.scheduledFor])).toEqual([['skipped', '2026-01-14T21:30:00.000Z']]);
    expect(eod[0]!.summary).toContain('Missed at Wed 2026-01-14 16:30 EST');
    expect(s.history({ job: 'weekly_retrospective' })).toEqual([]);
    const morning = s.history({ job: 'morning_review' });
    expect(morning.map((h) => [h.status, h.sessionId, h.costUsd])).toEqual([['ok', 'sess_morning_review_1', 0.25]]);

    // Awake again: the next hour runs on time, and nothing caught up runs a second time.
    await clock.advance(60 * 60_000);
    await s.settled();
    expect(r.calls.slice(2).map((c) => [c.job, c.scheduledFor, c.trigger])).toEqual([['hourly_monitoring', '2026-01-15T14:00:00.000Z', 'schedule']]);
  });

  it('a laptop closed from Thursday night to Sunday night still gets the Friday 17:00 retrospective, once', async () => {
    const clock = new FakeClock('2026-01-16T01:00:00Z'); // Thu 20:00 EST
    const r = recorder();
    const s = scheduler(clock, r.run);
    s.start();
    await clock.sleep(3 * 24 * 3_600_000); // Sun 20:00 EST
    await s.settled();
    expect(r.calls.map((c) => [c.job, c.scheduledFor])).toEqual([['weekly_retrospective', '2026-01-16T22:00:00.000Z']]);
    expect(
      s
        .history()
        .filter((h) => h.status === 'skipped')
        .map((h) => h.job)
        .sort(),
    ).toEqual(['end_of_day', 'hourly_monitoring', 'morning_review']);
  });

  it('slots missed while the app was closed are caught up on start (a new Scheduler on the same database)', async () => {
    const clock = new FakeClock('2026-01-12T11:00:00Z');
    const first = scheduler(clock, recorder().run, { jobs: only('morning_review') });
    first.start();
    await first.stop();

    const later = new FakeClock('2026-01-13T14:30:00Z'); // Tue 09:30 EST: Mon and Tue 07:00 were missed
    const r = recorder();
    const second = scheduler(later, r.run, { jobs: only('morning_review') });
    second.start();
    await second.settled();
    expect(r.calls.map((c) => [c.scheduledFor, c.trigger])).toEqual([['2026-01-13T12:00:00.000Z', 'catch_up']]);
  });
});

describe('pause and resume', () => {
  it('a paused job stays paused after a restart, does not run, and is not caught up on resume', async () => {
    const clock = new FakeClock('2026-01-12T11:00:00Z');
    const r = recorder();
    const s = scheduler(clock, r.run, { jobs: only('morning_review', 'end_of_day'), ...HOURLY });
    s.start();
    expect(s.pause('morning_review').paused).toBe(true);
    await s.stop();

    const restarted = scheduler(clock, r.run, { jobs: only('morning_review', 'end_of_day'), ...HOURLY });
    restarted.start();
    const morning = restarted.status('morning_review');
    expect(morning.paused).toBe(true);
    expect(morning.nextRun).toBeNull();
    expect(restarted.status('end_of_day').nextRun?.toISOString()).toBe('2026-01-12T21:30:00.000Z');

    await clock.advance(2 * 3_600_000); // past 07:00
    await restarted.settled();
    expect(r.calls).toEqual([]);

    const resumed = restarted.resume('morning_review');
    expect(resumed.paused).toBe(false);
    expect(resumed.nextRun?.toISOString()).toBe('2026-01-13T12:00:00.000Z');
    await clock.advance(60_000);
    expect(r.calls).toEqual([]); // the 07:00 slot that passed while paused is not owed
    await clock.advance(23 * 3_600_000);
    await restarted.settled();
    expect(r.calls.map((c) => [c.job, c.scheduledFor])).toEqual([
      ['end_of_day', '2026-01-12T21:30:00.000Z'],
      ['morning_review', '2026-01-13T12:00:00.000Z'],
    ]);
  });
});

describe('runs that do not end normally', () => {
  it('a run in progress when the app stops is marked interrupted on the next start, then caught up once', async () => {
    const clock = new FakeClock('2026-01-12T11:59:00Z');
    const never = recorder(() => new Promise<JobRunResult>(() => {}));
    const crashed = scheduler(clock, never.run, { jobs: only('morning_review') });
    crashed.start();
    await clock.advance(2 * 60_000); // 07:01: the morning review starts and hangs
    expect(never.calls).toHaveLength(1);
    expect(crashed.status('morning_review').running?.status).toBe('running');
    // The process dies: no stop(), the database connection simply goes away.
    schedulers.splice(schedulers.indexOf(crashed), 1);
    dbs[0]!.close();

    const later = new FakeClock('2026-01-12T12:30:00Z');
    const r = recorder();
    const s = scheduler(later, r.run, { jobs: only('morning_review') });
    const interrupted = s.start();
    expect(interrupted.map((i) => [i.job, i.status, i.error])).toEqual([['morning_review', 'interrupted', 'Forge stopped while this run was in progress.']]);
    await s.settled();
    // Its slot is still within the morning window: it runs again, once.
    expect(r.calls.map((c) => [c.scheduledFor, c.trigger])).toEqual([['2026-01-12T12:00:00.000Z', 'catch_up']]);
    expect(s.history({ job: 'morning_review' }).map((h) => h.status)).toEqual(['ok', 'interrupted']);
  });

  it('stop() aborts a run in progress and records it interrupted at once', async () => {
    const clock = new FakeClock('2026-01-12T11:59:30Z');
    const r = recorder(
      (_job, ctx) =>
        new Promise<JobRunResult>((resolve) => ctx.signal.addEventListener('abort', () => resolve({ ok: false, error: 'aborted' }), { once: true })),
    );
    const s = scheduler(clock, r.run, { jobs: only('morning_review') });
    s.start();
    await clock.advance(60_000);
    expect(r.calls).toHaveLength(1);
    await s.stop();
    expect(r.calls[0]!.signal.aborted).toBe(true);
    expect(s.history().map((h) => [h.status, h.error])).toEqual([['interrupted', 'Forge stopped while this run was in progress.']]);
  });

  it('a run past its time budget is stopped and logged failed; the job runs again at its next slot', async () => {
    const clock = new FakeClock('2026-01-12T11:59:30Z');
    let first = true;
    const r = recorder(() => {
      if (first) {
        first = false;
        return new Promise<JobRunResult>(() => {}); // ignores its signal
      }
      return { ok: true };
    });
    const s = scheduler(clock, r.run, { jobs: only('morning_review'), ...HOURLY });
    s.start();
    await clock.advance(31 * 60_000);
    expect(r.calls[0]!.signal.aborted).toBe(true);
    const [run] = s.history();
    expect([run!.status, run!.error]).toEqual(['failed', "Stopped after 30 minutes, the run's time budget."]);
    expect(s.status('morning_review').running).toBeNull();
    await clock.advance(24 * 3_600_000);
    await s.settled();
    expect(r.calls.map((c) => c.scheduledFor)).toEqual(['2026-01-12T12:00:00.000Z', '2026-01-13T12:00:00.000Z']);
  });

  it('a failing runner is logged failed with its error, and the scheduler keeps going', async () => {
    const clock = new FakeClock('2026-01-12T11:59:30Z');
    const r = recorder((job) => {
      if (job.name === 'morning_review') throw new Error('The model could not be reached (529 overloaded).');
      if (job.name === 'end_of_day') return { ok: false, error: 'No API key is set.', sessionId: null };
      return { ok: true };
    });
    const s = scheduler(clock, r.run, { jobs: only('morning_review', 'end_of_day'), ...HOURLY });
    s.start();
    await clock.advance(24 * 3_600_000 + 60_000); // through Tuesday 07:00
    await s.settled();
    expect(
      s
        .history()
        .reverse()
        .map((h) => [h.job, h.status, h.error]),
    ).toEqual([
      ['morning_review', 'failed', 'The model could not be reached (529 overloaded).'],
      ['end_of_day', 'failed', 'No API key is set.'],
      ['morning_review', 'failed', 'The model could not be reached (529 overloaded).'],
    ]);
    // A failed slot is not retried every minute: one record per slot.
    expect(r.calls).toHaveLength(3);
  });
});

describe('one run at a time', () => {
  it('never runs a job twice at once: Run now is refused while it runs, and the timer does not start a second', async () => {
    const clock = new FakeClock('2026-01-12T21:29:00Z'); // Mon 16:29 EST
    const gate = deferred<JobRunResult>();
    const r = recorder(() => gate.promise);
    const s = scheduler(clock, r.run, { jobs: only('end_of_day') });
    s.start();
    const manual = s.runNow('end_of_day');
    expect([manual.status, manual.trigger, manual.scheduledFor]).toEqual(['running', 'manual', null]);
    expect(() => s.runNow('end_of_day')).toThrow(
      expect.objectContaining({ code: 'conflict', message: expect.stringContaining('End-of-day review is already running') }),
    );
    await clock.advance(5 * 60_000); // 16:30 passes while it runs
    expect(r.calls).toHaveLength(1);
    gate.resolve({ ok: true });
    await s.settled();
    await clock.advance(60_000);
    await s.settled();
    // The 16:30 slot was owed, so it runs after — never alongside.
    expect(r.calls.map((c) => c.trigger)).toEqual(['manual', 'catch_up']);
  });

  it('two Forge processes on one workspace do not both run the same slot', async () => {
    const clock = new FakeClock('2026-01-12T11:59:30Z');
    const gate = deferred<JobRunResult>();
    const a = recorder(() => gate.promise);
    const b = recorder();
    const one = scheduler(clock, a.run, { jobs: only('morning_review') });
    const two = scheduler(clock, b.run, { jobs: only('morning_review') });
    one.start();
    two.start();
    await clock.advance(60_000);
    gate.resolve({ ok: true });
    await one.settled();
    await clock.advance(2 * 60_000);
    expect(a.calls.length + b.calls.length).toBe(1);
    expect(two.history().map((h) => h.status)).toEqual(['ok']);
  });
});

describe('Run now', () => {
  it('logs a manual run with its session, cost and summary, even for a paused job', async () => {
    const clock = new FakeClock('2026-01-14T15:00:00Z');
    const r = recorder();
    const s = scheduler(clock, r.run, { jobs: only('weekly_retrospective') });
    const changes: JobName[] = [];
    s.onChange((j) => changes.push(j));
    s.start();
    s.pause('weekly_retrospective');
    const run = s.runNow('weekly_retrospective');
    await s.settled();
    const [done] = s.history({ job: 'weekly_retrospective' });
    expect(done).toMatchObject({
      id: run.id,
      trigger: 'manual',
      scheduledFor: null,
      status: 'ok',
      sessionId: 'sess_weekly_retrospective_1',
      costUsd: 0.25,
      summary: 'Weekly retrospective done.',
      error: null,
      startedAt: '2026-01-14T15:00:00.000Z',
      finishedAt: '2026-01-14T15:00:00.000Z',
    });
    // Paused stays paused, and the UI heard: paused, started, finished.
    expect(s.status('weekly_retrospective').paused).toBe(true);
    expect(changes).toEqual(['weekly_retrospective', 'weekly_retrospective', 'weekly_retrospective']);
  });
});

describe('time zone from Settings', () => {
  it('a time zone change re-arms the timer for the new zone and does not fire a slot the change put in the past', async () => {
    let tz = 'US/Eastern';
    const clock = new FakeClock('2026-01-12T11:30:00Z'); // 06:30 New York, 11:30 London
    const r = recorder();
    const s = scheduler(clock, r.run, { jobs: only('morning_review'), timeZone: () => tz, maxWaitMs: 7 * 86_400_000 });
    s.start();
    expect(s.status('morning_review').nextRun?.toISOString()).toBe('2026-01-12T12:00:00.000Z');
    expect(clock.nextTimerAt?.toISOString()).toBe('2026-01-12T12:00:00.000Z');

    tz = 'Europe/London';
    s.reschedule();
    expect(s.zone().zone).toBe('Europe/London');
    // London's 07:00 today was 4.5 h ago (inside the catch-up window) but was never owed: no run.
    await s.settled();
    expect(r.calls).toEqual([]);
    expect(s.status('morning_review').nextRun?.toISOString()).toBe('2026-01-13T07:00:00.000Z');
    expect(clock.nextTimerAt?.toISOString()).toBe('2026-01-13T07:00:00.000Z');
    expect(clock.timerCount).toBe(1); // the New York timer was cleared, not left to fire

    await clock.advance(20 * 3_600_000);
    await s.settled();
    expect(r.calls.map((c) => [c.scheduledFor, c.trigger])).toEqual([['2026-01-13T07:00:00.000Z', 'schedule']]);
  });

  it('an unknown zone in Settings falls back to New York rather than stopping the schedules', () => {
    const clock = new FakeClock('2026-01-12T11:30:00Z');
    const s = scheduler(clock, recorder().run, { timeZone: () => 'Eastern Time' });
    s.start();
    expect(s.zone()).toMatchObject({ zone: 'America/New_York', note: expect.stringContaining('"Eastern Time" is not a time zone') });
    expect(s.status('morning_review').nextRun?.toISOString()).toBe('2026-01-12T12:00:00.000Z');
  });
});
