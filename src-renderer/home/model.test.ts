import { describe, expect, it } from 'vitest';
import type { ProcedureOutput } from '../../src-main/api';
import {
  awaitingOrder,
  figure,
  isStale,
  limitFigure,
  nextRuns,
  reasonText,
  runningTasks,
  shareText,
  staleCutoff,
  usageBars,
  viewsNeedingAttention,
} from './model';

type Entry = ProcedureOutput<'memory/list'>['entries'][number];
type Job = ProcedureOutput<'schedule/list'>['jobs'][number];
type Task = ProcedureOutput<'tasks/list'>['tasks'][number];

const NOW = Date.parse('2026-11-23T12:00:00Z');
const daysAgo = (d: number) => new Date(NOW - d * 86_400_000).toISOString();

function view(id: string, status: string | null, updatedAt: string | null): Entry {
  return { name: `${id}.md`, path: `/memory/views/${id}.md`, isDir: false, id, title: `View ${id}`, meta: '', status, updatedAt };
}

function job(name: Job['job'], nextRun: string | null, paused = false): Job {
  return {
    job: name,
    title: name,
    description: '',
    cron: '0 7 * * 1-5',
    timeZone: 'UTC',
    nextRun,
    nextRunLocal: nextRun,
    paused,
    running: false,
    lastRun: null,
    catchUpWindowMinutes: 60,
    budget: { analyses: 1, maxRounds: 1, maxTokens: 1, maxCostUsd: 1, maxMinutes: 1 },
  };
}

describe('usage bars', () => {
  it('shows the seed book as gross 142.5 of 200: a 71 % bar, not yet amber', () => {
    const [gross] = usageBars([{ rule: 'max_gross_exposure', value: 142.5, limit: 200 }]);
    expect(gross).toMatchObject({ label: 'Gross exposure', unit: '% of NAV', share: 0.7125, fillPct: 71.3, tone: 'ok' });
    expect(shareText(gross!)).toBe('71 % used');
    expect(`${figure(gross!.value)} of ${limitFigure(gross!.limit)}`).toBe('142.5 of 200');
    expect(figure(-3)).toBe('−3.0');
    expect(limitFigure(2.5)).toBe('2.5');
  });

  it('turns amber from 80 % and red past the limit, without the fill leaving its track', () => {
    const bars = usageBars([
      { rule: 'max_single_risk', value: 1.6, limit: 2 },
      { rule: 'max_duration_contribution', value: 2.4, limit: 2 },
    ]);
    expect(bars.map((b) => b.tone)).toEqual(['warn', 'over']);
    expect(bars[1]!.fillPct).toBe(100);
    expect(shareText(bars[1]!)).toBe('over by 20 %');
  });

  it('reads a zero limit as allowing nothing, so any use of it is over (no NaN bar)', () => {
    const [bar] = usageBars([{ rule: 'max_single_risk', value: 0.5, limit: 0 }]);
    expect(bar!.tone).toBe('over');
    expect(bar!.fillPct).toBe(100);
    expect(shareText(bar!)).toBe('over the limit');
  });

  it('orders the book-wide limits before the per-trade ones, whatever order the core sends', () => {
    const bars = usageBars([
      { rule: 'max_duration_contribution', value: 1, limit: 2 },
      { rule: 'max_single_risk', value: 1, limit: 2 },
      { rule: 'max_gross_exposure', value: 1, limit: 2 },
      { rule: 'max_factor_concentration', value: 1, limit: 2 },
    ]);
    expect(bars.map((b) => b.rule)).toEqual(['max_gross_exposure', 'max_factor_concentration', 'max_single_risk', 'max_duration_contribution']);
  });
});

