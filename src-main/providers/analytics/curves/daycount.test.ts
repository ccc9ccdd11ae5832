import { describe, expect, it } from 'vitest';
import { couponPosition, days360 } from './daycount';
import { priceFromYield, yieldFromPrice } from './yield';

/**
 * Bond dates → coupon schedule and accrual. If these failed, a PM entering a bond by its dates
 * (as on Bloomberg's YAS screen) would get a yield off by the accrued interest of days counted
 * under the wrong convention, or a coupon schedule a day off at month ends.
 */

const d = (s: string) => new Date(`${s}T00:00:00Z`);

describe('coupon schedule and day counts', () => {
  it("Excel's YIELD example by its dates: settle 2008-02-15, mature 2016-11-15, 30/360 → 18 coupons, half a period to the next, 6.5% at 95.04287", () => {
    const p = couponPosition('2008-02-15', '2016-11-15', 2, '30/360');
    expect(p).toEqual({ previousCoupon: '2007-11-15', nextCoupon: '2008-05-15', remaining: 18, fractionToNext: 0.5, years: 8.75 });
    expect(yieldFromPrice({ maturity: p.years, coupon: 0.0575, frequency: 2 }, 95.04287).yield).toBeCloseTo(0.065, 7);
  });

  it('a Treasury note under ACT/ACT: 4.25% of 2035-11-15 settling 2026-01-30 has accrued 76 of 181 days (0.892265 per 100)', () => {
    const p = couponPosition('2026-01-30', '2035-11-15', 2, 'act/act');
    expect(p.previousCoupon).toBe('2025-11-15');
    expect(p.nextCoupon).toBe('2026-05-15');
    expect(p.remaining).toBe(20);
    expect(p.fractionToNext).toBeCloseTo(105 / 181, 15);
    const r = priceFromYield({ maturity: p.years, coupon: 0.0425, frequency: 2 }, 0.042);
    expect(r.accrued).toBeCloseTo((2.125 * 76) / 181, 10);
  });

  it('keeps end-of-month coupons on month ends, and a settlement on a coupon date accrues nothing', () => {
    const eom = couponPosition('2026-09-15', '2030-02-28', 2, 'act/act');
    expect([eom.previousCoupon, eom.nextCoupon]).toEqual(['2026-08-31', '2027-02-28']);
    const on = couponPosition('2026-05-15', '2035-11-15', 2, 'act/act');
    expect(on.previousCoupon).toBe('2026-05-15');
    expect(on.fractionToNext).toBe(1);
    expect(priceFromYield({ maturity: on.years, coupon: 0.0425, frequency: 2 }, 0.0425).cleanPrice).toBeCloseTo(100, 10);
  });

  it('US 30/360 as Excel counts it (DAYS360 examples: 2011-01-30 → 2011-02-01 is 1 day; 2011-01-01 → 2011-12-31 is 360)', () => {
    expect(days360(d('2011-01-30'), d('2011-02-01'))).toBe(1);
    expect(days360(d('2011-01-01'), d('2011-12-31'))).toBe(360);
  });

  it('says what is wrong with impossible dates', () => {
    expect(() => couponPosition('2026-02-30', '2030-01-01', 2, 'act/act')).toThrow(/settlement "2026-02-30" is not a calendar date/);
    expect(() => couponPosition('2030-01-02', '2030-01-01', 2, 'act/act')).toThrow(/must be after the settlement date/);
  });
});
