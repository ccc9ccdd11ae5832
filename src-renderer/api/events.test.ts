import { describe, expect, it } from 'vitest';
import { backoffMs, eventsUrl, parseEventFrame } from './events';

describe('live updates connection', () => {
  it('waits longer after each failed reconnect, up to 10 s', () => {
    const mid = () => 0.5; // no jitter
    expect([0, 1, 2, 3, 4, 5, 6, 30].map((n) => backoffMs(n, mid))).toEqual([500, 1000, 2000, 4000, 8000, 10000, 10000, 10000]);
    expect(backoffMs(0, () => 0)).toBe(400);
    expect(backoffMs(0, () => 1)).toBe(600);
  });

  it('connects to /events on the same host, with the token when there is one', () => {
    expect(eventsUrl({ protocol: 'http:', host: '127.0.0.1:5123' }, 'a b')).toBe('ws://127.0.0.1:5123/events?token=a%20b');
    expect(eventsUrl({ protocol: 'http:', host: 'localhost:9' }, null)).toBe('ws://localhost:9/events');
  });

  it('ignores frames that are not event messages instead of breaking the window', () => {
    expect(parseEventFrame('{"event":"app/notice","payload":{"level":"info","message":"hi"}}')).toEqual({
      event: 'app/notice',
      payload: { level: 'info', message: 'hi' },
    });
    expect(parseEventFrame('not json')).toBeNull();
    expect(parseEventFrame('{"payload":1}')).toBeNull();
    expect(parseEventFrame(new ArrayBuffer(2))).toBeNull();
  });
});
