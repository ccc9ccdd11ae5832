import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../common/errors';
import { PostgresConnection } from './connection';
import { PostgresDb, WORKSPACE_WRITE_LOCK } from './postgres-db';
import { skipWithoutPostgres, startTestPostgres, type TestPostgres } from './test-server';

/**
 * The store's binding of each statement to the person of its call (what row-level security on a
 * desk reads): set when it changes, kept for the length of a transaction, set again on a session
 * opened after a lost connection.
 */
describe.skipIf(skipWithoutPostgres())('PostgresDb binds each statement to the acting person', { timeout: 120_000 }, () => {
  let server: TestPostgres;
  let db: PostgresDb;
  let who: string | undefined;

  const bound = () =>
    db.prepare("SELECT current_setting('forge.user_id', true) AS person, current_setting('forge.server_work', true) AS server").get() as {
      person: string;
      server: string;
    };

  beforeAll(async () => {
    server = await startTestPostgres();
    db = new PostgresDb(PostgresConnection.open(server.url, { applicationName: 'forge binding test' }));
    db.exec('CREATE TABLE notes (id text PRIMARY KEY)');
    db.bindActingPerson(() => who);
  }, 120_000);
  afterAll(async () => {
    db?.close();
    await server?.stop();
  });

  it("binds the call's person, or the server's own work when there is none", () => {
    // If this failed, a PM's query would run as whoever the connection served last.
    who = 'alice';
    expect(bound()).toEqual({ person: 'alice', server: '' });
    who = 'bob';
    expect(bound()).toEqual({ person: 'bob', server: '' });
    who = undefined;
    expect(bound()).toEqual({ person: '', server: 'on' });
    who = 'alice';
    expect(db.asServerWork(bound)).toEqual({ person: '', server: 'on' });
    expect(bound()).toEqual({ person: 'alice', server: '' });
  });

  it('refuses a change of person inside a transaction, and keeps none of its writes', () => {
    // If this failed, half a transaction could run as one PM and half as another.
    who = 'alice';
    let code: string | undefined;
    try {
      db.transaction(() => {
        db.prepare("INSERT INTO notes (id) VALUES ('half')").run();
        who = 'bob';
        db.prepare("INSERT INTO notes (id) VALUES ('other-half')").run();
      })();
    } catch (e) {
      code = isAppError(e) ? e.code : String(e);
    }
    expect(code).toBe('internal');
    expect(db.prepare('SELECT count(*)::int AS n FROM notes').get()).toEqual({ n: 0 });
    // The connection is usable again at once, as the next person.
    expect(bound()).toEqual({ person: 'bob', server: '' });
  });

  it('sets the person again after a transaction that carried them in with its BEGIN rolls back', () => {
    // The person travels in the BEGIN's round trip, inside the transaction, so its rollback takes
    // them back. If this failed, the next call of that person would run bound to whoever came before.
    who = 'erin';
    expect(bound().person).toBe('erin');
    who = 'dave';
    expect(() =>
      db.transaction(() => {
        expect(bound().person).toBe('dave');
        throw new Error('the change is abandoned');
      })(),
    ).toThrow(/abandoned/);
    expect(bound()).toEqual({ person: 'dave', server: '' });
  });

  it('binds a new person at the start of a transaction that names its isolation level', () => {
    // Risk's page reads every book in one REPEATABLE READ snapshot. If this failed, the first such
    // read after another person's call would be refused by the database.
    who = 'hana';
    const seen = db.connection.transaction(() => bound(), { isolation: 'repeatable read' });
    expect(seen).toEqual({ person: 'hana', server: '' });
    who = 'ivan';
    expect(db.connection.transaction(() => bound(), { isolation: 'serializable', lock: WORKSPACE_WRITE_LOCK })).toEqual({ person: 'ivan', server: '' });
  });

  it('a transaction whose write lock cannot be taken fails whole and leaves the connection usable', () => {
    // The lock is taken in the same round trip as BEGIN. If this failed, a write refused for a
    // timeout would leave an aborted transaction behind, and every later call would fail with it.
    const holder = PostgresConnection.open(server.url, { applicationName: 'forge binding test (lock holder)' });
    const impatient = new PostgresDb(PostgresConnection.open(server.url, { applicationName: 'forge binding test' }));
    // Only waits for a lock give up early: every other statement keeps the default timeout.
    impatient.connection.run("SET lock_timeout = '300ms'");
    impatient.bindActingPerson(() => who);
    try {
      holder.run('SELECT pg_advisory_lock($1)', [WORKSPACE_WRITE_LOCK]);
      who = 'gail';
      let code: string | undefined;
      try {
        impatient.transaction(() => impatient.prepare("INSERT INTO notes (id) VALUES ('never')").run())();
      } catch (e) {
        code = isAppError(e) ? e.code : String(e);
      }
      expect(code).toBeDefined();
      holder.run('SELECT pg_advisory_unlock($1)', [WORKSPACE_WRITE_LOCK]);
      impatient.transaction(() => impatient.prepare("INSERT INTO notes (id) VALUES ('after')").run())();
      expect(impatient.prepare("SELECT id FROM notes WHERE id IN ('never', 'after')").all()).toEqual([{ id: 'after' }]);
      expect(impatient.prepare("SELECT current_setting('forge.user_id', true) AS person").get()).toEqual({ person: 'gail' });
    } finally {
      impatient.close();
      holder.close();
    }
  });

  it('runs a statement under the binding the session holds when asked (no switch to the server and back)', () => {
    // Signing a call in reads the same row for anyone: it need not switch the session. If this
    // failed, that statement would cost two more round trips on every call of a desk.
    who = 'frank';
    expect(bound().person).toBe('frank');
    who = undefined;
    expect(db.connection.underCurrentSettings(bound)).toEqual({ person: 'frank', server: '' });
    expect(bound()).toEqual({ person: '', server: 'on' });
  });

  it('binds again on the session opened after the database restarts', async () => {
    // If this failed, after a restart every call would run bound to nobody (or to a stale person).
    who = 'carol';
    expect(bound().person).toBe('carol');
    await server.restart();
    let after: { person: string; server: string } | undefined;
    for (let attempt = 0; attempt < 5 && !after; attempt++) {
      try {
        after = bound();
      } catch (e) {
        if (!(e instanceof Error) || !/reconnect|lost|did not answer/i.test(e.message)) throw e;
      }
    }
    expect(after).toEqual({ person: 'carol', server: '' });
  });
});
