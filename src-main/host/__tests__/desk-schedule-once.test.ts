import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DeskLeases } from '../../desk/leases';
import { createDesk } from '../../desk/setup';
import { JOBS, type JobRunResult, Scheduler } from '../../scheduler';
import { FakeClock } from '../../scheduler/testing';
import type { Store } from '../../store';
import { PostgresConnection } from '../../store/postgres/connection';
import { openDeskStore } from '../../store/postgres/desk-store';
import { connectionOf } from '../../store/postgres/postgres-db';
import { POSTGRES_SCHEMA_VERSION, postgresAfterCopy, postgresSchema } from '../../store/postgres/schema';
import { skipWithoutPostgres, startTestPostgres, type TestPostgres } from '../../store/postgres/test-server';
import { EnvSecretStore } from '../../config/secrets';
import { DeskPeople } from '../../desk/people';
import { deskSlotLeases } from '../desk-leases';
import { createCore } from '../core';

/**
 * Two Forge servers on one desk database, each with its own connection, clock and scheduler: the
 * 07:00 morning review must run once for the desk. Run twice, every PM gets two reviews (two
 * sessions, twice the model cost, two sets of notices); never run, the desk has no review.
 */
const morning = JOBS.filter((j) => j.name === 'morning_review');

interface Server {
  name: string;
  clock: FakeClock;
  store: Store;
  scheduler: Scheduler;
  calls: string[];
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe.skipIf(skipWithoutPostgres())('scheduled jobs on a desk: one run per slot across servers', { timeout: 180_000 }, () => {
  let postgres: TestPostgres;
  let admin: PostgresConnection;
  let n = 0;
  const servers: Server[] = [];

  beforeAll(async () => {
    postgres = await startTestPostgres();
    admin = PostgresConnection.open(postgres.url, { applicationName: 'forge test admin' });
  }, 120_000);
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      const stopping = s.scheduler.stop();
      await s.clock.advance(1); // the stop's grace timer is on this server's clock
      await stopping;
      s.store.close();
    }
  });
  afterAll(async () => {
    admin?.close();
    await postgres?.stop();
  });

  /** A new desk database (its own schedule state), as `forge desk create` makes it. */
  function freshDesk(): string {
    const name = `desk_schedule_${++n}`;
    admin.run(`CREATE DATABASE ${name}`);
    const url = postgres.url.replace(/\/[^/]*$/, `/${name}`);
    const c = PostgresConnection.open(url);
    try {
      createDesk(c);
    } finally {
      c.close();
    }
    return url;
  }

  /** One server: its own store and connection on the desk, its own clock; `work` is what a run does. */
  function server(url: string, name: string, at: string, work: (signal: AbortSignal) => Promise<JobRunResult>): Server {
    const store = openDeskStore(url);
    const clock = new FakeClock(at);
    const calls: string[] = [];
    const connection = connectionOf(store.db);
    if (!connection) throw new Error('a desk store has a PostgreSQL connection');
    const scheduler = new Scheduler({
      db: store.db,
      leases: new DeskLeases(connection, name, { leaseMs: 60_000 }),
      run: async (_job, ctx) => {
        calls.push(ctx.scheduledFor?.toISOString() ?? 'manual');
        return work(ctx.signal);
      },
      timeZone: () => 'UTC',
      now: clock.now,
      timers: clock,
      jobs: morning,
      stopGraceMs: 0,
    });
    const s = { name, clock, store, scheduler, calls };
    servers.push(s);
    return s;
  }

  const SLOT = '2026-01-12T07:00:00.000Z'; // a Monday

  it('two servers reaching 07:00 together run the morning review once, and neither logs a failed start', async () => {
    const url = freshDesk();
    const a = server(url, 'server-a', '2026-01-12T06:59:30Z', async () => ({ ok: true }));
    const b = server(url, 'server-b', '2026-01-12T06:59:30Z', async () => ({ ok: true }));
    a.scheduler.start();
    b.scheduler.start();
    await Promise.all([a.clock.advance(60_000), b.clock.advance(60_000)]);
    await Promise.all([a.scheduler.settled(), b.scheduler.settled()]);
    // A minute later both check again: the slot is done with on both.
    await Promise.all([a.clock.advance(60_000), b.clock.advance(60_000)]);
    await Promise.all([a.scheduler.settled(), b.scheduler.settled()]);

    expect([...a.calls, ...b.calls]).toEqual([SLOT]);
    // The desk's one run log: one run, ok — not a second "could not start" failure beside it.
    expect(a.scheduler.history({ job: 'morning_review' }).map((r) => [r.status, r.scheduledFor])).toEqual([['ok', SLOT]]);
    const c = PostgresConnection.open(url);
    try {
      expect(c.query('SELECT job, slot, outcome, attempts FROM desk_job_leases')).toEqual([{ job: 'morning_review', slot: SLOT, outcome: 'ok', attempts: 1 }]);
    } finally {
      c.close();
    }
  });

  it('a server starting while another runs the morning review leaves that run alone and does not run the slot again', async () => {
    const url = freshDesk();
    const gate = deferred();
    const a = server(url, 'server-a', '2026-01-12T06:59:00Z', async () => {
      await gate.promise;
      return { ok: true };
    });
    a.scheduler.start();
    await a.clock.advance(60_000);
    expect(a.calls).toEqual([SLOT]);

    // A second server comes up (a deploy, a restart) at 07:00:30, mid-review.
    const b = server(url, 'server-b', '2026-01-12T07:00:30Z', async () => ({ ok: true }));
    const interrupted = b.scheduler.start();
    await b.clock.advance(60_000);
    expect(interrupted, "server A's live run is not an orphan of B's start").toEqual([]);
    expect(b.calls, 'the slot is being run on server A').toEqual([]);
    expect(b.scheduler.history({ job: 'morning_review' }).map((r) => r.status)).toEqual(['running']);

    gate.resolve();
    await a.scheduler.settled();
    await b.clock.advance(60_000);
    await b.scheduler.settled();
    expect(b.calls).toEqual([]);
    expect(b.scheduler.history({ job: 'morning_review' }).map((r) => [r.status, r.scheduledFor])).toEqual([['ok', SLOT]]);
  });

  it('a server killed mid-review loses the slot once its lease expires: another server closes the orphaned run and runs the slot', async () => {
    const url = freshDesk();
    // Server A's run never ends and its clock never moves again: no heartbeat, like a killed process.
    const a = server(url, 'server-a', '2026-01-12T06:59:00Z', () => new Promise<JobRunResult>(() => undefined));
    a.scheduler.start();
    await a.clock.advance(60_000);
    expect(a.calls).toEqual([SLOT]);

    const b = server(url, 'server-b', '2026-01-12T07:00:30Z', async () => ({ ok: true, summary: 'Reviewed.' }));
    b.scheduler.start();
    await b.clock.advance(1000);
    expect(b.calls, "while A's lease holds, B waits").toEqual([]);

    // Two silent minutes later A's lease has run out on the database's clock (moved here rather than
    // waited for, so a loaded machine cannot make it expire early or late); B's next check takes over.
    const c0 = PostgresConnection.open(url);
    try {
      c0.run("UPDATE desk_job_leases SET expires_at = clock_timestamp() - interval '1 second' WHERE holder = 'server-a'");
    } finally {
      c0.close();
    }
    await b.clock.advance(60_000);
    await b.scheduler.settled();
    expect(b.calls).toEqual([SLOT]);
    const runs = b.scheduler.history({ job: 'morning_review' });
    expect(runs.map((r) => [r.status, r.scheduledFor])).toEqual([
      ['ok', SLOT],
      ['interrupted', SLOT],
    ]);
    expect(runs[1]?.error).toMatch(/stopped answering/);
    const c = PostgresConnection.open(url);
    try {
      expect(c.query('SELECT holder, outcome, attempts FROM desk_job_leases')).toEqual([{ holder: 'server-b', outcome: 'ok', attempts: 2 }]);
    } finally {
      c.close();
    }
  });

  it('a server that was only stalled stops its run once it learns another server took the slot over, and leaves the lease to the new holder', async () => {
    const url = freshDesk();
    // Server A's review runs until its signal says stop.
    let stopped = false;
    const a = server(
      url,
      'server-a',
      '2026-01-12T06:59:00Z',
      (signal) =>
        new Promise<JobRunResult>((resolve) =>
          signal.addEventListener('abort', () => {
            stopped = true;
            resolve({ ok: false, error: 'Stopped.' });
          }),
        ),
    );
    a.scheduler.start();
    await a.clock.advance(60_000);
    expect(a.calls).toEqual([SLOT]);

    // A stalls (a long pause, a network partition) past its lease; B takes the slot over and runs it.
    const c = PostgresConnection.open(url);
    try {
      c.run("UPDATE desk_job_leases SET expires_at = clock_timestamp() - interval '1 second' WHERE holder = 'server-a'");
    } finally {
      c.close();
    }
    const b = server(url, 'server-b', '2026-01-12T07:02:00Z', async () => ({ ok: true }));
    b.scheduler.start();
    await b.clock.advance(1000);
    await b.scheduler.settled();
    expect(b.calls).toEqual([SLOT]);

    // A wakes: its next heartbeat (a third of the lease later) is refused, so it stops its run.
    expect(stopped).toBe(false);
    await a.clock.advance(20_000);
    await a.scheduler.settled();
    expect(stopped, "A's run was told to stop").toBe(true);
    const runs = a.scheduler.history({ job: 'morning_review' });
    expect(runs.map((r) => [r.status, r.scheduledFor])).toEqual([
      ['ok', SLOT],
      ['interrupted', SLOT],
    ]);
    expect(runs[1]?.error).toMatch(/another server of the desk took the slot over/);
    const d = PostgresConnection.open(url);
    try {
      expect(d.query('SELECT holder, outcome, attempts FROM desk_job_leases')).toEqual([{ holder: 'server-b', outcome: 'ok', attempts: 2 }]);
    } finally {
      d.close();
    }
  });

  it("the host gives the scheduler the desk's leases on a desk only: not on a workspace that was never made a desk", () => {
    const url = freshDesk();
    const store = openDeskStore(url);
    try {
      const leases = deskSlotLeases(store, url);
      expect(leases).toBeInstanceOf(DeskLeases);
      // The scheduler's lease and the one the host handed over are the same table.
      expect(leases?.claim('morning_review', SLOT)).toEqual({ claimed: true, attempt: 1 });
      expect(deskSlotLeases(store, undefined), "no --db: one PM, every slot is this process's").toBeUndefined();
    } finally {
      store.close();
    }
    // A PM's workspace moved to PostgreSQL (forge migrate --to) but not made a desk has no lease table.
    const name = `plain_${++n}`;
    admin.run(`CREATE DATABASE ${name}`);
    const plainUrl = postgres.url.replace(/\/[^/]*$/, `/${name}`);
    const c = PostgresConnection.open(plainUrl);
    try {
      c.transaction(() => {
        for (const statement of [...postgresSchema, ...postgresAfterCopy]) c.run(statement);
        c.run("INSERT INTO forge_schema (version, source) VALUES ($1, 'test')", [POSTGRES_SCHEMA_VERSION]);
      });
    } finally {
      c.close();
    }
    const plain = openDeskStore(plainUrl);
    try {
      expect(deskSlotLeases(plain, plainUrl)).toBeUndefined();
    } finally {
      plain.close();
    }
  });

  it("through a whole server: a desk admin's Run now holds a lease on the desk, finished with the run's outcome", async () => {
    const url = freshDesk();
    const setup = PostgresConnection.open(url);
    try {
      new DeskPeople(setup).createFirstAdmin({ userId: 'ada', displayName: 'Ada', role: 'risk', password: 'correct horse battery staple' });
    } finally {
      setup.close();
    }
    // A core as `forge serve --db` builds it, its scheduler running (tests' cores leave it off).
    const dataDir = mkdtempSync(join(tmpdir(), 'forge-desk-schedule-'));
    const one = { core: createCore({ dataDir, mode: 'test', secrets: new EnvSecretStore({}), database: url, scheduler: true }) };
    try {
      await one.core.context.memory.ready;
      const signIn = await one.core.invoke('desk/sign-in', { userId: 'ada', password: 'correct horse battery staple' });
      if (!signIn.ok) throw new Error(signIn.error.message);
      const started = await one.core.invoke('schedule/run-now', { job: 'hourly_monitoring' }, { session: signIn.value.session });
      if (!started.ok) throw new Error(started.error.message);
      // The run holds a lease named after its start, finished with the run's outcome.
      const c = PostgresConnection.open(url);
      try {
        let lease: { slot: string; outcome: string | null } | undefined;
        for (let i = 0; i < 600 && !lease?.outcome; i++) {
          lease = c.one<{ slot: string; outcome: string | null }>("SELECT slot, outcome FROM desk_job_leases WHERE job = 'hourly_monitoring'");
          if (!lease?.outcome) await new Promise((r) => setTimeout(r, 100));
        }
        expect(lease?.slot).toMatch(/^manual \d{4}-\d\d-\d\dT/);
        expect(lease?.outcome).toBe('ok');
      } finally {
        c.close();
      }
    } finally {
      await one.core.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