describe('Views needing attention', () => {
  it('counts a View as stale only after 14 whole days, and never a retired one', () => {
    expect(isStale(view('V-1', 'active', daysAgo(14)), NOW)).toBe(false);
    expect(isStale(view('V-1', 'active', daysAgo(15)), NOW)).toBe(true);
    expect(isStale(view('V-1', 'retired', daysAgo(90)), NOW)).toBe(false);
    expect(isStale(view('V-1', 'active', null), NOW)).toBe(false);
  });

  it('asks the query language for Views last written before the cutoff day', () => {
    expect(staleCutoff(NOW)).toBe('2026-11-09');
  });

  it('lists fired invalidations first, then reviews, then the oldest stale View; each View once with all its reasons', () => {
    const entries = [
      view('V-010', 'active', daysAgo(20)),
      view('V-011', 'active', daysAgo(40)),
      view('V-012', 'invalidated', daysAgo(1)),
      view('V-013', 'review_required', daysAgo(30)),
      view('V-014', 'active', daysAgo(2)),
      // The same View from two listings (invalidated and stale) appears once.
      view('V-015', 'invalidated', daysAgo(30)),
      view('V-015', 'invalidated', daysAgo(30)),
    ];
    const list = viewsNeedingAttention(entries, NOW);
    expect(list.map((v) => v.id)).toEqual(['V-015', 'V-012', 'V-013', 'V-011', 'V-010']);
    expect(list[0]!.reasons).toEqual(['invalidated', 'stale']);
    expect(reasonText('stale', list[3]!.ageDays)).toBe('not updated for 40 days');
    expect(reasonText('invalidated', 1)).toBe('invalidation fired');
  });

  it('flags a live View whose latest edit lowered its confidence, after reviews and before stale ones', () => {
    const recent = [
      { id: 'V-020', title: 'Fed cuts', status: 'active', updatedAt: daysAgo(1), confidence: 0.5, previousConfidence: 0.7 },
      // Rising or unchanged confidence, a first version, and a closed View are not falling.
      { id: 'V-021', title: 'Curve', status: 'active', updatedAt: daysAgo(1), confidence: 0.7, previousConfidence: 0.5 },
      { id: 'V-022', title: 'Yen', status: 'active', updatedAt: daysAgo(1), confidence: 0.6, previousConfidence: 0.6 },
      { id: 'V-023', title: 'Oil', status: 'active', updatedAt: daysAgo(1), confidence: 0.4, previousConfidence: null },
      { id: 'V-024', title: 'Gold', status: 'closed', updatedAt: daysAgo(1), confidence: 0.2, previousConfidence: 0.6 },
      // Also stale: one line with both reasons, falling first.
      { id: 'V-011', title: 'Copper', status: 'active', updatedAt: daysAgo(40), confidence: 0.3, previousConfidence: 0.4 },
    ];
    const list = viewsNeedingAttention([view('V-013', 'review_required', daysAgo(30)), view('V-011', 'active', daysAgo(40))], NOW, undefined, recent);
    expect(list.map((v) => v.id)).toEqual(['V-013', 'V-011', 'V-020']);
    expect(list[1]!.reasons).toEqual(['confidence_falling', 'stale']);
    expect(reasonText('confidence_falling', 1, list[2]!.fell)).toBe('confidence falling 0.7 → 0.5');
  });
});

describe('next scheduled runs', () => {
  it('shows the soonest runs first and leaves paused jobs out', () => {
    const jobs = [
      job('weekly_retrospective', '2026-11-27T17:00:00Z'),
      job('hourly_monitoring', '2026-11-23T13:00:00Z'),
      job('end_of_day', null, true),
      job('morning_review', '2026-11-24T07:00:00Z'),
    ];
    expect(nextRuns(jobs).map((j) => j.job)).toEqual(['hourly_monitoring', 'morning_review', 'weekly_retrospective']);
    expect(nextRuns(jobs, 1)).toHaveLength(1);
  });
});

describe('Expressions awaiting approval', () => {
  it('puts the one waiting longest first', () => {
    const e = (id: string, at: string): Entry => ({ ...view(id, 'proposed', at), path: `/memory/expressions/${id}.md` });
    expect(awaitingOrder([e('E-009', daysAgo(1)), e('E-004', daysAgo(3)), e('E-006', daysAgo(2))]).map((x) => x.id)).toEqual(['E-004', 'E-006', 'E-009']);
  });
});

describe('tasks running', () => {
  it('drops a task that finished after the listing was read (a pushed update merged in) and shows the longest-running first', () => {
    const t = (id: string, status: Task['status'], startedAt: string): Task =>
      ({ sessionId: 's1', id, status, startedAt, createdAt: startedAt }) as unknown as Task;
    const list = [t('b', 'running', daysAgo(0.01)), t('a', 'ok', daysAgo(0.5)), t('c', 'running', daysAgo(0.1))];
    expect(runningTasks(list).map((x) => x.id)).toEqual(['c', 'b']);
  });
});
