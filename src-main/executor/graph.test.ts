import { describe, expect, it } from 'vitest';
import { findCycle, Semaphore } from './graph';

describe('dependency graph', () => {
  it('finds a cycle and names it in order, so the analyst sees which link to remove', () => {
    const edges = new Map<string, string[]>([
      ['A', ['C']],
      ['B', ['A']],
      ['C', ['B']],
      ['D', []],
    ]);
    expect(findCycle(edges)).toEqual(['A', 'C', 'B', 'A']);
    expect(findCycle(new Map([['A', ['A']]]))).toEqual(['A', 'A']);
  });

  it('accepts a diamond (shared dependency is not a cycle)', () => {
    const edges = new Map<string, string[]>([
      ['A', []],
      ['B', ['A']],
      ['C', ['A']],
      ['D', ['B', 'C']],
    ]);
    expect(findCycle(edges)).toBeNull();
  });
});

describe('semaphore', () => {
  it('never runs more than its limit and lets a cancelled waiter leave the queue', async () => {
    const s = new Semaphore(2);
    await s.acquire();
    await s.acquire();
    const ac = new AbortController();
    const waiting = s.acquire(ac.signal);
    const third = s.acquire();
    expect(s.running).toBe(2);
    expect(s.queued).toBe(2);
    ac.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    expect(s.queued).toBe(1);
    s.release();
    await third;
    expect(s.running).toBe(2);
  });
});
