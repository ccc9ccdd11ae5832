import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type OptionInput, optionValue, priceBounds } from './black-scholes';
import { DEFAULT_IV_TOLERANCE, impliedVol, impliedVolBisection } from './implied-vol';

type Market = Omit<OptionInput, 'vol'>;

/** Round trip σ → price → implied σ → price. `identified`: the price moves enough with σ for σ to be recoverable in double precision. */
function roundTrip(m: Market, vol: number) {
  const v = optionValue({ ...m, vol });
  const b = priceBounds(m);
  const timeValue = Math.min(v.price - b.lower, b.upper - v.price);
  if (timeValue <= 1e-12 * b.upper) return null; // at a bound to machine precision: no volatility is recoverable (tested below)
  const iv = impliedVol({ ...m, price: v.price });
  const back = optionValue({ ...m, vol: iv.vol }).price;
  return { iv, back, price: v.price, upper: b.upper, identified: v.vega * 1e-8 > 1e-13 * b.upper };
}

describe('implied volatility', () => {
  it('Hull Example 15.6 reversed: the 4.7594 call price (S=42, K=40, r=10%, T=0.5) implies σ = 20%', () => {
    const m: Market = { model: 'bsm', type: 'call', underlying: 42, strike: 40, expiry: 0.5, rate: 0.1 };
    const price = optionValue({ ...m, vol: 0.2 }).price;
    const iv = impliedVol({ ...m, price });
    expect(iv.vol).toBeCloseTo(0.2, 12);
    expect(iv.iterations).toBeLessThanOrEqual(6);
    // Hull's rounded 4.76 implies slightly more: 20.01%.
    expect(impliedVol({ ...m, price: 4.76 }).vol).toBeCloseTo(0.2001, 4);
  });

  it('round-trips a grid of strikes (0.3–3× spot), expiries (1 day–30 years), vols (1%–300%), both models and both types', () => {
    let solved = 0;
    let maxIterations = 0;
    for (const model of ['bsm', 'black76'] as const)
      for (const type of ['call', 'put'] as const)
        for (const expiry of [1 / 365, 7 / 365, 30 / 365, 0.25, 1, 5, 30])
          for (const k of [0.3, 0.5, 0.7, 0.9, 0.97, 1, 1.03, 1.1, 1.5, 2, 3])
            for (const vol of [0.01, 0.05, 0.15, 0.3, 0.6, 1.2, 3]) {
              const m: Market = { model, type, underlying: 100, strike: 100 * k, expiry, rate: 0.03, ...(model === 'bsm' ? { dividendYield: 0.01 } : {}) };
              const r = roundTrip(m, vol);
              if (!r) continue;
              solved++;
              maxIterations = Math.max(maxIterations, r.iv.iterations);
              expect(Math.abs(r.back - r.price), `${model} ${type} T=${expiry} K=${100 * k} σ=${vol}`).toBeLessThanOrEqual(1e-12 * r.upper);
              if (r.identified) expect(Math.abs(r.iv.vol - vol), `${model} ${type} T=${expiry} K=${100 * k} σ=${vol}`).toBeLessThan(1e-8);
            }
    expect(solved).toBeGreaterThan(1000);
    // Jäckel's rational guess is close enough that two Householder steps reach machine precision
    // everywhere on this grid (the safeguarded Halley iteration it replaced needed up to 7).
    expect(maxIterations).toBeLessThanOrEqual(2);
  });

  it('property: price → implied vol → price, and the solver agrees with plain bisection to the same tolerance', () => {
    fc.assert(
      fc.property(
        fc.record({
          model: fc.constantFrom('bsm' as const, 'black76' as const),
          type: fc.constantFrom('call' as const, 'put' as const),
          underlying: fc.double({ min: 0.5, max: 5000, noNaN: true }),
          moneyness: fc.double({ min: 0.4, max: 2.5, noNaN: true }),
          expiry: fc.double({ min: 1 / 365, max: 20, noNaN: true }),
          rate: fc.double({ min: -0.01, max: 0.12, noNaN: true }),
          q: fc.double({ min: 0, max: 0.08, noNaN: true }),
          vol: fc.double({ min: 0.02, max: 2, noNaN: true }),
        }),
        (x) => {
          const m: Market = {
            model: x.model,
            type: x.type,
            underlying: x.underlying,
            strike: x.underlying * x.moneyness,
            expiry: x.expiry,
            rate: x.rate,
            ...(x.model === 'bsm' ? { dividendYield: x.q } : {}),
          };
          const r = roundTrip(m, x.vol);
          if (!r) return;
          expect(Math.abs(r.back - r.price)).toBeLessThanOrEqual(1e-12 * r.upper);
          if (!r.identified) return;
          expect(r.iv.vol).toBeCloseTo(x.vol, 8);
          const bisect = impliedVolBisection({ ...m, price: r.price });
          expect(Math.abs(bisect.vol - r.iv.vol)).toBeLessThan(2 * DEFAULT_IV_TOLERANCE + 1e-12);
          // The benchmark's second baseline bisects on the solver's own normalised price: same answer.
          const onNormalised = impliedVolBisection({ ...m, price: r.price }, DEFAULT_IV_TOLERANCE, 5, 'normalised');
          expect(Math.abs(onNormalised.vol - r.iv.vol)).toBeLessThan(2 * DEFAULT_IV_TOLERANCE + 1e-12);
          expect(r.iv.iterations).toBeLessThan(bisect.iterations);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a price outside the no-arbitrage bounds is refused with the bounds named', () => {
    // Call S=100, K=80, r=5%, T=1, q=0: lower bound 100 − 80e^{−0.05} = 23.90, upper 100.
    const m: Market = { model: 'bsm', type: 'call', underlying: 100, strike: 80, expiry: 1, rate: 0.05 };
    expect(() => impliedVol({ ...m, price: 20 })).toThrow(
      /price 20 is outside the no-arbitrage bounds of this call: it must lie strictly between 23\.9016 and 100 .* and is at or below the lower bound/,
    );
    expect(() => impliedVol({ ...m, price: 101 })).toThrow(/strictly between 23\.9016 and 100 \(max\(S·e\^\{−qT\} − K·e\^\{−rT\}, 0\) and S·e\^\{−qT\}\)/);
    // Black-76 put F=20, K=20, r=9%, T=1/3: bounds 0 and 20e^{−0.03} = 19.4089, named in futures terms.
    const f: Market = { model: 'black76', type: 'put', underlying: 20, strike: 20, expiry: 1 / 3, rate: 0.09 };
    expect(() => impliedVol({ ...f, price: 19.5 })).toThrow(/between 0 and 19.4089\d* \(max\(K·e\^\{−rT\} − F·e\^\{−rT\}, 0\) and K·e\^\{−rT\}\)/);
    expect(() => impliedVol({ ...m, price: 0 })).toThrow(/price must be greater than 0/);
    // The error is typed: the API turns it into invalid_input.
    const err = (() => {
      try {
        impliedVol({ ...m, price: 20 });
      } catch (e) {
        return e as { code?: string };
      }
    })();
    expect(err?.code).toBe('invalid_input');
  });

  it('a price at the lower bound to machine precision is refused rather than given a made-up volatility', () => {
    // 1-day deep in-the-money call: its price equals the discounted intrinsic value to 1e-16.
    const m: Market = { model: 'bsm', type: 'call', underlying: 100, strike: 50, expiry: 1 / 365, rate: 0.03 };
    const price = optionValue({ ...m, vol: 0.2 }).price;
    expect(() => impliedVol({ ...m, price })).toThrow(/outside the no-arbitrage bounds/);
  });
  it('solves every price strictly inside the bounds: a 1e−200 deep out-of-the-money call and a call a hair below its upper bound', () => {
    // The bounds check used to keep a slack of 1e−12 × the upper bound, so any out-of-the-money
    // price below 1e−10 of the forward was refused as "outside the bounds" although it lay inside.
    const m: Market = { model: 'black76', type: 'call', underlying: 100, strike: 150, expiry: 1, rate: 0.03 };
    const iv = impliedVol({ ...m, price: 1e-200 });
    expect(iv.vol).toBeGreaterThan(0);
    expect(Math.abs(optionValue({ ...m, vol: iv.vol }).price / 1e-200 - 1)).toBeLessThan(1e-9);
    // A put far in the wing, both sides of the forward.
    const p: Market = { model: 'bsm', type: 'put', underlying: 100, strike: 40, expiry: 0.25, rate: 0.01, dividendYield: 0 };
    const ivp = impliedVol({ ...p, price: 1e-150 });
    expect(Math.abs(optionValue({ ...p, vol: ivp.vol }).price / 1e-150 - 1)).toBeLessThan(1e-9);
    // Just below the upper bound S·e^{−qT}: a very high volatility, still found and round-tripped.
    const u: Market = { model: 'bsm', type: 'call', underlying: 100, strike: 100, expiry: 4, rate: 0.02, dividendYield: 0 };
    const upper = priceBounds(u).upper;
    const near = upper * (1 - 1e-11);
    const ivu = impliedVol({ ...u, price: near });
    expect(Math.abs(optionValue({ ...u, vol: ivu.vol }).price - near)).toBeLessThanOrEqual(1e-12 * upper);
  });

  it('a price equal to a bound is refused with a message whose bounds really exclude it', () => {
    // The old message rounded the bounds ("strictly between 0 and 33" for a price of 1e−11), so it
    // contradicted itself; now the bounds are printed in full and the side is named.
    const m: Market = { model: 'black76', type: 'put', underlying: 30, strike: 33, expiry: 0.5, rate: 0.04 };
    const { lower, upper } = priceBounds(m);
    for (const [price, side] of [
      [lower, 'at or below the lower bound'],
      [upper, 'at or above the upper bound'],
    ] as const) {
      let message = '';
      try {
        impliedVol({ ...m, price });
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toContain(side);
      const [, lo, hi] = /strictly between (\S+) and (\S+) /.exec(message) ?? [];
      // The bound the price sits on is printed exactly; the other in as few digits as keep it apart.
      expect(side.includes('lower') ? Number(lo) : Number(hi)).toBe(price);
      expect(price > Number(lo) && price < Number(hi)).toBe(false);
    }
    // One ulp inside the lower bound is solved (a tiny time value, a tiny volatility).
    expect(impliedVol({ ...m, price: lower * (1 + 2 ** -52) }).vol).toBeGreaterThan(0);
  });
});
