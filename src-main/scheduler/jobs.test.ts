import { describe, expect, it } from 'vitest';
import { JOBS, staleViews, triggerMessage } from './jobs';

const NY = 'America/New_York';
const job = (name: string) => JOBS.find((j) => j.name === name)!;
const now = new Date('2026-01-15T12:00:00Z');
const daysAgo = (d: number, extraMs = 0) => new Date(now.getTime() - d * 86_400_000 - extraMs).toISOString();

describe('staleViews', () => {
  it('flags live Views not updated for more than 14 days, oldest first, and leaves invalidated ones alone', () => {
    const views = [
      { id: 'V-001', status: 'active', updatedAt: daysAgo(3) },
      { id: 'V-002', status: 'active', updatedAt: daysAgo(15) },
      { id: 'V-003', status: 'invalidated', updatedAt: daysAgo(40) },
      { id: 'V-004', status: 'watching', updatedAt: daysAgo(30) },
      // Exactly 14 days is not "older than 14 days"; a minute more is.
      { id: 'V-005', status: 'active', updatedAt: daysAgo(14) },
      { id: 'V-006', status: 'active', updatedAt: daysAgo(14, 60_000) },
      { id: 'V-007', status: 'active', updatedAt: 'not a date' },
    ];
    expect(staleViews(views, now)).toEqual([
      { id: 'V-004', ageDays: 30 },
      { id: 'V-002', ageDays: 15 },
      { id: 'V-006', ageDays: 14 },
    ]);
    expect(staleViews(views, now, 20)).toEqual([{ id: 'V-004', ageDays: 30 }]);
  });
});

describe('triggerMessage', () => {
  it("the morning review names the stale Views and the seed's budget of 8 analyses", () => {
    const text = triggerMessage(job('morning_review'), {
      now,
      zone: NY,
      scheduledFor: now,
      stale: [
        { id: 'V-004', ageDays: 30 },
        { id: 'V-002', ageDays: 15 },
      ],
    });
    expect(text.split('\n')[0]).toBe('Morning review — 2026-01-15.');
    expect(text).toContain('Budget: about 8 analyses (at most 40 rounds).');
    expect(text).toContain('Stale Views (not updated for more than 14 days) — refresh, re-confirm or retire each: V-004 (30 days), V-002 (15 days).');
    expect(text).not.toContain('Running late');
    expect(triggerMessage(job('morning_review'), { now, zone: NY, scheduledFor: now, stale: [] })).toContain('No View is older than 14 days.');
  });

  it('a caught-up run tells the analyst it is late, with both local times', () => {
    const due = new Date('2026-01-15T12:00:00Z');
    const text = triggerMessage(job('morning_review'), { now: new Date('2026-01-15T13:20:00Z'), zone: NY, scheduledFor: due, stale: [] });
    expect(text).toContain('Running late: it was due Thu 2026-01-15 07:00 EST (Forge was closed or the computer slept); it is now Thu 2026-01-15 08:20 EST.');
  });

  it('end of day carries budget 6; the retrospective carries the week counts; each is dated in the local zone', () => {
    // 01:00Z on the 16th is still the evening of the 15th in New York.
    const late = new Date('2026-01-16T01:00:00Z');
    const eod = triggerMessage(job('end_of_day'), { now: late, zone: NY, scheduledFor: null });
    expect(eod.split('\n')[0]).toBe('End-of-day review — 2026-01-15.');
    expect(eod).toContain('Budget: about 6 analyses');
    const retro = triggerMessage(job('weekly_retrospective'), { now, zone: NY, scheduledFor: null, week: { outcomes: 3, completedCounterfactuals: 2 } });
    expect(retro).toContain('3 new Outcomes this week; 2 completed Counterfactuals.');
    expect(retro).toContain('Load the retrospective skill');
  });

  it('every job has a budget and a catch-up window no longer than the gap to its next run', () => {
    const gaps: Record<string, number> = { morning_review: 24, end_of_day: 24, weekly_retrospective: 7 * 24, hourly_monitoring: 1 };
    for (const j of JOBS) {
      expect(j.budget.maxMinutes, j.name).toBeGreaterThan(0);
      expect(j.catchUpWindowMs, j.name).toBeLessThanOrEqual(gaps[j.name]! * 3_600_000);
      if (j.kind === 'analyst') expect(j.budget.maxCostUsd, j.name).toBeGreaterThan(0);
    }
  });
});
