import { describe, expect, it } from 'vitest';
import { accruedInterest, priceFromYield, yieldFromPrice } from './yield';

/**
 * Yield to maturity and price from yield, street convention. If these failed, a PM would read a
 * bond's yield (or the price for a yield) that disagrees with Bloomberg's YAS and Excel, and
 * compare it with the wrong spread.
 */

describe('yield to maturity', () => {
  it("Microsoft Excel's documented PRICE example: 5.75% semiannual, 6.5% yield, 15-Feb-2008 → 15-Nov-2017 (30/360: 9.75y) → 94.63436", () => {
    const r = priceFromYield({ maturity: 9.75, coupon: 0.0575, frequency: 2 }, 0.065);
    expect(r.cleanPrice).toBeCloseTo(94.63436, 5);
    // Half a coupon period accrued: 5.75/2 · 0.5 = 1.4375.
    expect(r.accrued).toBeCloseTo(1.4375, 12);
    expect(r.dirtyPrice).toBeCloseTo(r.cleanPrice + 1.4375, 12);
  });

  it("Microsoft Excel's documented YIELD example: 5.75%, clean 95.04287, 15-Feb-2008 → 15-Nov-2016 (30/360: 8.75y) → 6.5%", () => {
    const r = yieldFromPrice({ maturity: 8.75, coupon: 0.0575, frequency: 2 }, 95.04287);
    expect(r.yield).toBeCloseTo(0.065, 7);
    expect(r.cleanPrice).toBeCloseTo(95.04287, 9);
  });

  it('Hull, 10th ed., §4.4: a 2-year 6% semiannual bond priced 98.39 yields 6.76% continuously compounded', () => {
    const r = yieldFromPrice({ maturity: 2, coupon: 0.06, frequency: 2 }, 98.39, 'dirty');
    expect(r.yieldContinuous).toBeCloseTo(0.0676, 4);
    expect(r.accrued).toBe(0);
    // The quoted (semiannual) yield and its annual equivalent are the same rate.
    expect(Math.log1p(r.yieldAnnual)).toBeCloseTo(r.yieldContinuous, 14);
  });

  it('round trips: price → yield → price for odd maturities, coupons and frequencies', () => {
    for (const frequency of [1, 2, 4, 12] as const) {
      for (const [maturity, coupon, y] of [
        [0.3, 0.02, 0.045],
        [7.13, 0.0425, 0.051],
        [29.9, 0.08, 0.02],
        [3, 0, -0.004],
      ] as const) {
        const priced = priceFromYield({ maturity, coupon, frequency }, y);
        const back = yieldFromPrice({ maturity, coupon, frequency }, priced.cleanPrice);
        expect(back.yield).toBeCloseTo(y, 11);
      }
    }
  });

  it('a par bond on a coupon date yields its coupon; accrued is zero there', () => {
    expect(yieldFromPrice({ maturity: 10, coupon: 0.045 }, 100).yield).toBeCloseTo(0.045, 12);
    expect(accruedInterest({ maturity: 10, coupon: 0.045 }).accrued).toBe(0);
  });

  it('says what is wrong with a price per 1 instead of per 100, and with a coupon in percent', () => {
    expect(() => yieldFromPrice({ maturity: 5, coupon: 0.04 }, 0.98)).toThrow(/implies a yield outside −99% to 100%.*give the price per 100 face/);
    expect(() => yieldFromPrice({ maturity: 5, coupon: 4 }, 98)).toThrow(/coupon is 4; give it as a decimal/);
  });
});
