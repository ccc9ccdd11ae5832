import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svenssonCurve } from './svensson';

/**
 * Svensson curves checked against the Federal Reserve's own published numbers (GSW dataset, two
 * days of 2026; fixtures/README.md): from BETA0..TAU2 alone, every zero (SVENY), instantaneous
 * forward (SVENF), par (SVENPY) and one-year forward par (SVEN1F) yield must round to the value
 * the Fed printed. If this failed, a PM pasting the Fed's parameters would read par or forward
 * yields a few basis points off the official curve — and price swaps or bonds off them.
 */

const csv = readFileSync(join(__dirname, 'fixtures', 'gsw-feds200628-2026.csv'), 'utf8')
  .trim()
  .split('\n');
const header = csv[0]!.split(',');
const days = csv.slice(1).map((line) => {
  const cells = line.split(',');
  const row = Object.fromEntries(header.map((h, i) => [h, cells[i]!]));
  const pct = (k: string) => Number(row[k]) / 100;
  return {
    date: row.Date!,
    params: { beta0: pct('BETA0'), beta1: pct('BETA1'), beta2: pct('BETA2'), beta3: pct('BETA3'), tau1: Number(row.TAU1), tau2: Number(row.TAU2) },
    /** The published value in percent, as printed (4 decimals). */
    published: (k: string) => Number(row[k]),
  };
});

/** In percent, rounded as the Fed rounds: the printed value must be what we round to (±half a unit of the last digit). */
const within = (ours: number, printed: number) => expect(Math.abs(ours * 100 - printed)).toBeLessThanOrEqual(0.00005 + 1e-9);

describe('Svensson curve from GSW parameters', () => {
  it('has two full published days to check against', () => {
    expect(days.map((d) => d.date)).toEqual(['2026-01-30', '2026-03-06']);
  });

  for (const day of days) {
    it(`${day.date}: zero yields SVENY01–30 and instantaneous forwards SVENF01–30`, () => {
      const c = svenssonCurve(day.params);
      for (let n = 1; n <= 30; n++) {
        const k = String(n).padStart(2, '0');
        within(c.zero(n), day.published(`SVENY${k}`));
        within(c.forward(n), day.published(`SVENF${k}`));
      }
    });

    it(`${day.date}: par yields SVENPY01–30 (semiannual coupons, coupon-equivalent)`, () => {
      const c = svenssonCurve(day.params);
      for (let n = 1; n <= 30; n++) within(c.parYield(n, 2), day.published(`SVENPY${String(n).padStart(2, '0')}`));
    });

    it(`${day.date}: one-year forward par yields SVEN1F01, 04, 09 (a 1-year bond starting in 1, 4, 9 years)`, () => {
      const c = svenssonCurve(day.params);
      for (const start of [1, 4, 9]) within(c.forwardParYield(start, 1, 2), day.published(`SVEN1F${String(start).padStart(2, '0')}`));
      // The continuously compounded 1y forward, converted, is NOT what GSW print: the convention matters.
      const cc = (c.zero(10) * 10 - c.zero(9) * 9) / 1;
      expect(Math.abs(2 * Math.expm1(cc / 2) * 100 - day.published('SVEN1F09'))).toBeGreaterThan(0.0002);
    });
  }

  it('a Nelson–Siegel day (β3 = 0, τ2 the −999.99 placeholder) ignores τ2', () => {
    const c = svenssonCurve({ beta0: 0.039176, beta1: -0.01278, beta2: -0.019494, beta3: 0, tau1: 0.33922, tau2: -999.99 });
    // GSW, 1961-06-14 (NS only): SVENY01 2.9825, SVENF07 3.9176 — parameters printed to 5 significant digits.
    expect(c.zero(1) * 100).toBeCloseTo(2.9825, 3);
    expect(c.forward(7) * 100).toBeCloseTo(3.9176, 3);
  });

  it('accepts the large offsetting humps GSW fits when τ1 ≈ τ2 (early 1987: β2 −620.33%, β3 +618.06%)', () => {
    // A GSW row of early 1987 as MathWorks' ACM term-premium example displays it (5 significant
    // digits, SVENY02 6.3105%); rounding β2 and β3 to 5 digits alone moves y(2) by ~0.2bp.
    const c = svenssonCurve({ beta0: 0.088124, beta1: -0.032289, beta2: -6.2033, beta3: 6.1806, tau1: 2.0111, tau2: 2.0066 });
    expect(Math.abs(c.zero(2) * 100 - 6.3105)).toBeLessThan(0.005);
  });

  it('refuses betas given in percent and a non-positive tau', () => {
    expect(() => svenssonCurve({ beta0: 3.9, beta1: -1, beta2: 0, beta3: 0, tau1: 1, tau2: 10 })).toThrow(/give the betas as decimals/);
    expect(() => svenssonCurve({ beta0: 0.5, beta1: 0.8, beta2: 0, beta3: 0, tau1: 1, tau2: 10 })).toThrow(/short rate β0 \+ β1 = 1\.3 is beyond ±100%/);
    expect(() => svenssonCurve({ beta0: 0.04, beta1: -0.01, beta2: 0, beta3: 0.01, tau1: 1, tau2: 0 })).toThrow(/tau2 must be greater than 0/);
  });
});
