import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventMessage } from '../../api/events';
import { addExpression, WIDE_LIMITS } from '../../desk/books/testing';
import { DeskPeople } from '../../desk/people';
import { createDesk } from '../../desk/setup';
import { PostgresConnection } from '../../store/postgres/connection';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from '../../store/postgres/test-workspaces';
import type { Core } from '../core';
import { tempCore, untilEvent } from '../testing';
import { code, ok } from './answers';

const PASSWORD = 'correct horse battery staple';

/**
 * A desk of two PMs (alice, bob), a risk manager (rita) and an analyst (ann) on two servers over one
 * database, through the API a page calls: each person signs in, acts as themselves, and what one
 * server commits reaches the other server's pages (LISTEN/NOTIFY).
 */
describe.skipIf(skipWithoutPostgres())('the desk API on two servers', { timeout: 180_000 }, () => {
  let workspaces: PostgresWorkspaces;
  const servers: ReturnType<typeof tempCore>[] = [];
  let a: Core;
  let b: Core;
  const seenOnB: EventMessage[] = [];

  beforeAll(async () => {
    workspaces = await startPostgresWorkspaces();
    const url = workspaces.freshUrl();
    const setup = PostgresConnection.open(url);
    try {
      createDesk(setup);
      const people = new DeskPeople(setup);
      people.createFirstAdmin({ userId: 'alice', displayName: 'Alice', role: 'pm', password: PASSWORD });
      people.createUser('alice', { userId: 'bob', displayName: 'Bob', role: 'pm', password: PASSWORD });
      people.createUser('alice', { userId: 'rita', displayName: 'Rita', role: 'risk', password: PASSWORD });
      people.createUser('alice', { userId: 'ann', displayName: 'Ann', role: 'analyst', password: PASSWORD });
      setup.run(
        "INSERT INTO memory_records (category, id, title, status, meta, created_at, updated_at, header, body, content_hash) VALUES ('views', 'V-001', 'Fed cuts first', 'active', '', '2026-11-01', '2026-11-01', '{\"status\":\"active\"}', 'Why.', 'x')",
      );
      addExpression(setup, { id: 'E-001', owner: 'alice', notional: 30 });
      addExpression(setup, { id: 'E-002', owner: 'alice', notional: 30 });
      addExpression(setup, { id: 'E-003', owner: 'bob', notional: 30 });
    } finally {
      setup.close();
    }
    const open = () => {
      const t = tempCore({}, { database: url });
      servers.push(t);
      return t.core;
    };
    a = open();
    b = open();
    b.context.events.subscribe((m) => seenOnB.push(m));
    // Server B's pages hear the desk once its listener is connected (it says so: desk.connected).
    await untilEvent(b, seenOnB, (m) => m.event === 'desk/changed' && (m.payload as { kind: string }).kind === 'desk.connected', 30_000);
  }, 120_000);
  afterAll(async () => {
    for (const s of servers) await s.dispose();
    await workspaces?.stop();
  });

  const signIn = async (core: Core, userId: string) => ok(await core.invoke('desk/sign-in', { userId, password: PASSWORD })).session;

  it('says it is a desk, and lets a person in only with their own password', async () => {
    expect(ok(await a.invoke('desk/status', {}))).toMatchObject({ desk: true });
    expect(code(await a.invoke('desk/sign-in', { userId: 'alice', password: 'not her password at all' }))).toBe('unauthorized');
    expect(code(await a.invoke('desk/sign-in', { userId: 'nobody', password: PASSWORD }))).toBe('unauthorized');
    const session = await signIn(a, 'alice');
    expect(ok(await b.invoke('desk/me', { session })).user).toMatchObject({ userId: 'alice', role: 'pm', admin: true });
  });

  it("holds the desk's limits across servers: risk sets them on one, a PM's approval on the other is checked against both books and reaches risk's page live", async () => {
    const rita = await signIn(b, 'rita');
    const alice = await signIn(a, 'alice');
    // Before risk sets limits nothing can be approved (fail closed).
    expect(code(await a.invoke('desk/approve', { session: alice, id: 'E-001' }))).toBe('conflict');
    expect(code(await a.invoke('desk/set-limits', { session: alice, bookId: 'alice', limits: WIDE_LIMITS }))).toBe('forbidden');
    ok(await b.invoke('desk/set-limits', { session: rita, bookId: 'desk', limits: { ...WIDE_LIMITS, maxGross: 50 } }));
    ok(await b.invoke('desk/set-limits', { session: rita, bookId: 'alice', limits: WIDE_LIMITS }));
    ok(await b.invoke('desk/set-limits', { session: rita, bookId: 'bob', limits: WIDE_LIMITS }));

    expect(
      ok(await a.invoke('desk/proposals', { session: alice }))
        .proposals.map((p) => p.id)
        .sort(),
    ).toEqual(['E-001', 'E-002']);
    expect(
      ok(await b.invoke('desk/proposals', { session: rita }))
        .proposals.map((p) => `${p.ownerId}:${p.id}`)
        .sort(),
    ).toEqual(['alice:E-001', 'alice:E-002', 'bob:E-003']);
    const first = ok(await a.invoke('desk/approve', { session: alice, id: 'E-001' }));
    expect(first).toMatchObject({ approved: true, changed: true, status: 'active' });
    // Server B hears server A's commit (LISTEN/NOTIFY), as a risk manager's open page would.
    await untilEvent(b, seenOnB, (m) => m.event === 'desk/changed' && (m.payload as { kind: string }).kind === 'expression.approved', 20_000);

    // The desk's gross limit (50) binds: a second 30 would make 60.
    const second = ok(await a.invoke('desk/approve', { session: alice, id: 'E-002' }));
    expect(second.approved).toBe(false);
    expect(second.violations.map((v) => `${v.book}:${v.rule}`)).toContain('desk:max_gross_exposure');

    const books = ok(await b.invoke('desk/books', { session: rita })).books;
    expect(books.map((k) => k.bookId)).toEqual(['desk', 'alice', 'bob']);
    expect(books[0]).toMatchObject({ gross: 30 });
  });

  it("refuses a PM another PM's Expression, an analyst any approval, and a halted PM until risk resumes them", async () => {
    const bob = await signIn(a, 'bob');
    const ann = await signIn(a, 'ann');
    const rita = await signIn(b, 'rita');
    expect(code(await a.invoke('desk/approve', { session: bob, id: 'E-002' }))).toBe('forbidden');
    expect(code(await a.invoke('desk/approve', { session: ann, id: 'E-003' }))).toBe('forbidden');
    expect(ok(await a.invoke('desk/books', { session: bob })).books.map((k) => k.bookId)).toEqual(['desk', 'bob']);

    ok(await b.invoke('desk/halt', { session: rita, pmId: 'bob', reason: 'drawdown review' }));
    expect(code(await a.invoke('desk/approve', { session: bob, id: 'E-003' }))).toBe('forbidden');
    ok(await b.invoke('desk/halt', { session: rita, pmId: 'bob', reason: 'review done', resume: true }));
  });

  it('ends a session everywhere at sign-out: the next call on either server is refused', async () => {
    const session = await signIn(a, 'ann');
    ok(await a.invoke('desk/sign-out', { session }));
    expect(code(await b.invoke('desk/me', { session }))).toBe('unauthorized');
    expect(code(await a.invoke('desk/books', { session }))).toBe('unauthorized');
  });
});

describe('the desk API on a PM’s own workspace', () => {
  it('says plainly that this Forge is not serving a desk', async () => {
    const { core, dispose } = tempCore();
    try {
      expect(ok(await core.invoke('desk/status', {}))).toEqual({ desk: false, database: null });
      const r = await core.invoke('desk/sign-in', { userId: 'alice', password: PASSWORD });
      expect(r.ok ? '' : r.error.message).toMatch(/not serving a desk/);
    } finally {
      await dispose();
    }
  });
});
