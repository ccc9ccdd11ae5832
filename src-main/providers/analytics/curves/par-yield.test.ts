import { describe, expect, it } from 'vitest';
import { forwardParYield, parYield, parYieldsFromZeros } from './par-yield';
import { yieldFromPrice } from './yield';

/**
 * Par yields off a zero curve. If these failed, the par curve a PM compares with Treasury's
 * published par curve (or a swap curve) would be built with the wrong coupon, and a bond at that
 * coupon would not price at 100.
 */

describe('par yields from a zero curve', () => {
  it('Hull, 10th ed., §4.6: zero rates 5.0/5.8/6.4/6.8% (0.5–2y, continuous) → 2-year par yield 6.87% semiannual', () => {
    const points = [
      { maturity: 0.5, rate: 0.05 },
      { maturity: 1, rate: 0.058 },
      { maturity: 1.5, rate: 0.064 },
      { maturity: 2, rate: 0.068 },
    ];
    // c = 2·(100 − 100e^{−0.136}) / (e^{−0.025} + e^{−0.058} + e^{−0.096} + e^{−0.136}) = 2·12.716/3.7003 = 6.873%.
    const rows = parYieldsFromZeros(points, undefined, 2);
    expect(rows.map((r) => r.tenor)).toEqual([0.5, 1, 1.5, 2]);
    expect(rows[3]!.parYield).toBeCloseTo(0.06873, 5);
    expect(rows[3]!.discountFactor).toBeCloseTo(Math.exp(-0.136), 14);
  });

  it('a bond with the par coupon prices at 100 clean, on and between coupon dates', () => {
    const points = [
      { maturity: 0.25, rate: 0.043 },
      { maturity: 2, rate: 0.038 },
      { maturity: 10, rate: 0.042 },
      { maturity: 30, rate: 0.047 },
    ];
    const df = (t: number) => parYieldsFromZeros(points, [t], 2)[0]!.discountFactor;
    for (const tenor of [0.2, 0.75, 2, 3.4, 10, 27.3]) {
      const c = parYieldsFromZeros(points, [tenor], 2)[0]!.parYield;
      // Coupons of 100·c/2 every half year back from the tenor, 100 at the tenor, discounted on the curve.
      let dirty = 100 * df(tenor);
      let first = tenor;
      for (let t = tenor; t > 1e-9; t -= 0.5) {
        dirty += ((100 * c) / 2) * df(t);
        first = t;
      }
      const accrued = first >= 0.5 - 1e-9 ? 0 : ((100 * c) / 2) * (1 - first / 0.5);
      expect(dirty - accrued).toBeCloseTo(100, 9);
    }
  });

  it('on a flat continuous curve r, the par yield is the same rate compounded semiannually: 2(e^{r/2} − 1)', () => {
    const flat = (t: number) => Math.exp(-0.05 * t);
    for (const tenor of [1, 5, 30]) expect(parYield(flat, tenor, 2)).toBeCloseTo(2 * Math.expm1(0.025), 12);
    // ...and a par-coupon bond yields that same rate to maturity.
    expect(yieldFromPrice({ maturity: 5, coupon: parYield(flat, 5, 2) }, 100).yield).toBeCloseTo(2 * Math.expm1(0.025), 12);
    // A forward-starting bond on a flat curve has the same par coupon.
    expect(forwardParYield(flat, 4, 1, 2)).toBeCloseTo(2 * Math.expm1(0.025), 12);
  });

  it('zero rates given with annual or semiannual compounding give the same par yields as their continuous equivalents', () => {
    const cont = [
      { maturity: 1, rate: 0.04 },
      { maturity: 5, rate: 0.045 },
    ];
    const annual = cont.map((p) => ({ maturity: p.maturity, rate: Math.expm1(p.rate) }));
    const semi = cont.map((p) => ({ maturity: p.maturity, rate: 2 * Math.expm1(p.rate / 2) }));
    const base = parYieldsFromZeros(cont, [3, 5], 2);
    expect(parYieldsFromZeros(annual, [3, 5], 2, 'annual').map((r) => r.parYield)).toEqual(base.map((r) => expect.closeTo(r.parYield, 14)));
    expect(parYieldsFromZeros(semi, [3, 5], 2, 'semiannual').map((r) => r.parYield)).toEqual(base.map((r) => expect.closeTo(r.parYield, 14)));
    // Read as continuous, the annual rates would give a different (higher) par curve.
    expect(parYieldsFromZeros(annual, [5], 2)[0]!.parYield).toBeGreaterThan(base[1]!.parYield + 1e-4);
  });

  it('refuses a forward bond that is not a whole number of coupon periods, and duplicate maturities', () => {
    expect(() => forwardParYield((t) => Math.exp(-0.04 * t), 1, 0.7, 2)).toThrow(/not a whole number of 1\/2-year coupon periods/);
    expect(() =>
      parYieldsFromZeros(
        [
          { maturity: 1, rate: 0.04 },
          { maturity: 1, rate: 0.041 },
        ],
        undefined,
      ),
    ).toThrow(/two zero rates are given for 1 years/);
  });
});
