import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresReconnectingError } from '../../store/postgres/connection';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { startTestDesk, type TestDesk } from '../testing';
import { type DeskEvent, DeskEvents } from './desk-events';
import { DESK_CHANNEL, DeskEventRefusedError, MAX_PAYLOAD_BYTES, publish } from './publish';

/** Resolves with the first event `match` accepts (the test's timeout bounds the wait, not a timer here). */
function next(events: DeskEvents, match: (e: DeskEvent) => boolean): Promise<DeskEvent> {
  return new Promise((resolve) => {
    const off = events.subscribe((e) => {
      if (!match(e)) return;
      off();
      resolve(e);
    });
  });
}

describe.skipIf(skipWithoutPostgres())('DeskEvents: live events across the servers of a desk', { timeout: 120_000 }, () => {
  let desk: TestDesk;
  let listener: DeskEvents;

  beforeAll(async () => {
    desk = await startTestDesk();
    listener = new DeskEvents(desk.url, { initialBackoffMs: 50, maxBackoffMs: 500 });
    await listener.start();
  }, 120_000);
  afterAll(async () => {
    await listener?.stop();
    await desk?.stop();
  });

  it("an approval published on one server's connection reaches a listener on another connection (the risk manager's Home updates)", async () => {
    const other = desk.connect();
    const heard = next(listener, (e) => e.kind === 'expression.approved');
    other.transaction(() => publish(other, { kind: 'expression.approved', id: 'expr-1', by: 'alice' }));
    expect(await heard).toEqual({ kind: 'expression.approved', id: 'expr-1', by: 'alice' });
  });

  it('an event published in a transaction that rolls back never arrives (nobody hears of an approval that did not happen)', async () => {
    const seen: DeskEvent[] = [];
    const off = listener.subscribe((e) => seen.push(e));
    const marker = next(listener, (e) => e.kind === 'test.marker');
    expect(() =>
      desk.connection.transaction(() => {
        publish(desk.connection, { kind: 'expression.approved', id: 'rolled-back' });
        throw new Error('the guardrail refused it');
      }),
    ).toThrow('the guardrail refused it');
    // NOTIFYs arrive in commit order: once the later marker is here, the rolled-back one would have been too.
    publish(desk.connection, { kind: 'test.marker' });
    await marker;
    off();
    expect(seen.map((e) => ('id' in e ? e.id : e.kind))).toEqual(['test.marker']);
  });

  it('a malformed payload is dropped and counted, and the listener keeps delivering what follows', async () => {
    const before = listener.dropped;
    const seen: DeskEvent[] = [];
    const off = listener.subscribe((e) => seen.push(e));
    const marker = next(listener, (e) => e.kind === 'test.marker');
    for (const bad of ['not json', '[1,2]', '{"kind":"nodots"}', '{"kind":"desk.connected"}', '{"no":"kind"}']) {
      desk.connection.query('SELECT pg_notify($1, $2)', [DESK_CHANNEL, bad]);
    }
    publish(desk.connection, { kind: 'test.marker' });
    await marker;
    off();
    expect(listener.dropped - before).toBe(5);
    expect(seen).toEqual([{ kind: 'test.marker' }]);
  });

  it('refuses with a typed error an event PostgreSQL could not carry, before any of it is sent', () => {
    const big = { kind: 'research.shared', text: 'x'.repeat(MAX_PAYLOAD_BYTES) };
    expect(() => publish(desk.connection, big)).toThrow(DeskEventRefusedError);
    expect(() => publish(desk.connection, big)).toThrow(/at most 7999/);
    expect(() => publish(desk.connection, { kind: 'approved' })).toThrow(DeskEventRefusedError);
    expect(() => publish(desk.connection, { kind: 'desk.reconnecting' })).toThrow(DeskEventRefusedError);
    // Just under the limit still goes through: the check counts bytes, not characters.
    const fits = { kind: 'research.shared', text: 'é'.repeat(Math.floor((MAX_PAYLOAD_BYTES - 40) / 2)) };
    expect(() => publish(desk.connection, fits)).not.toThrow();
  });

  it('after the database restarts the listener says "reconnecting", connects again, LISTENs again and receives', async () => {
    const states: string[] = [];
    const off = listener.subscribe((e) => {
      if (e.kind.startsWith('desk.')) states.push(e.kind);
    });
    const reconnected = next(listener, (e) => e.kind === 'desk.connected');
    await desk.server.restart();
    await reconnected;
    expect(states).toEqual(['desk.reconnecting', 'desk.connected']);
    expect(listener.connected).toBe(true);

    const heard = next(listener, (e) => e.kind === 'expression.approved');
    // The synchronous connection reports the restart once (nothing uncommitted survived), then reconnects.
    try {
      publish(desk.connection, { kind: 'expression.approved', id: 'after-restart' });
    } catch (e) {
      expect(e).toBeInstanceOf(PostgresReconnectingError);
      publish(desk.connection, { kind: 'expression.approved', id: 'after-restart' });
    }
    expect(await heard).toMatchObject({ id: 'after-restart' });
    off();
  });

  it('a first connection that fails rejects start() instead of retrying forever (a wrong URL fails forge serve at once)', async () => {
    const wrong = new DeskEvents(desk.url.replace(/\/postgres$/, '/no_such_database'));
    await expect(wrong.start()).rejects.toThrow(/no_such_database/);
    expect(wrong.connected).toBe(false);
  });
});
