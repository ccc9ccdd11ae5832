import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../store';
import { JOBS, type JobName } from './jobs';
import { Scheduler } from './scheduler';
import { type JobRunner, realTimers, type SchedulerOptions } from './scheduler-types';
import { ensureScheduleTables, FakeClock } from './testing';

/*
 * Issue 26: a timer callback that threw (SQLITE_BUSY while another process wrote the workspace)
 * ended exit monitoring — stops and targets went unwatched until the app was restarted, and
 * nothing said so. Every failure is now logged as a failed run and the next slot still runs.
 */

let dir: string;
let dbPath: string;
const closers: (() => unknown)[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-scheduler-faults-'));
  dbPath = join(dir, 'forge.db');
});
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});

function openDb(): Db {
  const db = openDatabase(dbPath);
  ensureScheduleTables(db);
  // Fail at once on a lock instead of waiting 10 s (what a longer lock than busy_timeout does).
  db.pragma('busy_timeout = 0');
  closers.push(() => db.open && db.close());
  return db;
}

/** Another process holding the workspace's write lock (a sync, a second Forge mid-transaction). */
function otherWriter(): { lock(): void; release(): void } {
  const other = new Database(dbPath);
  other.pragma('busy_timeout = 0');
  closers.push(() => other.open && other.close());
  return {
    lock: () => other.exec('BEGIN EXCLUSIVE'),
    release: () => other.exec('COMMIT'),
  };
}

const only = (...names: JobName[]) => JOBS.filter((j) => names.includes(j.name));

function monitoring(clock: FakeClock | null, run: JobRunner, o: Partial<SchedulerOptions> = {}) {
  const s = new Scheduler({
    db: openDb(),
    run,
    timeZone: () => 'US/Eastern',
    jobs: only('hourly_monitoring'),
    ...(clock ? { now: clock.now, timers: clock } : {}),
    ...o,
  });
  closers.push(() => s.stop());
  return s;
}

describe('a check that throws does not end the schedule', () => {
  it('SQLITE_BUSY from a real lock at 14:00 is in the run log, the 14:00 slot runs once the lock is gone, and 15:00 runs', async () => {
    const clock = new FakeClock('2026-01-12T18:59:30Z'); // Mon 13:59:30 EST
    const slots: (string | null)[] = [];
    const s = monitoring(clock, async (_job, ctx) => {
      slots.push(ctx.scheduledFor?.toISOString() ?? null);
      return { ok: true, summary: 'No exits hit.' };
    });
    s.start();
    const writer = otherWriter();
    writer.lock();
    await clock.advance(60_000); // 14:00 passes while the database is locked: the run cannot even be opened
    expect(slots).toEqual([]);
    writer.release();
    await clock.advance(60_000); // the next check, a minute later
    await s.settled();
    await clock.advance(60 * 60_000); // 15:00
    await s.settled();

    // If this failed, the PM would see monitoring silently stop after one locked minute.
    expect(slots).toEqual(['2026-01-12T19:00:00.000Z', '2026-01-12T20:00:00.000Z']);
    const log = s
      .history()
      .reverse()
      .map((h) => [h.status, h.scheduledFor, h.error]);
    expect(log).toEqual([
      ['failed', '2026-01-12T19:00:00.000Z', expect.stringContaining('Hourly monitoring could not start its Mon 2026-01-12 14:00 EST run')],
      ['ok', '2026-01-12T19:00:00.000Z', null],
      ['ok', '2026-01-12T20:00:00.000Z', null],
    ]);
    expect(log[0]![2]).toContain('SQLITE_BUSY');
  });

  it('a lock that outlasts several checks is logged once, not once a minute', async () => {
    const clock = new FakeClock('2026-01-12T18:59:30Z');
    const s = monitoring(clock, async () => ({ ok: true }));
    s.start();
    const writer = otherWriter();
    writer.lock();
    await clock.advance(10 * 60_000);
    writer.release();
    await clock.advance(60_000);
    await s.settled();
    expect(s.history().map((h) => h.status)).toEqual(['ok', 'failed']);
  });

  it('a setting that cannot be read (the time zone throws) is logged as a failed check, and the schedule resumes when it is readable', async () => {
    const clock = new FakeClock('2026-01-12T18:30:00Z');
    let broken = false;
    const slots: string[] = [];
    const s = monitoring(
      clock,
      async (_job, ctx) => {
        slots.push(ctx.scheduledFor?.toISOString() ?? '');
        return { ok: true };
      },
      {
        timeZone: () => {
          if (broken) throw new Error('settings.json is not valid JSON');
          return 'US/Eastern';
        },
      },
    );
    s.start();
    broken = true;
    await clock.advance(45 * 60_000); // 14:00 passes while the setting throws
    broken = false;
    await clock.advance(60 * 60_000);
    await s.settled();
    expect(slots).toContain('2026-01-12T20:00:00.000Z');
    const failed = s.history().filter((h) => h.status === 'failed');
    expect(failed.map((h) => h.error)).toEqual([expect.stringContaining('could not check its schedule')]);
    expect(failed[0]!.error).toContain('settings.json is not valid JSON');
  });

  it('a run whose results cannot be written (locked when it ends) is not run twice, and the next slot runs', async () => {
    const clock = new FakeClock('2026-01-12T18:59:30Z');
    const writer = otherWriter();
    const slots: string[] = [];
    const s = monitoring(clock, async (_job, ctx) => {
      slots.push(ctx.scheduledFor?.toISOString() ?? '');
      if (slots.length === 1) writer.lock(); // another process takes the lock while the run works
      return { ok: true };
    });
    s.start();
    await clock.advance(60_000);
    await s.settled();
    await clock.advance(5 * 60_000);
    writer.release();
    await clock.advance(60 * 60_000);
    await s.settled();
    expect(slots).toEqual(['2026-01-12T19:00:00.000Z', '2026-01-12T20:00:00.000Z']);
  });
});

describe('with real timers', () => {
  it('a real SQLITE_BUSY at a slot is logged and the slot runs once the lock is released', async () => {
    // Real setTimeout and a real lock; the clock is shifted so a slot is a moment away.
    const slotAt = Date.parse('2026-01-12T19:00:00Z');
    let offset = slotAt - 300 - Date.now();
    const slots: string[] = [];
    let ran!: () => void;
    let done = new Promise<void>((r) => {
      ran = r;
    });
    const s = monitoring(
      null,
      async (_job, ctx) => {
        slots.push(ctx.scheduledFor?.toISOString() ?? '');
        ran();
        return { ok: true };
      },
      { now: () => new Date(Date.now() + offset), timers: realTimers, maxWaitMs: 100 },
    );
    s.start();
    const writer = otherWriter();
    writer.lock();
    await new Promise((r) => setTimeout(r, 1000)); // several checks fail while locked
    expect(slots).toEqual([]);
    writer.release();
    await done;
    await s.settled();
    // The next slot an hour later: the timer chain is still alive.
    done = new Promise<void>((r) => {
      ran = r;
    });
    offset += 3_600_000;
    await done;
    await s.settled();
    expect(slots).toEqual(['2026-01-12T19:00:00.000Z', '2026-01-12T20:00:00.000Z']);
    expect(s.history().find((h) => h.status === 'failed')?.error).toContain('SQLITE_BUSY');
  }, 60_000);
});
