import { describe, expect, it } from 'vitest';
import { field, fieldValue, figure, limitRows, splitDoc, usedShare } from './doc';

// The demo workspace's files as shipped in resources/seed/portfolio/ (renderer tests cannot read disk).
const files: Record<string, string> = {
  'state.md':
    '# state — Demo portfolio state\nsource: demo\nas_of: 2026-11-20\nnav_musd: 500\ngross: 142.5\nnet: 38.0\nduration: 3.1\nrisk_budget_used: 0.62\n---\n## SUMMARY\nDemo book.\n\n## EXPOSURES\n| bucket | gross % NAV |\n|---|---|\n| US rates | 48.0 |\n',
  'constraints.md':
    '# constraints — Demo risk limits\nsource: demo\nmax_single_risk: 5.0\nmax_gross: 200.0\nmax_duration: 5.0\nmax_factor_concentration: 30.0\n---\n## SUMMARY\nHard limits.\n',
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

  it('shows the limits the core enforces, each against the computed book figure the core reports', () => {
    const inForce = {
      limits: { maxSingleRisk: 5, maxGross: 200, maxDuration: 5, maxFactorConcentration: 30 },
      fromConstraints: { maxSingleRisk: true, maxGross: true, maxDuration: true, maxFactorConcentration: true },
      usage: [
        { rule: 'max_gross_exposure' as const, value: 142.5, limit: 200 },
        { rule: 'max_factor_concentration' as const, value: 28.77, limit: 30, detail: 'fx' },
        { rule: 'max_single_risk' as const, value: 1.2, limit: 5, detail: 'E-001' },
      ],
    };
    const rows = limitRows(inForce);
    expect(rows.map((r) => [r.key, r.limit, r.fromFile, r.now, r.detail])).toEqual([
      ['max_single_risk', 5, true, 1.2, 'E-001'],
      ['max_gross', 200, true, 142.5, null],
      ['max_duration', 5, true, null, null],
      ['max_factor_concentration', 30, true, 28.77, 'fx'],
    ]);
    expect(usedShare(rows[1]!)).toBeCloseTo(0.7125, 4);
    expect(usedShare(rows[2]!)).toBeNull();
  });

  it('says which limits come from constraints.md and which are defaults, and shows nothing before the core answers', () => {
    const inForce = {
      limits: { maxSingleRisk: 3, maxGross: 200, maxDuration: 5, maxFactorConcentration: 30 },
      fromConstraints: { maxSingleRisk: true, maxGross: false, maxDuration: false, maxFactorConcentration: false },
    };
    expect(limitRows(inForce).map((r) => [r.key, r.limit, r.fromFile, r.now])).toEqual([
      ['max_single_risk', 3, true, null],
      ['max_gross', 200, false, null],
      ['max_duration', 5, false, null],
      ['max_factor_concentration', 30, false, null],
    ]);
    expect(limitRows(null)).toEqual([]);
  });

  it('writes figures with fixed decimals and a real minus sign', () => {
    expect([figure(142.5), figure(-25), figure(null), figure(28.7719, 2)]).toEqual(['142.5', '−25.0', '—', '28.77']);
  });

  it('treats a file without a header as all body', () => {
    expect(splitDoc('just notes')).toEqual({ title: '', fields: [], body: 'just notes' });
    expect(fieldValue('risk_budget_used', '0.62')).toBe('62%');
  });
});
