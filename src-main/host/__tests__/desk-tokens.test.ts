import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from '../../store/postgres/test-workspaces';
import type { Core } from '../core';
import { type HeadlessHost, startHeadlessHost } from '../http/server';
import { tempCore } from '../testing';
import { code, ok } from './answers';
import { seedDesk } from './desk-seed';

const PASSWORD = 'correct horse battery staple';

const view = (title: string) => ['# new — ' + title, 'status: active', 'confidence: 0.6', 'scope: US rates', '---', '## SUMMARY', `${title}.`].join('\n');

/**
 * A person's own API tokens on a desk of two servers over one database: pm01 issues one on server
 * A, a script calling server B with only that token acts as pm01; pm01 lists it (never its secret);
 * pm02 can neither see nor revoke it; once pm01 revokes it, both servers refuse it. If this failed,
 * a developer could not point a script or IDE at the desk as themselves, a listed token could leak
 * from the screen, a colleague could cut off someone's tools, or a revoked laptop token would keep
 * writing to the desk.
 */
describe.skipIf(skipWithoutPostgres())("a desk person's own API tokens, across two servers", { timeout: 180_000 }, () => {
  let workspaces: PostgresWorkspaces;
  const servers: ReturnType<typeof tempCore>[] = [];
  let a: Core;
  let b: Core;
  let hostB: HeadlessHost;
  const sessions: Record<string, string> = {};
  let token = '';
  let tokenId = 0;

  beforeAll(async () => {
    workspaces = await startPostgresWorkspaces();
    const url = workspaces.freshUrl();
    // The admin is risk, so neither PM may revoke another's token as an admin could.
    seedDesk(
      url,
      [
        { userId: 'rita', displayName: 'Rita', role: 'risk' },
        { userId: 'pm01', displayName: 'Pat One', role: 'pm' },
        { userId: 'pm02', displayName: 'Pat Two', role: 'pm' },
      ],
      PASSWORD,
    );
    for (let i = 0; i < 2; i++) servers.push(tempCore({}, { database: url }));
    a = servers[0].core;
    b = servers[1].core;
    await a.context.memory.ready;
    await b.context.memory.ready;
    hostB = await startHeadlessHost({ core: b, token: 'desk-tokens-test-server-token-0123456789' });
    for (const u of ['pm01', 'pm02']) sessions[u] = ok(await a.invoke('desk/sign-in', { userId: u, password: PASSWORD })).session;
  }, 120_000);
  afterAll(async () => {
    await hostB?.close();
    for (const s of servers) await s.dispose();
    await workspaces?.stop();
  });

  /** A script's call to server B: the server's bearer token and the person's token in x-forge-session. */
  const onB = async <T = { user: { userId: string; role: string } }>(name: string, body: unknown, personToken: string) => {
    const res = await fetch(`${hostB.url}/api/${name}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${hostB.token}`, 'content-type': 'application/json', 'x-forge-session': personToken },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { ok: boolean; value: T; error?: { code: string; message: string } } };
  };

  it('issues pm01 a token on server A that acts as pm01 on server B, shown once', async () => {
    const issued = ok(await a.invoke('desk/issue-token', { session: sessions.pm01, label: 'laptop IDE', expiresInDays: 30 }));
    expect(issued.label).toBe('laptop IDE');
    expect(issued.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    token = issued.token;
    tokenId = issued.tokenId;

    const me = await onB('desk/me', { session: token }, token);
    expect(me.status).toBe(200);
    expect(me.body.value.user).toMatchObject({ userId: 'pm01', role: 'pm' });

    const wrote = await onB<{ path: string }>('memory/write', { path: '/memory/views/new.md', content: view('Written from a script') }, token);
    expect(wrote.status).toBe(200);
    const audit = await onB<{ entries: { actor: string; operation: string }[] }>('memory/audit', { path: wrote.body.value.path, limit: 5 }, token);
    expect(audit.body.value.entries.map((e) => [e.actor, e.operation])).toEqual([['pm01', 'create']]);
  });

  it('lists the token to pm01 with its label, dates and last use, never its secret', async () => {
    const listed = ok(await a.invoke('desk/tokens', { session: sessions.pm01 }));
    const mine = listed.tokens.find((t) => t.tokenId === tokenId);
    expect(mine).toMatchObject({ kind: 'api', label: 'laptop IDE', revokedAt: null });
    expect(mine?.lastUsedAt).not.toBeNull(); // the calls on server B above used it
    expect(Date.parse(mine?.expiresAt ?? '') - Date.now()).toBeGreaterThan(29 * 86_400_000);
    // The sign-in session is listed too, as a session.
    expect(listed.tokens.some((t) => t.kind === 'session')).toBe(true);
    expect(JSON.stringify(listed)).not.toContain(token);
  });

  it("keeps pm01's token out of pm02's list and out of pm02's reach", async () => {
    const theirs = ok(await a.invoke('desk/tokens', { session: sessions.pm02 }));
    expect(theirs.tokens.map((t) => t.tokenId)).not.toContain(tokenId);
    const revoke = await a.invoke('desk/revoke-token', { session: sessions.pm02, tokenId });
    expect(code(revoke)).toBe('not_found');
    // Still pm01's and still working.
    expect((await onB('desk/me', { session: token }, token)).body.value.user.userId).toBe('pm01');
  });

  it('refuses a blank or long label and a lifetime outside 1-366 whole days, issuing nothing', async () => {
    const before = ok(await a.invoke('desk/tokens', { session: sessions.pm01 })).tokens.length;
    for (const bad of [
      { label: '' },
      { label: '   ' },
      { label: 'x'.repeat(121) },
      { label: 'tab\there' },
      { label: 'ok', expiresInDays: 0 },
      { label: 'ok', expiresInDays: 367 },
      { label: 'ok', expiresInDays: 1.5 },
    ]) {
      expect(code(await a.invoke('desk/issue-token', { session: sessions.pm01, ...bad })), JSON.stringify(bad)).toBe('invalid_input');
    }
    expect(ok(await a.invoke('desk/tokens', { session: sessions.pm01 })).tokens.length).toBe(before);
    expect(code(await a.invoke('desk/revoke-token', { session: sessions.pm01, tokenId: 0 }))).toBe('invalid_input');
    // Without a session of theirs nobody gets a token.
    expect(code(await a.invoke('desk/issue-token', { session: 'not-a-session-at-all-0123456789abc', label: 'x' }))).toBe('unauthorized');
  });

  it('refuses the token on both servers at its next call once pm01 revokes it', async () => {
    expect(ok(await a.invoke('desk/revoke-token', { session: sessions.pm01, tokenId }))).toEqual({ tokenId, revoked: true });
    const meOnB = await onB('desk/me', { session: token }, token);
    expect(meOnB.status).toBe(401);
    const writeOnB = await onB('memory/write', { path: '/memory/views/new.md', content: view('After revoking') }, token);
    expect(writeOnB.status).toBe(401);
    expect(writeOnB.body.error?.message).toMatch(/Sign in to the desk/);
    expect(code(await a.invoke('memory/list', { path: '/memory/views/' }, { session: token }))).toBe('unauthorized');
    const listed = ok(await a.invoke('desk/tokens', { session: sessions.pm01 })).tokens.find((t) => t.tokenId === tokenId);
    expect(listed?.revokedAt).not.toBeNull();
    // Revoking twice is harmless; pm01's own session is untouched.
    ok(await a.invoke('desk/revoke-token', { session: sessions.pm01, tokenId }));
    expect(ok(await a.invoke('desk/me', { session: sessions.pm01 })).user.userId).toBe('pm01');
  });
});
