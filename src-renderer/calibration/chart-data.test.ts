import { describe, expect, it } from 'vitest';
import type { CalibrationView } from '../../src-main/api/calibration';
import {
  bandBiasWords,
  biasWords,
  brierSeries,
  categoryLabel,
  largestBand,
  monthLabel,
  pointRadius,
  reliabilityDescription,
  reliabilityPoints,
  figureRows,
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
  biasInterval: { lo: stated - realised - 0.05, hi: stated - realised + 0.05 },
  sparse: n < 5,
});

const noStats = { decomposition: null, recalibration: null, verdict: { kind: 'not_enough' as const, text: 'not enough resolved forecasts yet' } };

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
  ...noStats,
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

  it('below 0.5 names the departure toward No: a 0.2 that comes true 40% is too extreme, one that comes true 5% too timid', () => {
    expect(biasWords(0.2 - 0.4, 0.2)).toBe('−20 pts too extreme toward No');
    expect(biasWords(0.2 - 0.05, 0.2)).toBe('+15 pts too timid toward No');
  });

  it('a band whose interval holds 0 is "within noise", a sparse one "too few to judge" — never over/underconfident', () => {
    expect(bandBiasWords({ ...band('0.6–0.7', 400, 0.65, 0.63), biasInterval: { lo: -0.01, hi: 0.05 } })).toBe('+2 pts (within noise)');
    expect(bandBiasWords(band('0.8–0.9', 3, 0.85, 0.33))).toBe('too few to judge');
    expect(bandBiasWords(band('0.8–0.9', 300, 0.85, 0.67))).toBe('+18 pts overconfident');
  });

  it('lists the decomposition and the slope with their 95% intervals', () => {
    const rows = figureRows(
      {
        n: 100,
        brier: 0.2,
        reliability: 0.01,
        resolution: 0.05,
        uncertainty: 0.24,
        withinBin: 0,
        baseRate: 0.6,
        intervals: { brier: { lo: 0.18, hi: 0.22 }, reliability: { lo: 0, hi: 0.02 }, resolution: { lo: 0.03, hi: 0.07 }, uncertainty: { lo: 0.23, hi: 0.25 } },
      },
      { intercept: 0, interceptInterval: { lo: -0.1, hi: 0.1 }, slope: 0.5, slopeInterval: { lo: 0.4, hi: 0.6 }, iterations: 5 },
    );
    expect(rows.map((r) => [r.name, r.value, r.interval])).toEqual([
      ['Brier score', '0.200', '0.180 to 0.220'],
      ['Reliability', '0.010', '0.000 to 0.020'],
      ['Resolution', '0.050', '0.030 to 0.070'],
      ['Uncertainty', '0.240', '0.230 to 0.250'],
      ['Calibration slope', '0.50', '0.40 to 0.60'],
      ['Calibration intercept', '0.00', '-0.10 to 0.10'],
    ]);
  });

  it('quotes the worst band with its category, figures, interval and count', () => {
    expect(worstLine({ ...band('0.8–0.9', 12, 0.85, 0.67), category: 'thematic' })).toBe(
      'Thematic, 0.8–0.9 band: stated 85%, hit 67% (+18 pts overconfident; 95% +13 pts to +23 pts, n=12).',
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
