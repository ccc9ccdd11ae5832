import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../common/errors';
import type { PostgresConnection } from '../../store/postgres/connection';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { startTestDesk, type TestDesk } from '../testing';
import { DeskPeople } from './people';
import { connectAsApp } from './testing';

const PASSWORD = 'a long enough passphrase';

/** Each person who tries every operation: the four roles, an admin, and a disabled admin. */
const ACTORS = ['pm1', 'risk1', 'analyst1', 'viewer1', 'admin1', 'gone1'] as const;
type Actor = (typeof ACTORS)[number];

/**
 * Every DeskPeople operation that changes something, and who may do it: the admin for everything
 * about other people; any active person for their own API tokens and password; the disabled
 * admin for nothing. `target` is a fresh victim per attempt so attempts do not interfere.
 */
const OPERATIONS: { name: string; allowed: readonly Actor[]; run(people: DeskPeople, actor: Actor, target: string, n: number): unknown }[] = [
  {
    name: 'create a user',
    allowed: ['admin1'],
    run: (p, a, _t, n) => p.createUser(a, { userId: `made.${n}`, displayName: 'New', role: 'viewer', password: PASSWORD }),
  },
  { name: "change someone's role", allowed: ['admin1'], run: (p, a, t) => p.setRole(a, t, 'risk') },
  { name: 'disable someone', allowed: ['admin1'], run: (p, a, t) => p.disableUser(a, t) },
  { name: "set someone's password", allowed: ['admin1'], run: (p, a, t) => p.changePassword(a, t, 'a new long passphrase') },
  {
    name: "revoke someone's token",
    allowed: ['admin1'],
    run: (p, a, t) => p.revokeToken(a, p.listTokens(t)[0]?.tokenId ?? -1),
  },
  { name: 'issue my own API token', allowed: ['pm1', 'risk1', 'analyst1', 'viewer1', 'admin1'], run: (p, a) => p.issueApiToken(a, 'script') },
  {
    name: 'change my own password',
    allowed: ['pm1', 'risk1', 'analyst1', 'viewer1', 'admin1'],
    run: (p, a) => {
      p.changePassword(a, a, 'an interim passphrase', PASSWORD);
      p.changePassword(a, a, PASSWORD, 'an interim passphrase');
    },
  },
];

describe.skipIf(skipWithoutPostgres())('DeskPeople: every operation tried as every role', { timeout: 120_000 }, () => {
  let desk: TestDesk;
  let app: PostgresConnection;
  let people: DeskPeople;
  let victims = 0;

  beforeAll(async () => {
    desk = await startTestDesk();
    app = connectAsApp(desk);
    people = new DeskPeople(app);
    people.createFirstAdmin({ userId: 'root', displayName: 'Root Admin', role: 'viewer', password: PASSWORD });
    for (const [userId, role, admin] of [
      ['pm1', 'pm', false],
      ['risk1', 'risk', false],
      ['analyst1', 'analyst', false],
      ['viewer1', 'viewer', false],
      ['admin1', 'pm', true],
      ['gone1', 'risk', true],
    ] as const) {
      people.createUser('root', { userId, displayName: userId, role, admin, password: PASSWORD });
    }
    people.disableUser('root', 'gone1');
  }, 120_000);
  afterAll(async () => {
    app?.close();
    await desk?.stop();
  });

  /** Everything an operation could change, read as the superuser (no row-level security). */
  const snapshot = () =>
    desk.connection.one(
      `SELECT (SELECT string_agg(user_id || role || admin::text || coalesce(disabled_at::text, ''), ',' ORDER BY user_id) FROM desk_users) AS users,
              (SELECT string_agg(password_hash, ',' ORDER BY user_id) FROM desk_credentials) AS credentials,
              (SELECT string_agg(token_id || coalesce(revoked_at::text, ''), ',' ORDER BY token_id) FROM desk_tokens) AS tokens,
              (SELECT count(*) FROM audit_log) AS audits`,
    );

  for (const operation of OPERATIONS) {
    for (const actor of ACTORS) {
      const allowed = operation.allowed.includes(actor);
      it(`${actor} → ${operation.name}: ${allowed ? 'done, and audited in their name' : 'refused, nothing changed'}`, () => {
        // If this failed, someone could change what their role forbids (or be stopped doing what it allows).
        victims++;
        const target = `victim.${victims}`;
        people.createUser('root', { userId: target, displayName: 'Victim', role: 'pm', password: PASSWORD });
        people.signIn(target, PASSWORD);
        const before = snapshot();
        const auditsBefore = Number(before?.audits);
        let code: string | undefined;
        try {
          operation.run(people, actor, target, victims);
        } catch (e) {
          code = isAppError(e) ? e.code : `untyped: ${String(e)}`;
        }
        if (allowed) {
          expect(code).toBeUndefined();
          const actors = desk.connection.query<{ actor: string }>('SELECT DISTINCT actor FROM audit_log WHERE seq > (SELECT max(seq) - $1 FROM audit_log)', [
            Number(snapshot()?.audits) - auditsBefore,
          ]);
          expect(actors).toEqual([{ actor }]);
        } else {
          // Another person's token is "not found" to someone who may not revoke it: its existence is not revealed.
          expect(code).toBe(operation.name === "revoke someone's token" ? 'not_found' : 'forbidden');
          expect(snapshot()).toEqual(before);
        }
      });
    }
  }
});
