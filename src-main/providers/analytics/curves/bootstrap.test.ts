import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BondInput, bondCashFlows, bootstrapZeroCurve, priceBond } from './bootstrap';

describe('bootstrap: zero rates from bond prices', () => {
  it('Hull, Options, Futures, and Other Derivatives, 10th ed., Tables 4.3 → 4.4: zero rates 1.603%, 2.010%, 2.225%, 2.284%, 2.416%', () => {
    // Bills: r = −ln(P/100)/T → 0.25y: 4·ln(100/99.6) = 1.6032%; 0.5y: 2·ln(100/99) = 2.0101%; 1y: ln(100/97.8) = 2.2245%.
    // 1.5y 4% semiannual at 102.5: 2e^{−0.020101·0.5} + 2e^{−0.022245} + 102e^{−1.5R} = 102.5 → e^{−1.5R} = 98.564/102 → R = 2.2845%.
    // 2y 5% at 105: 2.5(0.99 + 0.978 + 0.966314) + 102.5e^{−2R} = 105 → e^{−2R} = 0.952822 → R = 2.4164%.
    const curve = bootstrapZeroCurve([
      { maturity: 0.25, coupon: 0, price: 99.6 },
      { maturity: 0.5, coupon: 0, price: 99.0 },
      { maturity: 1, coupon: 0, price: 97.8 },
      { maturity: 1.5, coupon: 0.04, price: 102.5 },
      { maturity: 2, coupon: 0.05, price: 105.0 },
    ]);
    const pct = curve.nodes.map((n) => Number((n.zeroContinuous * 100).toFixed(3)));
    expect(pct).toEqual([1.603, 2.01, 2.225, 2.284, 2.416]);
    // Annual compounding is e^r − 1: 2y 2.4164% continuous = 2.4458% annual.
    expect(curve.nodes[4]!.zeroAnnual).toBeCloseTo(Math.expm1(curve.nodes[4]!.zeroContinuous), 15);
    expect(curve.nodes[4]!.zeroAnnual * 100).toBeCloseTo(2.4458, 3);
  });

  it("Hull's earlier editions (8th ed., Tables 4.3/4.4): 10.127%, 10.469%, 10.536%, 10.681%, 10.808%", () => {
    // 0.25y at 97.5: 4·ln(100/97.5) = 10.127%; 1.5y 8% at 96: 4e^{−0.10469·0.5} + 4e^{−0.10536} + 104e^{−1.5R} = 96 → 10.681%.
    const curve = bootstrapZeroCurve([
      { maturity: 2, coupon: 0.12, price: 101.6 }, // given out of order on purpose: sorted by maturity first
      { maturity: 0.25, coupon: 0, price: 97.5 },
      { maturity: 0.5, coupon: 0, price: 94.9 },
      { maturity: 1, coupon: 0, price: 90.0 },
      { maturity: 1.5, coupon: 0.08, price: 96.0 },
    ]);
    expect(curve.nodes.map((n) => Number((n.zeroContinuous * 100).toFixed(3)))).toEqual([10.127, 10.469, 10.536, 10.681, 10.808]);
  });

  it('par bonds: a flat 5% annual-pay par curve bootstraps to flat 5% annual zero rates', () => {
    // A par bond's coupon equals the yield; on a flat curve every zero rate equals the par yield.
    const curve = bootstrapZeroCurve([1, 2, 3, 4, 5].map((m) => ({ maturity: m, coupon: 0.05, frequency: 1 })));
    for (const n of curve.nodes) expect(n.zeroAnnual).toBeCloseTo(0.05, 12);
  });

  it('property: every input bond reprices to 1e-8 on the bootstrapped curve, whatever the coupon dates', () => {
    const bondSet = fc
      .uniqueArray(fc.integer({ min: 1, max: 120 }), { minLength: 1, maxLength: 30 })
      .chain((quarters) =>
        fc.tuple(
          fc.constant(quarters.sort((a, b) => a - b)),
          fc.array(fc.double({ min: 0, max: 0.1, noNaN: true }), { minLength: quarters.length, maxLength: quarters.length }),
          fc.array(fc.constantFrom(1, 2, 4), { minLength: quarters.length, maxLength: quarters.length }),
          fc.double({ min: -0.01, max: 0.08, noNaN: true }),
          fc.double({ min: -0.004, max: 0.004, noNaN: true }),
        ),
      );
    fc.assert(
      fc.property(bondSet, ([quarters, coupons, freqs, level, slope]) => {
        // Prices from a smooth "true" curve; maturities in quarters, so coupon dates fall between nodes.
        const truth = (t: number) => level + slope * Math.sqrt(t);
        const bonds: BondInput[] = quarters.map((q, i) => {
          const b = { maturity: q / 4 + 0.1, coupon: coupons[i]!, frequency: freqs[i]! };
          const price = bondCashFlows(b).reduce((s, f) => s + f.amount * Math.exp(-truth(f.time) * f.time), 0);
          return { ...b, price };
        });
        const curve = bootstrapZeroCurve(bonds);
        for (const b of bonds) expect(Math.abs(priceBond(curve, b) - b.price!)).toBeLessThan(1e-8);
      }),
      { numRuns: 150 },
    );
  });

  it('refuses bad input with a message that names the bond and what to fix', () => {
    expect(() => bootstrapZeroCurve([])).toThrow(/at least one bond/);
    expect(() => bootstrapZeroCurve([{ maturity: 1, coupon: 4, price: 100 }])).toThrow(/bonds\[0\]\.coupon is 4; give it as a decimal/);
    expect(() =>
      bootstrapZeroCurve([
        { maturity: 1, coupon: 0, price: 97 },
        { maturity: 1, coupon: 0.05, price: 101 },
      ]),
    ).toThrow(/two bonds mature at 1 years/);
    // A 2-year 1% bond at 250 would need a deeply negative rate beyond −100%.
    expect(() =>
      bootstrapZeroCurve([
        { maturity: 1, coupon: 0, price: 97 },
        { maturity: 2, coupon: 0.01, price: 900 },
      ]),
    ).toThrow(/no zero rate between −100% and 200% reprices the 2-year bond \(coupon 1%, price 900\)/);
    expect(() => bootstrapZeroCurve([{ maturity: 1, coupon: 0.05, frequency: 3 }])).toThrow(/frequency must be one of 1, 2, 4, 12/);
    const thrown = (() => {
      try {
        bootstrapZeroCurve([{ maturity: -1, coupon: 0 }]);
      } catch (e) {
        return e as { code?: string; message: string };
      }
    })();
    expect(thrown?.code).toBe('invalid_input'); // the API answers invalid_input, the provider bad_params
    expect(thrown?.message).toMatch(/bonds\[0\]\.maturity must be greater than 0/);
  });
});
