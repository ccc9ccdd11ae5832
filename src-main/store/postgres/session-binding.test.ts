import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../common/errors';
import { PostgresConnection } from './connection';
import { PostgresDb } from './postgres-db';
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
