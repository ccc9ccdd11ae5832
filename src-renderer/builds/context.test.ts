import { describe, expect, it } from 'vitest';
import { compactionMarks, contextShares, percent, shortTokens } from './context';

describe('the context meter', () => {
  it('splits the window into fixed part, conversation and free room', () => {
    const s = contextShares({ fixedTokens: 4_000, conversationTokens: 36_000, limitTokens: 100_000 });
    expect([s.fixed, s.conversation, s.free, s.usedTokens, s.over]).toEqual([0.04, 0.36, 0.6, 40_000, false]);
  });

  it('keeps the bar full but not overflowing when the context is over the limit, and says so', () => {
    const s = contextShares({ fixedTokens: 10_000, conversationTokens: 110_000, limitTokens: 100_000 });
    expect(s.over).toBe(true);
    expect(s.usedShare).toBeCloseTo(1.2);
    expect(s.fixed + s.conversation).toBeCloseTo(1);
    expect(s.fixed / s.conversation).toBeCloseTo(10 / 110);
    expect(s.free).toBe(0);
  });

  it('marks each compaction where the context stood before it, with what it freed', () => {
    const marks = compactionMarks({
      limitTokens: 20_000,
      compactions: [{ at: '2026-11-21T09:10:00.000Z', turn: 12, beforeTokens: 15_000, afterTokens: 3_200 }],
    });
    expect(marks).toEqual([{ at: '2026-11-21T09:10:00.000Z', turn: 12, share: 0.75, saved: 11_800, label: 'turn 12: 15.0k → 3.2k' }]);
  });

  it('does not divide by zero before the limit is known', () => {
    const s = contextShares({ fixedTokens: 0, conversationTokens: 0, limitTokens: 0 });
    expect([s.fixed, s.conversation, s.free]).toEqual([0, 0, 1]);
  });

  it('writes token counts and shares compactly', () => {
    expect([shortTokens(850), shortTokens(12_345), shortTokens(1_250_000), percent(0.7), percent(0.123)]).toEqual(['850', '12.3k', '1.3M', '70%', '12.3%']);
  });
});
