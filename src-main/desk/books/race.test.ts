import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { racingServer } from '../../store/postgres/racing-server';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { startTestDesk, type TestDesk } from '../testing';
import { DeskBooks } from './books';
import { addExpression, seedBooksDesk, WIDE_LIMITS } from './testing';

const here = dirname(fileURLToPath(import.meta.url));

interface Attempt {
  actor: string;
  id: string;
  approved?: boolean;
  changed?: boolean;
  checked?: boolean;
  error?: string;
}

/** One child process = one Forge server with its own connection to the desk's database. */
function server(url: string, attempts: { actor: string; id: string }[]) {
  return racingServer<Attempt[]>(join(here, '__tests__', 'approve.child.ts'), [url, JSON.stringify(attempts)], 'the approving process');
}

describe.skipIf(skipWithoutPostgres())('approvals racing on two servers against one desk limit', { timeout: 180_000 }, () => {
  let desk: TestDesk;
  let books: DeskBooks;

  beforeAll(async () => {
    desk = await startTestDesk();
    seedBooksDesk(desk.connection);
    books = new DeskBooks(desk.connection);
    // Each PM's own book has room for everything; only the desk's gross limit binds: 6 trades of 10 fit in 65.
    books.setLimits('rita', 'alice', WIDE_LIMITS);
    books.setLimits('rita', 'bob', WIDE_LIMITS);
    books.setLimits('rita', 'desk', { ...WIDE_LIMITS, maxGross: 65 });
    // A loaded database, made certain: each check's row takes 50 ms to insert, so an approval holds
    // its reading of the book for a while before it commits. Without the desk-wide lock, two servers
    // then both read a desk book without the other's trade; with it, they queue.
    desk.connection.run(`CREATE FUNCTION race_slow_check() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_sleep(0.05); RETURN NEW; END $$`);
    desk.connection.run('CREATE TRIGGER race_slow_check BEFORE INSERT ON guardrail_checks FOR EACH ROW EXECUTE FUNCTION race_slow_check()');
    for (let i = 0; i < 8; i++) {
      addExpression(desk.connection, { id: `E-${101 + i}`, owner: 'alice', notional: 10 });
      addExpression(desk.connection, { id: `E-${201 + i}`, owner: 'bob', notional: 10 });
    }
  });
  afterAll(async () => {
    await desk?.stop();
  });

  it('never lets the desk breach its gross limit, approves exactly what fits, once each, with one check per attempt', async () => {
    // 16 proposals of 10 against a desk limit of 65: if both servers checked against a desk book
    // without the other's trades, more than 6 would pass and the desk would be over its limit.
    // Each server tries every Expression (alice's and bob's interleaved), in opposite orders, so the
    // same Expression is also approved twice at once (two servers, one double-click).
    const ids = Array.from({ length: 8 }, (_, i) => [
      { actor: 'alice', id: `E-${101 + i}` },
      { actor: 'bob', id: `E-${201 + i}` },
    ]).flat();
    const servers = [server(desk.url, ids), server(desk.url, [...ids].reverse())];
    await Promise.all(servers.map((s) => s.ready));
    for (const s of servers) s.go();
    const attempts = (await Promise.all(servers.map((s) => s.done))).flat();

    const c = desk.connection;
    const n = (sql: string) => Number(c.one<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`)!.n);
    expect(attempts.filter((a) => a.error)).toEqual([]);
    expect(books.deskBook().gross).toBeLessThanOrEqual(65);
    expect(books.deskBook().gross).toBe(60);
    expect(n("memory_records WHERE category = 'expressions' AND status = 'active'")).toBe(6);
    // Each approval happened once: one winning attempt, one 'approved' check, one audit row, one archived version.
    expect(attempts.filter((a) => a.changed)).toHaveLength(6);
    expect(n("guardrail_checks WHERE outcome = 'approved'")).toBe(6);
    expect(n("audit_log WHERE operation = 'approve'")).toBe(6);
    expect(n("memory_archive WHERE category = 'expressions'")).toBe(6);
    expect(n("(SELECT path FROM audit_log WHERE operation = 'approve' GROUP BY path HAVING count(*) > 1) d")).toBe(0);
    // Every attempt that ran the check left exactly one row (a retry of an already-active one runs none).
    expect(n('guardrail_checks')).toBe(attempts.filter((a) => a.checked).length);
    expect(n("guardrail_checks WHERE outcome = 'refused'")).toBe(attempts.filter((a) => a.checked && !a.approved).length);
  });
});
