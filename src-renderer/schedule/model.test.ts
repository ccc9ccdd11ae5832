import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { ScheduleJobView } from '../../src-main/api/schedule';
import { handleScheduleChanged } from './live';
import { budgetLine, cronInWords, jobState, upsertJob } from './model';

describe('a cron pattern in words', () => {
  it('reads the four Forge jobs the way a PM says them', () => {
    expect(cronInWords('0 7 * * 1-5')).toBe('Weekdays at 07:00');
    expect(cronInWords('30 16 * * 1-5')).toBe('Weekdays at 16:30');
    expect(cronInWords('0 17 * * 5')).toBe('Fridays at 17:00');
    expect(cronInWords('0 * * * 1-5')).toBe('Every hour on the hour, on weekdays');
  });

  it('reads other common shapes', () => {
    expect(cronInWords('15 9 * * *')).toBe('Every day at 09:15');
    expect(cronInWords('0 8 * * 1,4')).toBe('Mondays and Thursdays at 08:00');
    expect(cronInWords('0 8 * * 0')).toBe('Sundays at 08:00');
    expect(cronInWords('0 8 * * 7')).toBe('Sundays at 08:00');
    expect(cronInWords('0 12 * * 2-4')).toBe('Tuesday to Thursday at 12:00');
    expect(cronInWords('*/15 * * * *')).toBe('Every 15 minutes');
    expect(cronInWords('45 * * * *')).toBe('Every hour at 45 minutes past');
    expect(cronInWords('0 6 1 * *')).toBe('On day 1 of every month at 06:00');
  });

  it('shows a pattern it does not understand as it is, never a wrong sentence', () => {
    expect(cronInWords('0 7 * 1 *')).toBe('cron 0 7 * 1 *');
    expect(cronInWords('0 7-9 * * 1-5')).toBe('cron 0 7-9 * * 1-5');
    expect(cronInWords('0 7 * * MON#2')).toBe('cron 0 7 * * MON#2');
    expect(cronInWords('nonsense')).toBe('cron nonsense');
  });
});

function job(over: Partial<ScheduleJobView>): ScheduleJobView {
  return {
    job: 'morning_review',
    title: 'Morning review',
    description: 'Overnight moves.',
    cron: '0 7 * * 1-5',
    timeZone: 'America/New_York',
    nextRun: '2026-03-09T11:00:00.000Z',
    nextRunLocal: 'Mon 2026-03-09 07:00 EDT',
    paused: false,
    running: false,
    lastRun: null,
    catchUpWindowMinutes: 300,
    budget: { analyses: 8, maxRounds: 40, maxTokens: 400000, maxCostUsd: 4, maxMinutes: 30 },
    ...over,
  };
}

describe('jobs on the Schedule screen', () => {
  it('says running before paused, and paused before scheduled', () => {
    expect(jobState(job({ running: true, paused: true })).label).toBe('Running now');
    expect(jobState(job({ paused: true })).label).toBe('Paused');
    expect(jobState(job({})).label).toBe('Scheduled');
  });

  it('says the monitoring job makes no model calls rather than "$0"', () => {
    expect(budgetLine(job({}).budget)).toBe('Up to 8 analyses · $4 · 30 min');
    expect(budgetLine({ analyses: 0, maxRounds: 0, maxTokens: 0, maxCostUsd: 0, maxMinutes: 10 })).toBe('No model calls · up to 10 min');
  });

  it('replaces a pushed job in place and keeps the others', () => {
    const list = [job({}), job({ job: 'end_of_day', title: 'End of day' })];
    const next = upsertJob(list, job({ paused: true, nextRun: null }));
    expect(next.map((j) => [j.job, j.paused])).toEqual([
      ['morning_review', true],
      ['end_of_day', false],
    ]);
    expect(upsertJob([], job({})).length).toBe(1);
  });

  it('merges a schedule/changed event into the cached listing and re-reads the history', () => {
    const qc = new QueryClient();
    qc.setQueryData(['schedule/list', {}], { timeZone: 'America/New_York', timeZoneNote: null, jobs: [job({})] });
    qc.setQueryData(['schedule/history', { limit: 50 }], { runs: [] });
    handleScheduleChanged(qc, job({ paused: true, nextRun: null, nextRunLocal: null }));
    const cached = qc.getQueryData<{ jobs: ScheduleJobView[] }>(['schedule/list', {}]);
    // Without the merge, Pause from another window would leave this one saying "Scheduled".
    expect(cached?.jobs[0]?.paused).toBe(true);
    expect(cached?.jobs[0]?.nextRun).toBeNull();
    expect(qc.getQueryState(['schedule/history', { limit: 50 }])?.isInvalidated).toBe(true);
  });
});
