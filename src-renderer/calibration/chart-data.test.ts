import { describe, expect, it } from 'vitest';
import type { CalibrationView } from '../../src-main/api/calibration';
import {
  biasWords,
  brierSeries,
  categoryLabel,
  largestBand,
  monthLabel,
  pointRadius,
  reliabilityDescription,
  reliabilityPoints,
  trackingLines,
  worstLine,
} from './chart-data';

const band = (b: string, n: number, stated: number, realised: number) => ({
  band: b,
  lower: Number(b.slice(0, 3)),
  upper: Number(b.slice(-3)),
  n,
  counterfactuals: 0,
  stated,
  realised,
  bias: stated - realised,
  brier: 0.2,
});

const thematic: CalibrationView['categories'][number] = {
  category: 'thematic',
  n: 52,
  counterfactuals: 4,
  stated: 0.72,
  realised: 0.6,
  bias: 0.12,
  brier: 0.21,
  bands: [band('0.0–0.5', 0, 0, 0), band('0.6–0.7', 40, 0.65, 0.6), band('0.8–0.9', 12, 0.85, 0.67)],
  asOf: '2026-03-06',
};

describe('the reliability diagram', () => {
  it('plots one point per band with forecasts, at stated confidence against the hit rate', () => {
    const pts = reliabilityPoints(thematic.bands);
    // A band with no forecasts drawn at (0, 0) would read as "always wrong".
    expect(pts.map((p) => [p.band, p.x, p.y, p.n])).toEqual([
      ['0.6–0.7', 0.65, 0.6, 40],
      ['0.8–0.9', 0.85, 0.67, 12],
    ]);
  });

  it('sizes points by count, so a band of 40 outweighs a band of 12 on sight, within readable bounds', () => {
    const [big, small] = reliabilityPoints(thematic.bands);
    expect(big!.r).toBe(16);
    expect(small!.r).toBeGreaterThan(4);
    expect(small!.r).toBeLessThan(big!.r);
    expect(pointRadius(0, 40)).toBe(0);
    expect(pointRadius(1, 1)).toBe(16);
    // Sizes compare across categories: the same count gets the same size on every chart.
    expect(largestBand([thematic, { ...thematic, category: 'macro_regime', bands: [band('0.5–0.6', 90, 0.55, 0.5)] }])).toBe(90);
    expect(reliabilityPoints(thematic.bands, 90)[0]!.r).toBeLessThan(16);
  });

  it('describes every plotted band for a screen reader', () => {
    expect(reliabilityDescription(thematic)).toBe(
      'Thematic, stated confidence against realised hit rate. 0.6–0.7: stated 65%, hit 60%, n=40; 0.8–0.9: stated 85%, hit 67%, n=12',
    );
  });
});

describe('the Brier score over time', () => {
  it('makes one line per category over every month, overall first, with gaps left as gaps', () => {
    const { months, series } = brierSeries([
      { month: '2026-01', category: 'all', n: 10, brier: 0.2 },
      { month: '2026-01', category: 'thematic', n: 10, brier: 0.2 },
      { month: '2026-02', category: 'all', n: 5, brier: 0.18 },
      { month: '2026-02', category: 'macro_regime', n: 5, brier: 0.18 },
      { month: '2026-03', category: 'all', n: 8, brier: 0.15 },
      { month: '2026-03', category: 'thematic', n: 8, brier: 0.15 },
    ]);
    expect(months).toEqual(['2026-01', '2026-02', '2026-03']);
    expect(series.map((s) => s.category)).toEqual(['all', 'macro_regime', 'thematic']);
    // A month without exits is not a perfect 0: the line breaks there.
    expect(series[2]!.values).toEqual([0.2, null, 0.15]);
    expect(series[1]!.values).toEqual([null, 0.18, null]);
    expect(series[0]!.counts).toEqual([10, 5, 8]);
    expect(monthLabel('2026-03')).toBe('Mar 2026');
  });
});

describe('bias and the worst band in words', () => {
  it('says over- or underconfident in points', () => {
    expect(biasWords(0.18)).toBe('+18 pts overconfident');
    expect(biasWords(-0.05)).toBe('−5 pts underconfident');
    expect(biasWords(0.001)).toBe('on target');
  });

  it('quotes the worst band with its category, figures and count', () => {
    expect(worstLine({ ...band('0.8–0.9', 12, 0.85, 0.67), category: 'thematic' })).toBe(
      'Thematic, 0.8–0.9 band: stated 85%, hit 67% (+18 pts overconfident, n=12).',
    );
    expect(worstLine(null)).toBeNull();
    expect(categoryLabel('relative_value')).toBe('Relative value');
    expect(categoryLabel('new_kind')).toBe('New kind');
  });
});

describe('"Check exits now"', () => {
  it('lists what closed, what resolved and what could not be checked', () => {
    const lines = trackingLines({
      checked: 3,
      closed: [{ id: 'E-002', reason: 'stop' }],
      open: [{ id: 'E-004', series: 'spy.close (csv datasets/spy.csv), as of 2024-04-02' }],
      skipped: [{ id: 'E-005', reason: 'no market data for ZNM6' }],
      counterfactualsCompleted: ['CF-001'],
      counterfactualsExpired: [],
      calibrationFilesWritten: ['/memory/calibration/thematic.md'],
      summary: '1 closed',
    });
    expect(lines).toEqual([
      'Checked 3 active Expressions.',
      'Closed: E-002 (stop).',
      // Which file each open trade was checked against: without it "Check exits now" says nothing of what it read.
      'Still open, followed on: E-004 (spy.close (csv datasets/spy.csv), as of 2024-04-02).',
      'Counterfactuals resolved: CF-001.',
      'Not checked: E-005 (no market data for ZNM6).',
      'Calibration files rewritten: 1.',
    ]);
  });
});
