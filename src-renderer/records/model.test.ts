import { describe, expect, it } from 'vitest';
import type { ReviewReportView } from '../../src-main/api/schedule';
import { conditionStates, confidenceSeries, invalidationConditions, parseScenarios, probabilityTotal, sizingFields } from './model';
import { recordPageOf } from './route';

const v001 = `## SUMMARY
Two more cuts.

## SCENARIOS
- Base (60%): two 25bp Fed cuts by March; 2y UST falls 40-50bp; EUR rates flat.
- Bull (20%): a weak payroll print brings a 50bp cut; 2y falls 70bp+.
- Bear (20%): inflation re-accelerates; Fed pauses; 2y rises 25bp.

## INVALIDATION
- Two consecutive payroll prints above 200k.
- Core PCE above 0.3% m/m for two months.
- ECB signals a further cut
  before the Fed's next meeting.

## EVIDENCE
Claims trend.`;

describe('scenarios and probabilities from a View', () => {
  it('reads each scenario’s name, probability and text (the bars the PM sees)', () => {
    expect(parseScenarios(v001)).toEqual([
      { name: 'Base', probability: 60, text: 'two 25bp Fed cuts by March; 2y UST falls 40-50bp; EUR rates flat.' },
      { name: 'Bull', probability: 20, text: 'a weak payroll print brings a 50bp cut; 2y falls 70bp+.' },
      { name: 'Bear', probability: 20, text: 'inflation re-accelerates; Fed pauses; 2y rises 25bp.' },
    ]);
    expect(probabilityTotal(parseScenarios(v001))).toEqual({ total: 100, off: false });
  });

  it('reads other ways analysts write them, and keeps a scenario with no number without inventing one', () => {
    const body = '## SCENARIOS\n- **Soft landing**: 55% — growth holds\n- Recession (p=0.3): claims spike\n- Tail: something else\n';
    const s = parseScenarios(body);
    expect(s.map((x) => [x.name, x.probability])).toEqual([
      ['Soft landing', 55],
      ['Recession', 30],
      ['Tail', null],
    ]);
    expect(s[0]!.text).toBe('growth holds');
    // 85% stated: the PM is told the probabilities do not add up.
    expect(probabilityTotal(s)).toEqual({ total: 85, off: true });
  });

  it('finds nothing when the View has no SCENARIOS section', () => {
    expect(parseScenarios('## SUMMARY\n- Base (60%): not a scenario list')).toEqual([]);
  });
});

describe('confidence over versions', () => {
  it('runs oldest to newest and ends at the current confidence, skipping versions without one', () => {
    const versions = [
      { archivePath: '/a/3', archivedAt: '2026-03-01T00:00:00Z', contentHash: 'c', title: 't', status: 'active', confidence: 0.6 },
      { archivePath: '/a/2', archivedAt: '2026-02-01T00:00:00Z', contentHash: 'b', title: 't', status: 'active', confidence: null },
      { archivePath: '/a/1', archivedAt: '2026-01-01T00:00:00Z', contentHash: 'a', title: 't', status: 'active', confidence: 0.5 },
    ];
    expect(confidenceSeries(versions, { confidence: 0.7, updatedAt: '2026-04-01T00:00:00Z' })).toEqual([
      { at: '2026-01-01T00:00:00Z', confidence: 0.5, label: 'version 1' },
      { at: '2026-03-01T00:00:00Z', confidence: 0.6, label: 'version 2' },
      { at: '2026-04-01T00:00:00Z', confidence: 0.7, label: 'current' },
    ]);
  });
});

const report = (at: string, fired: { text: string; matched: boolean }[], parsed = true): ReviewReportView => ({
  runId: 7,
  sessionId: null,
  at,
  since: at,
  sinceSource: 'default_24h',
  parsed,
  views: [{ id: 'V-001', title: 'x', status: 'active', moves: [], missing: [], invalidationsFired: fired, action: 'review', note: null }],
  warnings: [],
});

describe('invalidation conditions and their state', () => {
  const conditions = invalidationConditions(v001, {});

  it('reads the INVALIDATION bullets, folding a wrapped line into its bullet', () => {
    expect(conditions).toEqual([
      'Two consecutive payroll prints above 200k.',
      'Core PCE above 0.3% m/m for two months.',
      "ECB signals a further cut before the Fed's next meeting.",
    ]);
    expect(invalidationConditions('## SUMMARY\nx', { invalidation: ['Oil above 100'] })).toEqual(['Oil above 100']);
  });

  it('says "not evaluated yet" for every condition when no morning review has covered the View', () => {
    const s = conditionStates('V-001', conditions, []);
    expect(s.conditions.map((c) => c.state)).toEqual(['unknown', 'unknown', 'unknown']);
    expect(s.conditions[0]!.basis).toMatch(/Not evaluated yet/);
  });

  it('takes the newest review that covered the View: fired, not fired, and a fired condition that is not the View’s own', () => {
    const older = report('2026-03-01T07:00:00Z', [{ text: 'Core PCE above 0.3% m/m for two months', matched: true }]);
    const newer = report('2026-03-02T07:00:00Z', [
      { text: '- two consecutive payroll prints above 200k', matched: true },
      { text: 'Oil spikes', matched: false },
    ]);
    const s = conditionStates('V-001', conditions, [older, newer]);
    expect(s.conditions.map((c) => c.state)).toEqual(['fired', 'not_fired', 'not_fired']);
    expect(s.conditions[0]!.basis).toBe('Fired in the morning review of 2026-03-02.');
    expect(s.extra).toEqual(['Oil spikes']);
    expect(s.reviewedAt).toBe('2026-03-02T07:00:00Z');
  });

  it('does not claim "not fired" from a review whose report could not be read', () => {
    const s = conditionStates('V-001', conditions, [report('2026-03-02T07:00:00Z', [], false)]);
    expect(s.conditions.map((c) => c.state)).toEqual(['unknown', 'unknown', 'unknown']);
  });
});

describe('sizing fields', () => {
  it('lists the known sizing fields in order, marks numbers, and keeps other risk fields', () => {
    const f = sizingFields({
      status: 'active',
      view_id: 'V-001',
      notional: 12,
      max_loss_pct: 1.2,
      instrument: 'USD 2y SOFR swap',
      factor: 'us_rates',
      dv01_usd: 'n/a',
      duration_impact: 1.1,
    });
    expect(f.map((x) => [x.key, x.value, x.numeric])).toEqual([
      ['instrument', 'USD 2y SOFR swap', false],
      ['notional', '12', true],
      ['max_loss_pct', '1.2', true],
      ['duration_impact', '1.1', true],
      ['factor', 'us_rates', false],
      ['dv01_usd', 'n/a', false],
    ]);
  });
});

describe('the record page route', () => {
  it('opens the full page for a bare id, and leaves the pane’s file-name route to the list screen', () => {
    expect(recordPageOf({ screen: 'views', rest: ['V-001'] })).toEqual({ kind: 'view', id: 'V-001' });
    expect(recordPageOf({ screen: 'expressions', rest: ['E-004'] })).toEqual({ kind: 'expression', id: 'E-004' });
    expect(recordPageOf({ screen: 'views', rest: ['V-001.md'] })).toBeNull();
    expect(recordPageOf({ screen: 'views', rest: ['E-004'] })).toBeNull();
    expect(recordPageOf({ screen: 'home', rest: ['V-001'] })).toBeNull();
  });
});
