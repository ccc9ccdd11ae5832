import { describe, expect, it } from 'vitest';
import { invalidationBullets, type ViewMoves } from './review-moves';
import { buildReviewReport, parseReviewReport, reviewNotice, stripReportBlock } from './review-report';

/** The seed's V-001 and V-003 INVALIDATION bullets, as the parser receives them. */
const VIEWS: Pick<ViewMoves, 'id' | 'invalidation'>[] = [
  {
    id: 'V-001',
    invalidation: [
      'Two consecutive payroll prints above 200k.',
      'Core PCE above 0.3% m/m for two months.',
      "ECB signals a further cut before the Fed's next meeting.",
    ],
  },
  { id: 'V-003', invalidation: ['Spring wage round below 3%.', 'BoJ guidance drops the reference to further adjustment.'] },
];

const answer = (json: string) => `V-001 needs a look after the payroll print.\n\n\`\`\`json\n${json}\n\`\`\`\n`;

describe('parseReviewReport', () => {
  it('reads a valid block: the fired condition is the View’s own bullet even when the model changed its case and spacing', () => {
    const r = parseReviewReport(
      answer(
        JSON.stringify({
          views: [
            { id: 'V-001', invalidations_fired: ['two consecutive   payroll prints above 200K'], action: 'review', note: 'Second print above 200k.' },
            { id: 'v-003', invalidations_fired: [], action: 'hold' },
          ],
        }),
      ),
      VIEWS,
    );
    expect(r).toEqual({
      parsed: true,
      views: [
        {
          id: 'V-001',
          invalidationsFired: [{ text: 'Two consecutive payroll prints above 200k.', matched: true }],
          action: 'review',
          note: 'Second print above 200k.',
        },
        { id: 'V-003', invalidationsFired: [], action: 'hold', note: null },
      ],
      warnings: [],
    });
  });

  it('drops a View that is not live in this review, with a warning naming it', () => {
    const r = parseReviewReport(
      answer('{"views":[{"id":"V-006","invalidations_fired":["x"],"action":"retire"},{"id":"V-003","invalidations_fired":[],"action":"hold"}]}'),
      VIEWS,
    );
    expect(r.parsed).toBe(true);
    expect(r.views.map((v) => v.id)).toEqual(['V-003']);
    expect(r.warnings).toEqual(['The report names V-006, which is not a live View of this review; its entry was dropped.']);
  });

  it('keeps a condition that is not among the View’s bullets, marked unmatched, and warns', () => {
    const r = parseReviewReport(answer('{"views":[{"id":"V-003","invalidations_fired":["Wages disappointed"],"action":"review","note":"n"}]}'), VIEWS);
    expect(r.views[0]!.invalidationsFired).toEqual([{ text: 'Wages disappointed', matched: false }]);
    expect(r.warnings).toEqual(['V-003: "Wages disappointed" is not one of its invalidation conditions.']);
  });

  it('an unknown action loses only the action, not the conditions that fired', () => {
    const r = parseReviewReport(answer('{"views":[{"id":"V-003","invalidations_fired":["Spring wage round below 3%"],"action":"close"}]}'), VIEWS);
    expect(r.views[0]).toMatchObject({ action: null, invalidationsFired: [{ text: 'Spring wage round below 3%.', matched: true }] });
    expect(r.warnings[0]).toContain('action "close" is not one of hold, review, retire, update');
  });

  it('malformed JSON is parsed: false with a warning, never a throw', () => {
    const r = parseReviewReport(answer('{"views":[{"id":"V-001",]}'), VIEWS);
    expect(r.parsed).toBe(false);
    expect(r.views).toEqual([]);
    expect(r.warnings[0]).toMatch(/^The report block is not valid JSON/);
    const wrongShape = parseReviewReport(answer('[1, 2]'), VIEWS);
    expect(wrongShape).toMatchObject({ parsed: false, warnings: ['The report block has no "views" list; nothing was recorded from it.'] });
  });

  it('a missing block is parsed: false with a warning; the moves-only report announces that', () => {
    const r = parseReviewReport('Nothing moved overnight.', VIEWS);
    expect(r).toEqual({ parsed: false, views: [], warnings: ['The answer has no ```json report block, so no invalidation conditions were recorded.'] });
    const report = buildReviewReport({
      sessionId: 's',
      at: new Date('2026-11-20T12:00:00Z'),
      since: new Date('2026-11-19T12:00:00Z'),
      sinceSource: 'default_24h',
      moves: VIEWS.map((v) => ({ ...v, title: v.id, status: 'active', moves: [], missing: [] })),
      answer: 'Nothing moved overnight.',
    });
    expect(report.views.map((v) => [v.id, v.action, v.invalidationsFired])).toEqual([
      ['V-001', null, []],
      ['V-003', null, []],
    ]);
    expect(reviewNotice(report)).toEqual({ level: 'info', message: 'Morning review finished without its structured report; read the answer in its session.' });
  });

  it('reads the last block and strips it from the prose the run summary shows', () => {
    const text = 'Prose.\n```json\n{"views":[]}\n```\nMore prose.\n```json\n{"views":[{"id":"V-001","invalidations_fired":[],"action":"hold"}]}\n```';
    expect(parseReviewReport(text, VIEWS).views.map((v) => v.action)).toEqual(['hold']);
    expect(stripReportBlock(text)).toBe('Prose.\n```json\n{"views":[]}\n```\nMore prose.');
  });
});

describe('invalidationBullets', () => {
  it('reads each bullet of the INVALIDATION section; a wrapped line stays part of its condition', () => {
    const body =
      '## SUMMARY\nx\n\n## INVALIDATION\n- Two consecutive payroll prints\n  above 200k.\n* Core PCE above 0.3% m/m.\n\n## EVIDENCE\n- not a condition\n';
    expect(invalidationBullets(body)).toEqual(['Two consecutive payroll prints above 200k.', 'Core PCE above 0.3% m/m.']);
    expect(invalidationBullets('## SUMMARY\nno conditions written\n')).toEqual([]);
  });
});
