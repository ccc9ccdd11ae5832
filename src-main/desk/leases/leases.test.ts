import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { racingServer } from '../../store/postgres/racing-server';
import { InvalidInputError } from '../../common/errors';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { startTestDesk, type TestDesk } from '../testing';
import { DeskLeases, LeaseLostError } from './leases';

const here = dirname(fileURLToPath(import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One child process = one Forge server with its own connection, claiming the same slots as the other. */
function server(url: string, job: string, slots: number) {
  return racingServer<string[]>(join(here, '__tests__', 'claim.child.ts'), [url, job, String(slots)], 'the claiming process');
}

describe.skipIf(skipWithoutPostgres())('job leases: each scheduled slot runs once across the servers of a desk', { timeout: 180_000 }, () => {
  let desk: TestDesk;

  beforeAll(async () => {
    desk = await startTestDesk();
    desk.connection.run('CREATE TABLE lease_test_runs (job text NOT NULL, slot text NOT NULL, holder text NOT NULL)');
  }, 120_000);
  afterAll(async () => {
    await desk?.stop();
  });

  it('the first of two servers to claim a slot runs it; the other is told who holds it, and a finished slot is never claimed again', () => {
    const a = new DeskLeases(desk.connection, 'server-a');
    const b = new DeskLeases(desk.connect(), 'server-b');
    const slot = '2026-11-28T07:00:00.000Z';
    expect(a.claim('morning_review', slot)).toEqual({ claimed: true, attempt: 1 });
    expect(b.claim('morning_review', slot)).toEqual({ claimed: false, holder: 'server-a', finished: false, outcome: null });
    a.finish('morning_review', slot, 'failed');
    // Even a failed run is not retried by another server: the scheduler's catch-up decides, not a race.
    expect(b.claim('morning_review', slot)).toEqual({ claimed: false, holder: 'server-a', finished: true, outcome: 'failed' });
    // The same slot of another job is its own lease.
    expect(b.claim('end_of_day', slot)).toEqual({ claimed: true, attempt: 1 });
  });

  it('two server processes racing for the same 20 slots run each slot exactly once between them', async () => {
    const one = server(desk.url, 'hourly_monitoring', 20);
    const two = server(desk.url, 'hourly_monitoring', 20);
    await Promise.all([one.ready, two.ready]);
    one.go();
    two.go();
    const [ranByOne, ranByTwo] = await Promise.all([one.done, two.done]);
    const all = [...ranByOne, ...ranByTwo].sort();
    expect(all).toHaveLength(20);
    expect(new Set(all).size).toBe(20);
    const runs = desk.connection.query<{ slot: string; n: number }>(
      "SELECT slot, count(*)::int AS n FROM lease_test_runs WHERE job = 'hourly_monitoring' GROUP BY slot ORDER BY slot",
    );
    expect(runs).toHaveLength(20);
    expect(runs.every((r) => r.n === 1)).toBe(true);
    const finished = desk.connection.one<{ n: number }>(
      "SELECT count(*)::int AS n FROM desk_job_leases WHERE job = 'hourly_monitoring' AND outcome = 'ok' AND attempts = 1",
    );
    expect(finished?.n).toBe(20);
  });

  it('a server killed mid-job (it stops heart-beating) loses the slot to another after its lease expires, and cannot then record a result', async () => {
    const slot = '2026-11-28T17:00:00.000Z';
    const killed = new DeskLeases(desk.connection, 'server-killed', { leaseMs: 1 });
    const survivor = new DeskLeases(desk.connect(), 'server-survivor', { leaseMs: 60_000 });
    expect(killed.claim('end_of_day', slot)).toMatchObject({ claimed: true });
    // The lease was 1 ms; 50 ms later it has certainly expired on the database's clock.
    await sleep(50);
    expect(survivor.claim('end_of_day', slot)).toEqual({ claimed: true, attempt: 2 });
    // The old holder learns it lost the slot: its heartbeat fails, its result is refused.
    expect(killed.heartbeat('end_of_day', slot)).toBe(false);
    expect(() => killed.finish('end_of_day', slot, 'ok')).toThrow(LeaseLostError);
    survivor.finish('end_of_day', slot, 'ok');
    expect(desk.connection.one('SELECT holder, outcome, attempts FROM desk_job_leases WHERE job = $1 AND slot = $2', ['end_of_day', slot])).toEqual({
      holder: 'server-survivor',
      outcome: 'ok',
      attempts: 2,
    });
  });

  it('a holder that keeps heart-beating keeps its slot: nobody takes over a live lease', () => {
    const slot = '2026-11-28T18:00:00.000Z';
    const holder = new DeskLeases(desk.connection, 'server-live', { leaseMs: 60_000 });
    const other = new DeskLeases(desk.connect(), 'server-other', { leaseMs: 60_000 });
    holder.claim('weekly_retrospective', slot);
    const expiry = () =>
      Number(
        desk.connection.one<{ e: string }>('SELECT extract(epoch FROM expires_at)::text AS e FROM desk_job_leases WHERE job = $1 AND slot = $2', [
          'weekly_retrospective',
          slot,
        ])?.e,
      );
    const before = expiry();
    // The same server, now asking for a 2-minute lease: its heartbeat moves the expiry a minute on.
    const longer = new DeskLeases(desk.connection, 'server-live', { leaseMs: 120_000 });
    expect(longer.heartbeat('weekly_retrospective', slot)).toBe(true);
    expect(expiry() - before, 'the heartbeat pushes the expiry later').toBeGreaterThan(30);
    expect(other.claim('weekly_retrospective', slot)).toMatchObject({ claimed: false, holder: 'server-live' });
  });

  it('runOnce runs the work on the winning server only and records its outcome; a throwing job is recorded as failed', async () => {
    const a = new DeskLeases(desk.connection, 'run-a');
    const b = new DeskLeases(desk.connect(), 'run-b');
    const slot = '2026-11-29T07:00:00.000Z';
    let runs = 0;
    const work = async () => {
      runs++;
      throw new Error('the model was unavailable');
    };
    expect(await a.runOnce('morning_review', slot, work)).toBe('failed');
    expect(await b.runOnce('morning_review', slot, work)).toBeUndefined();
    expect(runs).toBe(1);
  });

  it('a server that stops gives its slot up at once (release), and isLive tells a held slot from one left behind', () => {
    const slot = '2026-11-30T07:00:00.000Z';
    const stopping = new DeskLeases(desk.connection, 'server-stopping', { leaseMs: 60_000 });
    const other = new DeskLeases(desk.connect(), 'server-other', { leaseMs: 60_000 });
    expect(stopping.claim('morning_review', slot)).toMatchObject({ claimed: true });
    expect(other.isLive('morning_review', slot)).toBe(true);
    // Only the holder can give a slot up: another server's release changes nothing.
    other.release('morning_review', slot);
    expect(other.claim('morning_review', slot)).toMatchObject({ claimed: false, holder: 'server-stopping' });
    stopping.release('morning_review', slot);
    expect(other.isLive('morning_review', slot), "a released slot is nobody's").toBe(false);
    expect(other.claim('morning_review', slot)).toEqual({ claimed: true, attempt: 2 });
    other.finish('morning_review', slot, 'ok');
    expect(other.isLive('morning_review', slot), 'a finished slot is not live').toBe(false);
    expect(other.isLive('morning_review', '2026-12-01T07:00:00.000Z'), 'a slot never claimed is not live').toBe(false);
  });

  it('refuses a malformed job name, slot or lease with a typed error', () => {
    const a = new DeskLeases(desk.connection, 'server-a');
    expect(() => a.claim('Morning Review', '2026-11-28T07:00:00.000Z')).toThrow(InvalidInputError);
    expect(() => a.claim('morning_review', '')).toThrow(InvalidInputError);
    expect(() => new DeskLeases(desk.connection, 'x', { leaseMs: 0 })).toThrow(InvalidInputError);
    expect(() => a.finish('morning_review', 'x', 'done' as 'ok')).toThrow(InvalidInputError);
  });
});
