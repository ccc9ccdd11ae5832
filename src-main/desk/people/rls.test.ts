import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../common/errors';
import type { PostgresConnection } from '../../store/postgres/connection';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { startTestDesk, type TestDesk } from '../testing';
import { actingAs } from './acting-as';
import { DeskPeople } from './people';
import { connectAsApp, TEST_APP_ROLE } from './testing';

const PASSWORD = 'a long enough passphrase';

/**
 * Row-level security as a desk's server meets it: connected as an ordinary role (superusers bypass
 * RLS), each transaction bound to one person with actingAs.
 */
describe.skipIf(skipWithoutPostgres())('row-level security on sign-in tables', { timeout: 120_000 }, () => {
  let desk: TestDesk;
  let app: PostgresConnection;

  beforeAll(async () => {
    desk = await startTestDesk();
    app = connectAsApp(desk);
    const people = new DeskPeople(app);
    people.createFirstAdmin({ userId: 'ada', displayName: 'Ada Admin', role: 'risk', password: PASSWORD });
    people.createUser('ada', { userId: 'alice', displayName: 'Alice', role: 'pm', password: PASSWORD });
    people.createUser('ada', { userId: 'bob', displayName: 'Bob', role: 'pm', password: PASSWORD });
    people.signIn('alice', PASSWORD);
    people.issueApiToken('alice', 'alice laptop');
    people.signIn('bob', PASSWORD);
    people.issueApiToken('bob', 'bob laptop');
  }, 120_000);
  afterAll(async () => {
    app?.close();
    await desk?.stop();
  });

  const owners = (table: 'desk_tokens' | 'desk_credentials') =>
    app.query<{ user_id: string }>(`SELECT user_id FROM ${table} ORDER BY user_id`).map((r) => r.user_id);

  it('the app connects as an ordinary role, so the policies apply', () => {
    // If this failed, every check below would pass vacuously: a superuser sees every row.
    expect(app.one<{ who: string; su: boolean }>("SELECT current_user AS who, current_setting('is_superuser')::boolean AS su")).toEqual({
      who: TEST_APP_ROLE,
      su: false,
    });
    const forced = desk.connection.query<{ relname: string; on: boolean; forced: boolean }>(
      "SELECT relname, relrowsecurity AS on, relforcerowsecurity AS forced FROM pg_class WHERE relname IN ('desk_tokens', 'desk_credentials') ORDER BY relname",
    );
    expect(forced).toEqual([
      { relname: 'desk_credentials', on: true, forced: true },
      { relname: 'desk_tokens', on: true, forced: true },
    ]);
  });

  it("bound to alice, bob's tokens and password hash are invisible", () => {
    // If this failed, a query that forgot its user filter would show one PM another's tokens.
    const seen = actingAs(app, 'alice', () => ({ tokens: owners('desk_tokens'), credentials: owners('desk_credentials') }));
    expect(seen.tokens).toEqual(['alice', 'alice']);
    expect(seen.credentials).toEqual(['alice']);
    // Bound to nobody: nothing at all.
    expect(owners('desk_tokens')).toEqual([]);
    expect(owners('desk_credentials')).toEqual([]);
    // The superuser (who bypasses RLS) confirms bob's rows do exist.
    expect(desk.connection.one<{ n: number }>("SELECT count(*)::int AS n FROM desk_tokens WHERE user_id = 'bob'")?.n).toBe(2);
  });

  it("bound to alice, bob's tokens cannot be revoked or forged either", () => {
    // If this failed, a bug in one handler could sign another PM out, or mint a token in their name.
    actingAs(app, 'alice', () => {
      expect(app.run("UPDATE desk_tokens SET revoked_at = now() WHERE user_id = 'bob'").rowCount).toBe(0);
    });
    let code: string | undefined;
    try {
      actingAs(app, 'alice', () =>
        app.run("INSERT INTO desk_tokens (token_hash, user_id, kind, expires_at) VALUES (sha256('x'), 'bob', 'session', now() + interval '1 hour')"),
      );
    } catch (e) {
      code = isAppError(e) ? e.code : String(e);
    }
    expect(code).toBe('forbidden'); // 42501: new row violates row-level security policy
    expect(desk.connection.one<{ n: number }>("SELECT count(*)::int AS n FROM desk_tokens WHERE user_id = 'bob' AND revoked_at IS NULL")?.n).toBe(2);
  });

  it('an active admin sees everyone; a disabled admin no longer does', () => {
    // If this failed, a desk admin could not revoke a leaked token, or a removed admin still could.
    expect(actingAs(app, 'ada', () => new Set(owners('desk_tokens')))).toEqual(new Set(['alice', 'bob']));
    desk.connection.run("UPDATE desk_users SET admin = true WHERE user_id = 'bob'");
    desk.connection.run("UPDATE desk_users SET disabled_at = now() WHERE user_id = 'ada'");
    expect(actingAs(app, 'ada', () => owners('desk_tokens'))).toEqual([]);
    desk.connection.run("UPDATE desk_users SET disabled_at = NULL WHERE user_id = 'ada'");
    desk.connection.run("UPDATE desk_users SET admin = false WHERE user_id = 'bob'");
  });

  it('actingAs nested inside another binding restores the outer person afterwards', () => {
    // If this failed, work done after a nested call would run as the wrong person.
    const seen = actingAs(app, 'alice', () => {
      const inner = actingAs(app, 'bob', () => owners('desk_credentials'));
      return { inner, after: owners('desk_credentials') };
    });
    expect(seen).toEqual({ inner: ['bob'], after: ['alice'] });
    // The binding ends with the transaction: the next statement is bound to nobody.
    expect(app.one<{ v: string | null }>("SELECT current_setting('forge.user_id', true) AS v")?.v ?? '').toBe('');
  });
});
