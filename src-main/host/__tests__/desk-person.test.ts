import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { addExpression, WIDE_LIMITS } from '../../desk/books/testing';
import { DeskPeople } from '../../desk/people';
import { createDesk } from '../../desk/setup';
import { PostgresConnection } from '../../store/postgres/connection';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from '../../store/postgres/test-workspaces';
import type { Core } from '../core';
import { type HeadlessHost, startHeadlessHost } from '../http/server';
import { tempCore } from '../testing';
import { code, ok, type Result } from './answers';

const PASSWORD = 'correct horse battery staple';

const view = (title: string) => ['# new — ' + title, 'status: active', 'confidence: 0.6', 'scope: US rates', '---', '## SUMMARY', `${title}.`].join('\n');

/**
 * Every call on a desk is made by a signed-in person: without a session (or with one signed out)
 * the general procedures are refused with the sign-in message; the person's role decides what
 * they may write; expressions/approve is the desk's approval; audit rows name the person.
 * If these failed, anyone holding the server's bearer token could write to the desk as nobody, a
 * viewer could write Views, and an approval outside the Desk screen would skip the desk's limits.
 */
describe.skipIf(skipWithoutPostgres())('a desk answers only signed-in people, each within their role', { timeout: 180_000 }, () => {
  let workspaces: PostgresWorkspaces;
  let server: ReturnType<typeof tempCore>;
  let core: Core;
  let host: HeadlessHost;
  const sessions: Record<string, string> = {};

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
      people.createUser('alice', { userId: 'vic', displayName: 'Vic', role: 'viewer', password: PASSWORD });
      addExpression(setup, { id: 'E-001', owner: 'alice', notional: 30 });
      addExpression(setup, { id: 'E-002', owner: 'alice', notional: 30 });
      addExpression(setup, { id: 'E-003', owner: 'bob', notional: 30 });
    } finally {
      setup.close();
    }
    server = tempCore({}, { database: url });
    core = server.core;
    await core.context.memory.ready;
    for (const u of ['alice', 'bob', 'rita', 'ann', 'vic']) sessions[u] = ok(await core.invoke('desk/sign-in', { userId: u, password: PASSWORD })).session;
    host = await startHeadlessHost({ core, token: 'desk-person-test-token-0123456789' });
  }, 120_000);
  afterAll(async () => {
    await host?.close();
    await server?.dispose();
    await workspaces?.stop();
  });

  const as = (user: string) => ({ session: sessions[user] });

  it('refuses a general call without a session, or with a signed-out one, saying to sign in; the sign-in page’s own calls still work', async () => {
    const none = await core.invoke('memory/list', { path: '/memory/views/' });
    expect(code(none)).toBe('unauthorized');
    expect(none.ok ? '' : none.error.message).toMatch(/Sign in to the desk/);
    expect(code(await core.invoke('memory/write', { path: '/memory/views/new.md', content: view('Nobody wrote this') }))).toBe('unauthorized');

    const gone = ok(await core.invoke('desk/sign-in', { userId: 'ann', password: PASSWORD })).session;
    ok(await core.invoke('memory/list', { path: '/memory/views/' }, { session: gone }));
    ok(await core.invoke('desk/sign-out', { session: gone }));
    const revoked = await core.invoke('memory/list', { path: '/memory/views/' }, { session: gone });
    expect(code(revoked)).toBe('unauthorized');
    expect(revoked.ok ? '' : revoked.error.message).toMatch(/Sign in to the desk/);

    expect(ok(await core.invoke('desk/status', {}))).toMatchObject({ desk: true });
    expect(code(await core.invoke('app/health', {}))).toBe('ok');
  });

  it('carries the session over HTTP in x-forge-session, beside the bearer token', async () => {
    const call = (session?: string) =>
      fetch(`${host.url}/api/memory/list`, {
        method: 'POST',
        headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json', ...(session ? { 'x-forge-session': session } : {}) },
        body: JSON.stringify({ path: '/memory/views/' }),
      });
    const without = await call();
    expect(without.status).toBe(401);
    expect(((await without.json()) as { error: { message: string } }).error.message).toMatch(/Sign in to the desk/);
    expect((await call('not-a-session-at-all-0123456789')).status).toBe(401);
    expect((await call(sessions.rita)).status).toBe(200);
  });

  it("sends the desk's events only to a socket whose page has told it a signed-in person's session", async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/events`, { headers: { authorization: `Bearer ${host.token}` } });
    const heard: string[] = [];
    socket.on('message', (d) => heard.push(String(d)));
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const notice = (message: string) => core.context.events.emit('app/notice', { level: 'info', message });
    try {
      // The server's token alone, or a session that is no good, hears nothing.
      notice('before any session');
      socket.send(JSON.stringify({ session: 'not-a-session-at-all-0123456789' }));
      notice('with a bad session');
      socket.send(JSON.stringify({ session: sessions.vic }));
      // The check of the session is asynchronous: announce until the socket hears one (no timing assumed).
      for (let i = 0; i < 600 && !heard.some((h) => h.includes('for vic')); i++) {
        notice(`for vic ${i}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(heard.some((h) => h.includes('for vic'))).toBe(true);
      expect(heard.filter((h) => h.includes('before any session') || h.includes('with a bad session'))).toEqual([]);
    } finally {
      socket.close();
    }
  });

  it('runs two interleaving calls each as its own person, across their awaits', async () => {
    // Alternating writers in flight at once: each audit row must name the person whose call wrote it.
    const writers = ['ann', 'alice', 'ann', 'alice', 'ann', 'alice'];
    const written = await Promise.all(
      writers.map(async (u, i) => ({
        u,
        r: ok(await core.invoke('memory/write', { path: '/memory/views/new.md', content: view(`Note ${i} by ${u}`) }, as(u))),
      })),
    );
    for (const { u, r } of written) {
      const entries = ok(await core.invoke('memory/audit', { path: r.path, limit: 5 }, as('rita'))).entries;
      expect(entries.map((e) => [e.actor, e.operation])).toEqual([[u, 'create']]);
    }
  });

  it('lets each role write only what the permission table allows', async () => {
    const tries: [string, (u: string) => Promise<Result<unknown>>, Record<string, 'ok' | 'forbidden'>][] = [
      [
        'memory/write a View',
        (u) => core.invoke('memory/write', { path: '/memory/views/new.md', content: view(`A View by ${u}`) }, as(u)),
        { alice: 'ok', rita: 'forbidden', ann: 'ok', vic: 'forbidden' },
      ],
      [
        'memory/write an Expression (a proposal)',
        (u) =>
          core.invoke(
            'memory/write',
            {
              path: '/memory/expressions/new.md',
              content: ['# new — Pay 10y', 'view_id: V-001', 'instrument: USD 10y swap', 'notional: 4', '---', '## SUMMARY', 'Pay.'].join('\n'),
            },
            as(u),
          ),
        { alice: 'ok', rita: 'forbidden', ann: 'ok', vic: 'forbidden' },
      ],
      // An unknown Expression: a role that may approve gets as far as not_found; the others are refused first.
      [
        'expressions/approve',
        (u) => core.invoke('expressions/approve', { id: 'E-999' }, as(u)),
        { alice: 'ok', rita: 'forbidden', ann: 'forbidden', vic: 'forbidden' },
      ],
      [
        'expressions/reject',
        (u) => core.invoke('expressions/reject', { id: 'E-999', reason: 'no' }, as(u)),
        { alice: 'ok', rita: 'forbidden', ann: 'forbidden', vic: 'forbidden' },
      ],
      // Server settings are the desk admin's (alice), whatever the role.
      [
        'settings/set',
        (u) => core.invoke('settings/set', { settings: { displayName: 'Desk' } }, as(u)),
        { alice: 'ok', rita: 'forbidden', ann: 'forbidden', vic: 'forbidden' },
      ],
    ];
    const seen: Record<string, Record<string, string>> = {};
    const wanted: Record<string, Record<string, string>> = {};
    for (const [name, run, expected] of tries) {
      seen[name] = {};
      wanted[name] = expected;
      for (const u of Object.keys(expected)) {
        const c = code(await run(u));
        // Anything the permission table let through counts as 'ok' (the handler's own answer, e.g. not_found for E-999).
        seen[name][u] = c === 'forbidden' || c === 'unauthorized' ? c : 'ok';
      }
    }
    expect(seen).toEqual(wanted);
  });

  it("holds the desk's limits and a PM's own book on expressions/approve, as on desk/approve, and names the approver in the audit", async () => {
    ok(await core.invoke('desk/set-limits', { session: sessions.rita, bookId: 'desk', limits: { ...WIDE_LIMITS, maxGross: 50 } }));
    ok(await core.invoke('desk/set-limits', { session: sessions.rita, bookId: 'alice', limits: WIDE_LIMITS }));
    ok(await core.invoke('desk/set-limits', { session: sessions.rita, bookId: 'bob', limits: WIDE_LIMITS }));

    const theirs = await core.invoke('expressions/approve', { id: 'E-003' }, as('alice'));
    expect(code(theirs)).toBe('forbidden');
    expect(code(await core.invoke('expressions/approve', { id: 'E-001' }, as('bob')))).toBe('forbidden');

    expect(ok(await core.invoke('expressions/approve', { id: 'E-001' }, as('alice')))).toMatchObject({ approved: true, status: 'active' });
    // The desk's gross limit (50) binds: a second 30 would make 60 — refused on this path too.
    const second = ok(await core.invoke('expressions/approve', { id: 'E-002' }, as('alice')));
    expect(second.approved).toBe(false);
    expect(second.violations.map((v) => v.rule)).toContain('max_gross_exposure');

    const audit = ok(await core.invoke('memory/audit', { path: '/memory/expressions/E-001.md', limit: 5 }, as('rita'))).entries;
    expect(audit[0]).toMatchObject({ actor: 'alice', operation: 'approve' });
  });
});

describe('a PM’s own workspace needs no sign-in', () => {
  it('answers the same calls without a session, as before desks existed', async () => {
    const { core, dispose } = tempCore();
    try {
      await core.context.memory.ready;
      ok(await core.invoke('memory/list', { path: '/memory/views/' }));
      const w = ok(await core.invoke('memory/write', { path: '/memory/views/new.md', content: view('Mine alone') }));
      expect(ok(await core.invoke('memory/audit', { path: w.path, limit: 5 })).entries.map((e) => e.actor)).toEqual(['pm']);
    } finally {
      await dispose();
    }
  });
});
