import { describe, expect, it } from 'vitest';
import { bondRisk, curveDv01 } from './bond-risk';
import { zeroCurve } from './bootstrap';

const HULL = { maturity: 3, coupon: 0.1, frequency: 2 };

describe('bond risk: duration, DV01, convexity', () => {
  it('Hull, 10th ed., §4.8 (Table 4.6): 3-year 10% semiannual bond at 12% continuous → price 94.213, duration 2.653 years', () => {
    // PV of 5 at 0.5..2.5y and 105 at 3y at e^{−0.12t}: 4.709 + 4.435 + 4.176 + 3.933 + 3.704 + 73.256 = 94.213;
    // Σ t·PV / P = 249.948 / 94.213 = 2.653.
    const r = bondRisk(HULL, 0.12, 'continuous');
    expect(r.price).toBeCloseTo(94.213, 3);
    expect(r.macaulayDuration).toBeCloseTo(2.653, 3);
    expect(r.modifiedDuration).toBe(r.macaulayDuration);
    // DV01 = D·P·1bp = 2.653 × 94.213 × 0.0001 = 0.02499
    expect(r.dv01).toBeCloseTo(0.025, 4);
  });

  it('Hull, §4.9: the same bond at the equivalent 12.3673% semiannual yield has modified duration 2.653 / 1.061837 = 2.4985', () => {
    const y = 2 * Math.expm1(0.06); // 12.3673%
    const r = bondRisk(HULL, y, 'semiannual');
    expect(r.price).toBeCloseTo(94.213, 3);
    expect(r.modifiedDuration).toBeCloseTo(2.4985, 4);
  });

  it('DV01 and convexity agree with bumping the yield (central differences)', () => {
    for (const comp of ['continuous', 'annual', 'semiannual', 'quarterly'] as const) {
      const bond = { maturity: 10, coupon: 0.045, frequency: 2 };
      const h = 1e-5;
      const up = bondRisk(bond, 0.05 + h, comp).price;
      const down = bondRisk(bond, 0.05 - h, comp).price;
      const r = bondRisk(bond, 0.05, comp);
      expect(r.dv01).toBeCloseTo(((down - up) / (2 * h)) * 1e-4, 8);
      expect(r.convexity).toBeCloseTo((up + down - 2 * r.price) / (h * h) / r.price, 2);
    }
  });

  it('on a flat continuous curve, the parallel-shift DV01 equals the yield DV01', () => {
    const curve = zeroCurve([0.5, 30], [0.04, 0.04]);
    const viaCurve = curveDv01(curve, { maturity: 7, coupon: 0.03 });
    const viaYield = bondRisk({ maturity: 7, coupon: 0.03 }, 0.04, 'continuous');
    expect(viaCurve.price).toBeCloseTo(viaYield.price, 10);
    expect(viaCurve.dv01).toBeCloseTo(viaYield.dv01, 5);
  });

  it('refuses a yield typed as a percent', () => {
    expect(() => bondRisk(HULL, 12)).toThrow(/yield is 12; give it as a decimal/);
  });
});
