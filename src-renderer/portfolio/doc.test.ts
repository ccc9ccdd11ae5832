import { describe, expect, it } from 'vitest';
import { field, fieldValue, limitRows, splitDoc, usedShare } from './doc';

// The demo workspace's files as shipped in resources/seed/portfolio/ (renderer tests cannot read disk).
const files: Record<string, string> = {
  'state.md': '# state — Demo portfolio state\nsource: demo\nas_of: 2026-11-20\nnav_musd: 500\ngross: 142.5\nnet: 38.0\nduration: 3.1\nrisk_budget_used: 0.62\n---\n## SUMMARY\nDemo book.\n\n## EXPOSURES\n| bucket | gross % NAV |\n|---|---|\n| US rates | 48.0 |\n',
  'constraints.md': '# constraints — Demo risk limits\nsource: demo\nmax_single_risk: 5.0\nmax_gross: 200.0\nmax_duration: 5.0\nmax_factor_concentration: 30.0\n---\n## SUMMARY\nHard limits.\n',
};
const seed = (name: string) => files[name];

describe('portfolio files', () => {
  it('reads the demo state header: title, gross, NAV and the source label', () => {
    const doc = splitDoc(seed('state.md'));
    expect(doc.title).toBe('Demo portfolio state');
    expect(field(doc, 'gross')).toBe('142.5');
    expect(field(doc, 'nav_musd')).toBe('500');
    expect(field(doc, 'source')).toBe('demo');
    expect(doc.body).toContain('## EXPOSURES');
    expect(doc.body).not.toContain('nav_musd');
  });

  it('shows the limits the core enforces, with gross measured against the book', () => {
    const inForce = {
      limits: { maxSingleRisk: 5, maxGross: 200, maxDuration: 5, maxFactorConcentration: 30 },
      fromConstraints: { maxSingleRisk: true, maxGross: true, maxDuration: true, maxFactorConcentration: true },
    };
    const rows = limitRows(inForce, splitDoc(seed('state.md')));
    expect(rows.map((r) => [r.key, r.limit, r.fromFile])).toEqual([
      ['max_single_risk', 5, true], ['max_gross', 200, true], ['max_duration', 5, true], ['max_factor_concentration', 30, true],
    ]);
    const gross = rows.find((r) => r.key === 'max_gross')!;
    expect(gross.now).toBe(142.5);
    expect(usedShare(gross)).toBeCloseTo(0.7125, 4);
    expect(usedShare(rows[0])).toBeNull();
  });

  it('says which limits come from constraints.md and which are defaults, and shows nothing before the core answers', () => {
    const inForce = {
      limits: { maxSingleRisk: 3, maxGross: 200, maxDuration: 5, maxFactorConcentration: 30 },
      fromConstraints: { maxSingleRisk: true, maxGross: false, maxDuration: false, maxFactorConcentration: false },
    };
    expect(limitRows(inForce, null).map((r) => [r.key, r.limit, r.fromFile, r.now])).toEqual([
      ['max_single_risk', 3, true, null], ['max_gross', 200, false, null], ['max_duration', 5, false, null], ['max_factor_concentration', 30, false, null],
    ]);
    expect(limitRows(null, null)).toEqual([]);
  });

  it('treats a file without a header as all body', () => {
    expect(splitDoc('just notes')).toEqual({ title: '', fields: [], body: 'just notes' });
    expect(fieldValue('risk_budget_used', '0.62')).toBe('62%');
  });
});
