import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresConnection, PostgresQueryError, PostgresReconnectingError } from './connection';
import { skipWithoutPostgres, startTestPostgres, type TestPostgres } from './test-server';

describe.skipIf(skipWithoutPostgres())('PostgresConnection: a synchronous connection to a desk database', { timeout: 120_000 }, () => {
  let server: TestPostgres;
  let db: PostgresConnection;

  beforeAll(async () => {
    server = await startTestPostgres();
    db = PostgresConnection.open(server.url);
    db.run('CREATE TABLE notes (id bigint PRIMARY KEY, title text NOT NULL, body bytea, big bigint, at timestamptz DEFAULT now())');
  }, 120_000);
  afterAll(async () => {
    db?.close();
    await server?.stop();
  });

  it('reads back exactly what was written: bigints as numbers (BigInt past 2^53), bytes as Buffers, times as text', () => {
    db.run('INSERT INTO notes (id, title, body, big) VALUES ($1, $2, $3, $4)', [1, 'café', Buffer.from([0, 255, 7]), 9007199254740993n]);
    const row = db.one<{ id: number; title: string; body: Buffer; big: bigint; at: string }>('SELECT * FROM notes WHERE id = $1', [1]);
    expect(row?.id).toBe(1);
    expect(row?.title).toBe('café');
    expect(Buffer.isBuffer(row?.body)).toBe(true);
    expect([...(row?.body ?? [])]).toEqual([0, 255, 7]);
    expect(row?.big).toBe(9007199254740993n);
    expect(typeof row?.at).toBe('string');
  });

  it('a transaction that throws leaves nothing behind, and a refused statement is a typed error with its SQLSTATE', () => {
    expect(() =>
      db.transaction(() => {
        db.run("INSERT INTO notes (id, title) VALUES (2, 'kept?')");
        db.run("INSERT INTO notes (id, title) VALUES (1, 'duplicate')");
      }),
    ).toThrow(PostgresQueryError);
    try {
      db.run("INSERT INTO notes (id, title) VALUES (1, 'duplicate')");
    } catch (e) {
      expect((e as PostgresQueryError).sqlState).toBe('23505');
      expect((e as PostgresQueryError).code).toBe('conflict');
    }
    expect(db.one('SELECT 1 FROM notes WHERE id = 2')).toBeUndefined();
    expect(db.inTransaction).toBe(false);
  });

  it('a nested transaction is a savepoint: its failure undoes only its own work', () => {
    db.transaction(() => {
      db.run("INSERT INTO notes (id, title) VALUES (3, 'outer')");
      expect(() =>
        db.transaction(() => {
          db.run("INSERT INTO notes (id, title) VALUES (4, 'inner')");
          throw new Error('changed my mind');
        }),
      ).toThrow('changed my mind');
    });
    expect(db.query('SELECT id FROM notes WHERE id IN (3, 4) ORDER BY id')).toEqual([{ id: 3 }]);
  });

  it('two connections racing on serializable read-modify-writes both land (the loser is retried), never one lost update', () => {
    db.run('CREATE TABLE counter (one boolean PRIMARY KEY, n bigint NOT NULL)');
    db.run('INSERT INTO counter VALUES (true, 0)');
    const other = PostgresConnection.open(server.url);
    try {
      // Interleave by hand: A reads, B reads-and-commits, A writes — A's commit is refused (40001) and A retried.
      let first = true;
      db.transaction(
        () => {
          const n = db.one<{ n: number }>('SELECT n FROM counter')?.n ?? 0;
          if (first) {
            first = false;
            other.transaction(() => other.run('UPDATE counter SET n = n + 1'), { isolation: 'serializable' });
          }
          db.run('UPDATE counter SET n = $1', [n + 1]);
        },
        { isolation: 'serializable' },
      );
      expect(db.one<{ n: number }>('SELECT n FROM counter')?.n).toBe(2);
    } finally {
      other.close();
    }
  });

  it('a database restart mid-session: the call in flight says "reconnecting", nothing half-written survives, the next call works', async () => {
    const before = db.one<{ n: number }>('SELECT count(*)::int AS n FROM notes')?.n;
    db.run('BEGIN');
    db.run("INSERT INTO notes (id, title) VALUES (50, 'uncommitted')");
    await server.restart();
    expect(() => db.run('COMMIT')).toThrow(PostgresReconnectingError);
    expect(db.one<{ n: number }>('SELECT count(*)::int AS n FROM notes')?.n).toBe(before);
  });

  it('a database that stops answering is cut off with a typed error instead of hanging the server', () => {
    // 5 s: long enough for the reconnect after the cut on a machine at load 10, far short of the sleep.
    const impatient = PostgresConnection.open(server.url, { statementTimeoutMs: 120_000, answerTimeoutMs: 5_000 });
    try {
      expect(() => impatient.query('SELECT pg_sleep(60)')).toThrow(/did not answer/);
      expect(impatient.one('SELECT 7 AS seven')).toEqual({ seven: 7 });
    } finally {
      impatient.close();
    }
  });

  it('a late wake from the previous answer is not taken for an answer: no call is cut mid-transaction', () => {
    // If this failed, about one call in a thousand under load was cut with "did not answer" the
    // moment it began (the worker's notify for the previous call landing in this call's wait), and
    // a write in progress was rolled back. Here every answer's wake comes again 10 ms later, inside
    // the next call, which takes 40 ms.
    const woken = PostgresConnection.open(server.url, { testLateWakeMs: 10 });
    try {
      woken.transaction(() => {
        for (let i = 0; i < 5; i++) expect(woken.one<{ n: number }>('SELECT $1::int AS n FROM pg_sleep(0.04)', [i])).toEqual({ n: i });
      });
    } finally {
      woken.close();
    }
  });

  it('a desk database that is not there says so when opened (unreachable, or no such database), not "reconnecting"', () => {
    expect(() => PostgresConnection.open('postgres://forge:pw@127.0.0.1:1/desk')).toThrow(
      /Could not reach the desk's database postgres:\/\/forge:\*\*\*@127\.0\.0\.1:1\/desk/,
    );
    expect(() => PostgresConnection.open(server.url.replace(/\/postgres$/, '/no_such_desk'))).toThrow(/does not exist on that server/);
  });

  it('a wrong password is refused without the password in the message', () => {
    const url = server.url.replace('postgres@', 'nobody:s3cret-pw@');
    let message = '';
    try {
      PostgresConnection.open(url).close();
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).not.toBe('');
    expect(message).not.toContain('s3cret-pw');
  });
});
