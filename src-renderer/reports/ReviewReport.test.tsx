import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ReviewReportView } from '../../src-main/api/schedule';
import { formatChange, formatLevel, headline } from './model';
import { ReviewReport } from './ReviewReport';

const text = (html: string) => html.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|');

const report: ReviewReportView = {
  runId: 7,
  sessionId: 'sess_1',
  at: '2026-11-20T12:00:00.000Z',
  since: '2026-11-19T12:00:00.000Z',
  sinceSource: 'previous_review',
  parsed: true,
  views: [
    {
      id: 'V-001',
      title: 'Fed cuts twice more',
      status: 'active',
      moves: [
        {
          instrument: 'ust_yields.sofr_2y_swap',
          expressions: ['E-001'],
          kind: 'yield',
          from: { date: '2026-11-18', value: 3.379 },
          to: { date: '2026-11-20', value: 3.362 },
          change: -1.7,
          unit: 'bp',
          asOf: '2026-11-20',
          source: 'csv ust_yields',
        },
      ],
      missing: [],
      invalidationsFired: [
        { text: 'Two consecutive payroll prints above 200k.', matched: true },
        { text: 'Wages disappointed', matched: false },
      ],
      action: 'review',
      note: 'Second print above 200k.',
    },
    {
      id: 'V-002',
      title: 'Euro area consumer stalls',
      status: 'active',
      moves: [],
      missing: [{ expression: 'E-002', why: 'it names no price series' }],
      invalidationsFired: [],
      action: 'hold',
      note: null,
    },
  ],
  warnings: ['V-001: "Wages disappointed" is not one of its invalidation conditions.'],
};

describe('the morning review report table', () => {
  it('shows per View the move (from → to, change, as of), fired conditions highlighted, the unmatched one marked, action and note', () => {
    const html = renderToStaticMarkup(<ReviewReport report={report} />);
    const rows = html.split('data-testid="review-report-row"').slice(1);
    expect(rows).toHaveLength(2);
    expect(text(rows[0]!)).toContain('|ust_yields.sofr_2y_swap| 3.379% → 3.362% |−1.7 bp| |as of 2026-11-20|');
    expect(rows[0]).toMatch(/^ data-view="V-001" data-fired="true" class="is-fired"/);
    expect([...html.matchAll(/data-testid="review-report-fired" data-matched="(true|false)"/g)].map((m) => m[1])).toEqual(['true', 'false']);
    expect(text(rows[0]!)).toContain('|Wages disappointed|not in the View&#x27;s conditions|');
    expect(text(rows[0]!)).toContain('|Review|');
    expect(text(rows[0]!)).toContain('|Second print above 200k.|');
    // A View with nothing to measure says why, and is not highlighted.
    expect(text(rows[1]!)).toContain('E-002: not measured — it names no price series');
    expect(rows[1]).toMatch(/^ data-view="V-002" data-fired="false">/);
    expect(html).toContain('data-fired="2"');
    expect(text(html)).toContain('|2 invalidation conditions fired (V-001)|');
    expect(text(html)).toContain('|Warnings|V-001: &quot;Wages disappointed&quot; is not one of its invalidation conditions.|');
  });

  it('a report without the analyst’s verdict says so instead of claiming nothing fired', () => {
    expect(headline({ parsed: false, views: [] })).toBe('No structured verdict in the answer — moves only');
    expect(headline({ parsed: true, views: [] })).toBe('No invalidation condition fired');
  });

  it('formats levels and changes in the series’ own units', () => {
    expect(formatLevel('spread', 38)).toBe('38 bp');
    expect(formatLevel('price', 149.9)).toBe('149.9');
    expect(formatChange({ change: 0.308, unit: '%' })).toBe('+0.308%');
    expect(formatChange({ change: 0, unit: 'bp' })).toBe('±0 bp');
  });
});
