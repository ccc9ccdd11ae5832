import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../common/errors';
import type { PostgresConnection } from '../../store/postgres/connection';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { startTestDesk, type TestDesk } from '../testing';
import { SIGN_IN_REFUSED } from './errors';
import { DeskPeople, MAX_FAILED_SIGN_INS } from './people';
import { connectAsApp } from './testing';

const PASSWORD = 'a long enough passphrase';
const NEW_PASSWORD = 'another long passphrase';

function refusal(fn: () => unknown): { code: string; message: string } | undefined {
  try {
    fn();
    return undefined;
  } catch (e) {
    return { code: isAppError(e) ? e.code : 'untyped', message: (e as Error).message };
  }
}

describe.skipIf(skipWithoutPostgres())('desk accounts: lockout, password changes, stronger hashes, the last admin', { timeout: 120_000 }, () => {
  let desk: TestDesk;
  let app: PostgresConnection;
  let people: DeskPeople;

  beforeAll(async () => {
    desk = await startTestDesk();
    app = connectAsApp(desk);
    people = new DeskPeople(app);
    people.createFirstAdmin({ userId: 'ada', displayName: 'Ada Admin', role: 'risk', password: PASSWORD });
    for (const userId of ['paula', 'peter', 'olga']) people.createUser('ada', { userId, displayName: userId, role: 'pm', password: PASSWORD });
  }, 120_000);
  afterAll(async () => {
    app?.close();
    await desk?.stop();
  });

  const storedHash = (userId: string) => desk.connection.one<{ h: string }>('SELECT password_hash AS h FROM desk_credentials WHERE user_id = $1', [userId])?.h;

  it(`locks sign-in after ${MAX_FAILED_SIGN_INS} wrong passwords, with the same answer as a wrong password`, () => {
    // If this failed, a password could be guessed as fast as the server answers.
    for (let i = 0; i < MAX_FAILED_SIGN_INS; i++) expect(refusal(() => people.signIn('paula', `guess number ${i} wrong`))?.code).toBe('unauthorized');
    const locked = refusal(() => people.signIn('paula', PASSWORD));
    expect(locked).toEqual({ code: 'unauthorized', message: SIGN_IN_REFUSED });
    expect(refusal(() => people.signIn('nobody.here', PASSWORD))).toEqual(locked);
    // The lock runs out by itself…
    desk.connection.run("UPDATE desk_credentials SET locked_until = now() - interval '1 second' WHERE user_id = 'paula'");
    expect(people.signIn('paula', PASSWORD).user.userId).toBe('paula');
    // …and a right password resets the count: nine more wrong ones do not lock.
    for (let i = 0; i < MAX_FAILED_SIGN_INS - 1; i++) refusal(() => people.signIn('paula', `guess number ${i} wrong`));
    expect(people.signIn('paula', PASSWORD).user.userId).toBe('paula');
  });

  it('a person changes their own password only by giving the current one; their sessions end, API tokens stay', () => {
    // If this failed, a session left open on a shared screen would be enough to take over the account.
    const session = people.signIn('peter', PASSWORD);
    const api = people.issueApiToken('peter', 'notebook');
    const before = storedHash('peter');
    expect(refusal(() => people.changePassword('peter', 'peter', NEW_PASSWORD, 'not my password'))?.code).toBe('unauthorized');
    expect(refusal(() => people.changePassword('peter', 'peter', NEW_PASSWORD))?.code).toBe('unauthorized');
    expect(refusal(() => people.changePassword('peter', 'peter', 'short', PASSWORD))?.code).toBe('invalid_input');
    expect(storedHash('peter')).toBe(before);
    expect(people.authenticate(session.token).userId).toBe('peter');

    people.changePassword('peter', 'peter', NEW_PASSWORD, PASSWORD);
    expect(refusal(() => people.authenticate(session.token))?.code).toBe('unauthorized');
    expect(people.authenticate(api.token).userId).toBe('peter');
    expect(refusal(() => people.signIn('peter', PASSWORD))?.code).toBe('unauthorized');
    expect(people.signIn('peter', NEW_PASSWORD).user.userId).toBe('peter');
    const audit = desk.connection.query("SELECT actor, operation FROM audit_log WHERE path = '/desk/users/peter' ORDER BY seq");
    expect(audit.at(-1)).toEqual({ actor: 'peter', operation: 'desk.user.set_password' });
  });

  it("only an admin sets someone else's password (and so lifts a lock)", () => {
    // If this failed, one PM could reset another's password and sign in as them.
    expect(refusal(() => people.changePassword('peter', 'olga', NEW_PASSWORD))?.code).toBe('forbidden');
    expect(people.signIn('olga', PASSWORD).user.userId).toBe('olga');
    for (let i = 0; i < MAX_FAILED_SIGN_INS; i++) refusal(() => people.signIn('olga', `guess number ${i} wrong`));
    expect(refusal(() => people.signIn('olga', PASSWORD))?.code).toBe('unauthorized');
    people.changePassword('ada', 'olga', NEW_PASSWORD);
    expect(people.signIn('olga', NEW_PASSWORD).user.userId).toBe('olga');
    const audit = desk.connection.query("SELECT actor, operation FROM audit_log WHERE path = '/desk/users/olga' ORDER BY seq");
    expect(audit.at(-1)).toEqual({ actor: 'ada', operation: 'desk.user.set_password' });
  });

  it('a password stored with weaker parameters still signs in, and is stored stronger from then on', () => {
    // If this failed, raising the hash parameters would lock out the desk, or old weak hashes would stay forever.
    const older = new DeskPeople(app, { scrypt: { N: 2 ** 14, r: 8, p: 1 } });
    older.createUser('ada', { userId: 'walt', displayName: 'Walt', role: 'analyst', password: PASSWORD });
    expect(storedHash('walt')).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(people.signIn('walt', PASSWORD).user.userId).toBe('walt');
    expect(storedHash('walt')).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(people.signIn('walt', PASSWORD).user.userId).toBe('walt');
  });

  it('two admins disabling each other at the same moment cannot leave the desk without an admin', () => {
    // If this failed, a race between two servers could lock a desk out of managing its users for good.
    desk.connection.run("UPDATE desk_users SET admin = true WHERE user_id = 'olga'");
    const active = () => desk.connection.one<{ n: number }>('SELECT count(*)::int AS n FROM desk_users WHERE admin AND disabled_at IS NULL')?.n;
    expect(active()).toBe(2);
    // Olga's server is mid-way through disabling ada: it counted two admins and wrote, not yet committed.
    const other = desk.connect();
    other.run('BEGIN ISOLATION LEVEL SERIALIZABLE');
    expect(other.one<{ n: number }>('SELECT count(*)::int AS n FROM desk_users WHERE admin AND disabled_at IS NULL')?.n).toBe(2);
    other.run("UPDATE desk_users SET disabled_at = now() WHERE user_id = 'ada'");
    // Meanwhile ada's server disables olga (it cannot see olga's uncommitted change).
    people.disableUser('ada', 'olga');
    expect(refusal(() => other.run('COMMIT'))?.code).toBe('conflict'); // 40001: could not serialize
    other.close();
    expect(active()).toBe(1);
    expect(people.getUser('ada')?.disabledAt).toBeNull();
  });
});
