import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ReviewReportView, ScheduleReplayView } from '../../src-main/api/schedule';
import { replayOutcomeLine, replayRequestLabel } from './model';
import { ReplayColumns } from './ReplayPanel';

const text = (html: string) => html.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|');

const report = (note: string): ReviewReportView => ({
  sessionId: null,
  at: '2026-10-10T11:00:00.000Z',
  since: '2026-10-09T11:00:00.000Z',
  sinceSource: 'previous_review',
  parsed: true,
  views: [{ id: 'V-900', title: 'Fed cuts', status: 'active', moves: [], missing: [], invalidationsFired: [], action: 'hold', note }],
  warnings: [],
});

const replay: ScheduleReplayView = {
  label: 'REPLAY',
  date: '2026-10-10',
  cutoff: '2026-10-10T11:00:00.000Z',
  original: { runId: 1, report: { ...report('ORIGINAL: hold'), runId: 1 } },
  replay: {
    report: report('REPLAYED: hold'),
    answer: 'Held.',
    stop: 'answered',
    rounds: 3,
    toolCalls: [{ name: 'fetch', isError: true, result: '[FETCH FAILED | economic | as_of] start 2026-10-15 is after 2026-10-10', refusedAsOf: true }],
    error: null,
  },
  since: {
    outcomes: [
      { id: 'OUT-900', expression: 'E-900', title: 'stopped', recordedAt: '2026-10-25T20:00:00Z', hit: false, pnl: '−25 bp of NAV', exitReason: 'stop' },
    ],
    fired: [{ viewId: 'V-900', text: 'Two payroll prints above 200k.', matched: true, reportedAt: '2026-10-18T11:00:00Z', runId: 2 }],
  },
  memory: { records: 12, earlierVersions: 1, leftOut: [] },
  notes: ['FRED vintages unavailable without a key: economic series come without their realtime dates (add a FRED key in Settings → Data).'],
};

describe('the replay beside the original', () => {
  it('labels the replay REPLAY and sets it beside what was said that morning and what happened since', () => {
    const t = text(renderToStaticMarkup(<ReplayColumns replay={replay} />));
    // Without the label a PM could take a replay for what the analyst actually said that morning.
    expect(t).toContain('|REPLAY| of the morning of 2026-10-10');
    expect(t).toContain('Not written to memory');
    const columns = ['Said now, as of then', 'Said that morning', 'What happened since'].map((h) => t.indexOf(h));
    expect(columns.every((i) => i >= 0)).toBe(true);
    expect(columns).toEqual([...columns].sort((a, b) => a - b));
    expect(t.indexOf('REPLAYED: hold')).toBeLessThan(columns[1]!);
    expect(t.indexOf('ORIGINAL: hold')).toBeGreaterThan(columns[1]!);
    expect(t).toContain('E-900|: recorded 2026-10-25 · missed · −25 bp of NAV · closed on stop');
    expect(t).toContain('2026-10-18 · V-900: Two payroll prints above 200k.');
    expect(t).toContain('Refused as after 2026-10-10');
    expect(t).toContain('FRED vintages unavailable without a key');
  });

  it('says so when no report was saved that morning', () => {
    const t = text(renderToStaticMarkup(<ReplayColumns replay={{ ...replay, original: null }} />));
    expect(t).toContain('No morning review report was saved that day.');
    expect(replayRequestLabel({ runId: 4 })).toBe('the morning review of run 4');
    expect(replayRequestLabel({ date: '2026-10-10' })).toBe('the morning of 2026-10-10');
    expect(replayOutcomeLine({ recordedAt: '2026-10-25T00:00:00Z', hit: null, pnl: null, exitReason: null })).toBe('recorded 2026-10-25 · unresolved');
  });
});
