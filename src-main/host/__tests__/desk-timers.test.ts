import { describe, expect, it } from 'vitest';
import { type ActingPerson, actingPerson, asPerson } from '../../desk/people';
import { realTimers } from '../../scheduler';
import { timersOutsideCalls } from '../desk';

const ALICE: ActingPerson = { userId: 'alice', displayName: 'Alice', role: 'pm', admin: true };

describe("the scheduler's timers on a desk", () => {
  it('run their job as the server, not as the person whose call armed them', async () => {
    // If this failed, a scheduled job re-armed during an admin's schedule change would run as that
    // admin: reading only what they may read, and writing notes they own instead of the desk.
    const seen = (timers: typeof realTimers) =>
      new Promise<string | undefined>((resolve) => asPerson(ALICE, () => timers.set(() => resolve(actingPerson()?.userId), 1)));
    expect(await seen(realTimers)).toBe('alice');
    expect(await seen(timersOutsideCalls(realTimers))).toBeUndefined();
    // And a timer cleared before it fires never runs.
    let ran = false;
    const timers = timersOutsideCalls(realTimers);
    timers.clear(timers.set(() => (ran = true), 1));
    await new Promise((r) => setTimeout(r, 20));
    expect(ran).toBe(false);
  });
});
