import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../common/errors';
import type { PostgresConnection } from '../../store/postgres/connection';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { startTestDesk, type TestDesk } from '../testing';
import { SIGN_IN_REFUSED, TOKEN_REFUSED } from './errors';
import { DeskPeople } from './people';
import { connectAsApp } from './testing';

const PASSWORD = 'a long enough passphrase';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (e) {
    return isAppError(e) ? e.code : `untyped: ${String(e)}`;
  }
}

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a refusal');
}

// The service runs as an ordinary role, as a desk's servers should: row-level security applies.
describe.skipIf(skipWithoutPostgres())('DeskPeople: users, sign-in and tokens on a real PostgreSQL', { timeout: 120_000 }, () => {
  let desk: TestDesk;
  let app: PostgresConnection;
  let people: DeskPeople;

  beforeAll(async () => {
    desk = await startTestDesk();
    app = connectAsApp(desk);
    people = new DeskPeople(app);
    people.createFirstAdmin({ userId: 'ada', displayName: 'Ada Admin', role: 'risk', password: PASSWORD });
    for (const [userId, role] of [
      ['paula', 'pm'],
      ['peter', 'pm'],
      ['anna', 'analyst'],
      ['vic', 'viewer'],
    ] as const) {
      people.createUser('ada', { userId, displayName: userId, role, password: PASSWORD });
    }
  }, 120_000);
  afterAll(async () => {
    app?.close();
    await desk?.stop();
  });

  const audit = (path: string) =>
    app.query<{ actor: string; operation: string; path: string }>('SELECT actor, operation, path FROM audit_log WHERE path LIKE $1 ORDER BY seq', [`${path}%`]);

  it('the first admin is made only on an empty desk', () => {
    // If this failed, anyone reaching a running desk could make themselves its admin.
    expect(people.getUser('ada')).toMatchObject({ role: 'risk', admin: true, createdBy: null, disabledAt: null });
    expect(codeOf(() => people.createFirstAdmin({ userId: 'mallory', displayName: 'M', role: 'pm', password: PASSWORD }))).toBe('conflict');
    expect(people.getUser('mallory')).toBeUndefined();
  });

  it('only an admin creates, re-roles or disables users: each other role is refused and changes nothing', () => {
    // If this failed, an analyst could create an account or make themselves a PM.
    const before = app.one<{ users: number; audits: number }>(
      'SELECT (SELECT count(*)::int FROM desk_users) AS users, (SELECT count(*)::int FROM audit_log) AS audits',
    );
    for (const actor of ['paula', 'anna', 'vic']) {
      expect(codeOf(() => people.createUser(actor, { userId: 'newbie', displayName: 'New', role: 'viewer', password: PASSWORD }))).toBe('forbidden');
      expect(codeOf(() => people.setRole(actor, 'anna', 'pm'))).toBe('forbidden');
      expect(codeOf(() => people.disableUser(actor, 'peter'))).toBe('forbidden');
    }
    expect(messageOf(() => people.setRole('anna', 'anna', 'pm'))).toMatch(
      /anna \(anna\) is not a desk admin and may not administer users: that is for a desk admin\. Ask a desk admin\.$/,
    );
    const after = app.one('SELECT (SELECT count(*)::int FROM desk_users) AS users, (SELECT count(*)::int FROM audit_log) AS audits');
    expect(after).toEqual(before);
    expect(people.getUser('anna')?.role).toBe('analyst');
    expect(people.getUser('peter')?.disabledAt).toBeNull();
  });

  it('an admin creates a user; bad input and a taken id are typed errors', () => {
    // If this failed, a typo'd role or a weak password would land in the desk, or an id would be reused.
    expect(people.createUser('ada', { userId: 'rob', displayName: 'Rob Risk', role: 'risk', password: PASSWORD })).toMatchObject({
      userId: 'rob',
      createdBy: 'ada',
      admin: false,
    });
    expect(codeOf(() => people.createUser('ada', { userId: 'rob', displayName: 'Again', role: 'pm', password: PASSWORD }))).toBe('conflict');
    expect(codeOf(() => people.createUser('ada', { userId: 'Bad Id', displayName: 'x', role: 'pm', password: PASSWORD }))).toBe('invalid_input');
    expect(codeOf(() => people.createUser('ada', { userId: 'shorty', displayName: 'x', role: 'pm', password: 'short' }))).toBe('invalid_input');
    expect(codeOf(() => people.createUser('ada', { userId: 'boss', displayName: 'x', role: 'ceo' as 'pm', password: PASSWORD }))).toBe('invalid_input');
    expect(people.getUser('shorty')).toBeUndefined();
    expect(audit('/desk/users/rob')).toEqual([{ actor: 'ada', operation: 'desk.user.create', path: '/desk/users/rob' }]);
  });

  it('authenticates a session in one statement under row-level security, and the presented token does not outlive it', () => {
    // If this failed, every call on a desk would pay four round trips to the database before its
    // work began, or a token presented once would stay readable for the rest of a transaction.
    const session = people.signIn('peter', PASSWORD);
    const inside = app.transaction(() => {
      const user = people.authenticate(session.token);
      return { user, presented: app.one<{ v: string | null }>("SELECT current_setting('forge.token_hash', true) AS v")?.v ?? '' };
    });
    expect(inside.user).toMatchObject({ userId: 'peter', role: 'pm' });
    expect(inside.presented).toBe('');
    // The function reads under the same policy: bound to nobody, presenting another hash finds nothing.
    expect(app.query('SELECT * FROM desk_session_person($1)', [Buffer.alloc(32, 7)])).toEqual([]);
    // A desk made before the function authenticates the longer way, with the same answers.
    const older = new DeskPeople(app);
    (older as unknown as { sessionFunction: boolean }).sessionFunction = false;
    expect(older.authenticate(session.token)).toMatchObject({ userId: 'peter' });
    people.signOut(session.token);
    expect(codeOf(() => people.authenticate(session.token))).toBe('unauthorized');
    expect(codeOf(() => older.authenticate(session.token))).toBe('unauthorized');
  });

  it('signs in with the right password; a wrong password and an unknown user get the same error', () => {
    // If this failed, PMs could not sign in, or an attacker could tell which user ids exist.
    const session = people.signIn('paula', PASSWORD);
    expect(session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.user.userId).toBe('paula');
    expect(people.authenticate(session.token)).toMatchObject({ userId: 'paula', role: 'pm' });
    // (Read as the superuser: the app role, bound to nobody, sees no tokens at all.)
    const hours = desk.connection.one<{ h: number }>(
      'SELECT extract(epoch FROM expires_at - created_at)::int / 3600 AS h FROM desk_tokens WHERE token_id = $1',
      [session.tokenId],
    )?.h;
    expect(hours).toBe(12);
    const wrongPassword = messageOf(() => people.signIn('paula', 'not the passphrase'));
    const unknownUser = messageOf(() => people.signIn('nobody', PASSWORD));
    expect(wrongPassword).toBe(SIGN_IN_REFUSED);
    expect(unknownUser).toBe(wrongPassword);
    expect(codeOf(() => people.signIn('nobody', PASSWORD))).toBe('unauthorized');
    expect(codeOf(() => people.authenticate('x'.repeat(43)))).toBe('unauthorized');
    expect(audit('/desk/users/paula/tokens/')).toContainEqual({
      actor: 'paula',
      operation: 'desk.sign_in',
      path: `/desk/users/paula/tokens/${session.tokenId}`,
    });
  });

  it('keeps only the SHA-256 of a token: the raw token is nowhere in the database', () => {
    // If this failed, anyone who read a backup could sign in as any PM.
    const { token } = people.signIn('anna', PASSWORD);
    const api = people.issueApiToken('anna', 'laptop IDE');
    for (const raw of [token, api.token]) {
      const found = desk.connection.one<{ n: number }>(
        `SELECT count(*)::int AS n FROM desk_tokens t, desk_credentials c
          WHERE position($1 in t::text) > 0 OR position($1 in c::text) > 0 OR encode(t.token_hash, 'escape') LIKE '%' || $1 || '%'`,
        [raw],
      );
      expect(found?.n).toBe(0);
      expect(desk.connection.one<{ n: number }>('SELECT count(*)::int AS n FROM audit_log WHERE position($1 in audit_log::text) > 0', [raw])?.n).toBe(0);
    }
    const hashed = desk.connection.one<{ n: number }>("SELECT count(*)::int AS n FROM desk_tokens WHERE token_hash = sha256(convert_to($1, 'UTF8'))", [token]);
    expect(hashed?.n).toBe(1);
  });

  it('a token revoked mid-session is refused at the next request; signing out ends a session', () => {
    // If this failed, revoking a leaked token would not stop whoever holds it.
    const { token, tokenId } = people.signIn('peter', PASSWORD);
    expect(people.authenticate(token).userId).toBe('peter');
    people.revokeToken('peter', tokenId);
    expect(messageOf(() => people.authenticate(token))).toBe(TOKEN_REFUSED);
    const second = people.signIn('peter', PASSWORD);
    people.signOut(second.token);
    people.signOut(second.token); // twice is harmless
    expect(codeOf(() => people.authenticate(second.token))).toBe('unauthorized');
    expect(audit(`/desk/users/peter/tokens/${tokenId}`).map((r) => [r.actor, r.operation])).toEqual([
      ['peter', 'desk.sign_in'],
      ['peter', 'desk.token.revoke'],
    ]);
  });

  it("only an admin revokes another person's token; to anyone else it does not exist", () => {
    // If this failed, one PM could sign another out, or learn which token ids exist.
    const { token, tokenId } = people.signIn('paula', PASSWORD);
    expect(codeOf(() => people.revokeToken('peter', tokenId))).toBe('not_found');
    expect(people.authenticate(token).userId).toBe('paula');
    people.revokeToken('ada', tokenId);
    expect(codeOf(() => people.authenticate(token))).toBe('unauthorized');
    expect(audit(`/desk/users/paula/tokens/${tokenId}`).at(-1)).toEqual({
      actor: 'ada',
      operation: 'desk.token.revoke',
      path: `/desk/users/paula/tokens/${tokenId}`,
    });
  });

  it('an expired token is refused', () => {
    // If this failed, a session would outlive its 12 hours (or an API token its expiry).
    const { token, tokenId } = people.signIn('vic', PASSWORD);
    desk.connection.run("UPDATE desk_tokens SET created_at = now() - interval '13 hours', expires_at = now() - interval '1 hour' WHERE token_id = $1", [
      tokenId,
    ]);
    expect(codeOf(() => people.authenticate(token))).toBe('unauthorized');
  });

  it('marks a token used at most once a minute', () => {
    // If this failed, every request would write a row (or "last used" would never move).
    const { token, tokenId } = people.signIn('vic', PASSWORD);
    const lastUsed = () => desk.connection.one<{ at: string | null }>('SELECT last_used_at AS at FROM desk_tokens WHERE token_id = $1', [tokenId])?.at;
    expect(lastUsed()).toBeNull();
    people.authenticate(token);
    const first = lastUsed();
    expect(first).not.toBeNull();
    people.authenticate(token);
    expect(lastUsed()).toBe(first);
    desk.connection.run("UPDATE desk_tokens SET last_used_at = last_used_at - interval '2 minutes' WHERE token_id = $1", [tokenId]);
    const pushedBack = lastUsed();
    people.authenticate(token);
    expect(lastUsed()).not.toBe(pushedBack);
  });

  it('every PM has a book for risk to set limits on, also one made a PM later', () => {
    // If this failed, risk could not set limits for a new PM, and none of their Expressions could be approved.
    const books = () => desk.connection.query<{ book_id: string }>("SELECT book_id FROM desk_books WHERE kind = 'pm' ORDER BY book_id").map((r) => r.book_id);
    expect(books()).toEqual(['paula', 'peter']);
    people.setRole('ada', 'vic', 'pm');
    people.setRole('ada', 'vic', 'viewer');
    people.setRole('ada', 'vic', 'pm');
    expect(books()).toEqual(['paula', 'peter', 'vic']);
    expect(desk.connection.one("SELECT kind, owner_id FROM desk_books WHERE book_id = 'vic'")).toEqual({ kind: 'pm', owner_id: 'vic' });
    people.setRole('ada', 'vic', 'viewer');
  });

  it('a new role applies to open sessions at once', () => {
    // If this failed, a demoted PM could keep approving until their session ran out.
    const { token } = people.signIn('anna', PASSWORD);
    people.setRole('ada', 'anna', 'viewer');
    expect(people.authenticate(token).role).toBe('viewer');
    expect(audit('/desk/users/anna').at(-1)).toEqual({ actor: 'ada', operation: 'desk.user.set_role:viewer', path: '/desk/users/anna' });
    people.setRole('ada', 'anna', 'analyst');
  });

  it('disabling a user revokes all their tokens at once, and they cannot sign in again', () => {
    // If this failed, someone who left the desk would keep their sessions and API tokens.
    const session = people.signIn('rob', PASSWORD);
    const api = people.issueApiToken('rob', 'risk script', { expiresInDays: 30 });
    people.disableUser('ada', 'rob');
    expect(codeOf(() => people.authenticate(session.token))).toBe('unauthorized');
    expect(codeOf(() => people.authenticate(api.token))).toBe('unauthorized');
    expect(desk.connection.one<{ n: number }>("SELECT count(*)::int AS n FROM desk_tokens WHERE user_id = 'rob' AND revoked_at IS NULL")?.n).toBe(0);
    expect(messageOf(() => people.signIn('rob', PASSWORD))).toMatch(/disabled/);
    expect(codeOf(() => people.signIn('rob', PASSWORD))).toBe('unauthorized');
    expect(codeOf(() => people.issueApiToken('rob', 'again'))).toBe('forbidden');
    expect(audit('/desk/users/rob').at(-1)).toEqual({ actor: 'ada', operation: 'desk.user.disable', path: '/desk/users/rob' });
  });

  it("refuses to disable the desk's last active admin", () => {
    // If this failed, a desk could lock itself out of managing its users.
    expect(codeOf(() => people.disableUser('ada', 'ada'))).toBe('conflict');
    expect(people.getUser('ada')?.disabledAt).toBeNull();
  });

  it('lists only my own tokens, never the tokens themselves', () => {
    // If this failed, a PM's token list would show others' tokens or a usable secret.
    const api = people.issueApiToken('paula', 'notebook');
    const mine = people.listTokens('paula');
    expect(mine.every((t) => !JSON.stringify(t).includes(api.token))).toBe(true);
    expect(mine[0]).toMatchObject({ tokenId: api.tokenId, kind: 'api', label: 'notebook', revokedAt: null });
    expect(people.listTokens('peter').some((t) => t.tokenId === api.tokenId)).toBe(false);
  });
});
