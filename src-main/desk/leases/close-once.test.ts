import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { racingServer } from '../../store/postgres/racing-server';
import { InvalidInputError } from '../../common/errors';
import type { PostgresConnection } from '../../store/postgres/connection';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { startTestDesk, type TestDesk } from '../testing';
import { closeOnce } from './close-once';

const here = dirname(fileURLToPath(import.meta.url));

/** One child process = one server's tracker, closing the same Expressions as the other. */
function tracker(url: string, ids: string[]) {
  return racingServer<string[]>(join(here, '__tests__', 'close.child.ts'), [url, JSON.stringify(ids)], 'the tracker process');
}

function addExpression(connection: PostgresConnection, id: string, status: string): void {
  const header = JSON.stringify({ status, instrument: 'UST 10y', direction: 'long' });
  connection.run(
    `INSERT INTO memory_records (category, id, title, status, meta, created_at, updated_at, header, body, content_hash)
     VALUES ('expressions', $1, 'Long 10y', $2, '', '2026-11-01T08:00:00.000Z', '2026-11-01T08:00:00.000Z', $3, 'Thesis.', $4)`,
    [id, status, header, createHash('sha256').update(id).digest('hex')],
  );
}

describe.skipIf(skipWithoutPostgres())('closeOnce: the tracker closes an Expression exactly once across servers', { timeout: 180_000 }, () => {
  let desk: TestDesk;

  beforeAll(async () => {
    desk = await startTestDesk();
    desk.connection.run('CREATE TABLE close_test_outcomes (id text NOT NULL, closed_by text NOT NULL)');
  }, 120_000);
  afterAll(async () => {
    await desk?.stop();
  });

  it('closes a live Expression once, moving the status in the column and the header; a second close finds nothing to do', () => {
    addExpression(desk.connection, 'E-1', 'active');
    const first = closeOnce(desk.connection, 'E-1', ['active'], 'closed');
    expect(first).toMatchObject({ previousStatus: 'active' });
    const row = desk.connection.one<{ status: string; header: string }>("SELECT status, header FROM memory_records WHERE id = 'E-1'");
    expect(row?.status).toBe('closed');
    expect(JSON.parse(row!.header)).toMatchObject({ status: 'closed', instrument: 'UST 10y' });
    expect(closeOnce(desk.connection, 'E-1', ['active'], 'closed')).toBeUndefined();
    // A proposed Expression is not live: the tracker's exit rules do not close it.
    addExpression(desk.connection, 'E-2', 'proposed');
    expect(closeOnce(desk.connection, 'E-2', ['active'], 'closed')).toBeUndefined();
    expect(closeOnce(desk.connection, 'E-404', ['active'], 'closed')).toBeUndefined();
  });

  it("two servers' trackers racing over the same 20 live Expressions close each exactly once and record one Outcome each (no double P&L)", async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `R-${i + 1}`);
    for (const id of ids) addExpression(desk.connection, id, 'active');
    const one = tracker(desk.url, ids);
    const two = tracker(desk.url, ids);
    await Promise.all([one.ready, two.ready]);
    one.go();
    two.go();
    const [byOne, byTwo] = await Promise.all([one.done, two.done]);
    expect([...byOne, ...byTwo].sort()).toEqual([...ids].sort());
    const outcomes = desk.connection.query<{ id: string; n: number }>("SELECT id, count(*)::int AS n FROM close_test_outcomes WHERE id LIKE 'R-%' GROUP BY id");
    expect(outcomes).toHaveLength(20);
    expect(outcomes.every((o) => o.n === 1)).toBe(true);
  });

  it('refuses statuses that are not plain words, and a close that could repeat itself', () => {
    expect(() => closeOnce(desk.connection, 'E-1', [], 'closed')).toThrow(InvalidInputError);
    expect(() => closeOnce(desk.connection, 'E-1', ["active'; --"], 'closed')).toThrow(InvalidInputError);
    expect(() => closeOnce(desk.connection, 'E-1', ['closed'], 'closed')).toThrow(InvalidInputError);
  });
});
