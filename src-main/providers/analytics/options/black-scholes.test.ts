import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type OptionInput, optionValue, priceBounds } from './black-scholes';

const bsm = (o: Partial<OptionInput>): OptionInput => ({ model: 'bsm', type: 'call', underlying: 100, strike: 100, expiry: 1, rate: 0.05, vol: 0.2, ...o });

describe('Black–Scholes–Merton and Black-76', () => {
  it('Hull, Options, Futures, and Other Derivatives, 10th ed., Example 15.6: S=42, K=40, r=10%, σ=20%, T=0.5 → c = 4.76, p = 0.81', () => {
    // d1 = [ln(42/40) + (0.1 + 0.02)·0.5] / (0.2·√0.5) = (0.04879 + 0.06) / 0.14142 = 0.7693; d2 = 0.6278;
    // Ke^{−rT} = 40e^{−0.05} = 38.049; c = 42·N(0.7693) − 38.049·N(0.6278) = 42·0.7791 − 38.049·0.7349 = 4.76;
    // p = 38.049·N(−0.6278) − 42·N(−0.7693) = 38.049·0.2651 − 42·0.2209 = 0.81.
    const c = optionValue(bsm({ underlying: 42, strike: 40, rate: 0.1, expiry: 0.5 }));
    const p = optionValue(bsm({ type: 'put', underlying: 42, strike: 40, rate: 0.1, expiry: 0.5 }));
    expect(c.d1).toBeCloseTo(0.7693, 4);
    expect(c.d2).toBeCloseTo(0.6278, 4);
    expect(Number(c.price.toFixed(2))).toBe(4.76);
    expect(Number(p.price.toFixed(2))).toBe(0.81);
  });

  it('Hull, 10th ed., ch. 19 (the Greek letters), running example S=49, K=50, r=5%, σ=20%, T=20 weeks: price 2.40, Δ 0.522, Γ 0.066, vega 12.1, Θ −4.31/yr, ρ 8.91', () => {
    // d1 = [ln(0.98) + 0.07·0.3846] / (0.2·0.6202) = 0.0542, N(d1) = 0.5216; d2 = −0.0699, N(d2) = 0.4722; φ(d1) = 0.3984.
    // Γ = φ(d1)/(Sσ√T) = 0.3984/6.078 = 0.0655; vega = S√T·φ(d1) = 49·0.6202·0.3984 = 12.11;
    // Θ = −Sφ(d1)σ/(2√T) − rKe^{−rT}N(d2) = −3.147 − 1.158 = −4.31; ρ = KTe^{−rT}N(d2) = 50·0.3846·0.98095·0.4722 = 8.91.
    const v = optionValue(bsm({ underlying: 49, strike: 50, expiry: 20 / 52 }));
    expect(v.price).toBeCloseTo(2.4, 2);
    expect(v.delta).toBeCloseTo(0.522, 3);
    expect(v.gamma).toBeCloseTo(0.066, 3);
    expect(v.vega).toBeCloseTo(12.1, 1);
    expect(v.theta).toBeCloseTo(-4.31, 2);
    expect(v.rho).toBeCloseTo(8.91, 2);
  });

  it('Hull, 10th ed., ch. 17 (options on stock indices): index 930, K=900, r=8%, σ=20%, q=3%, T=2 months → c = 51.83', () => {
    // d1 = [ln(930/900) + (0.08 − 0.03 + 0.02)/6] / (0.2·√(1/6)) = 0.5445, d2 = 0.4628;
    // c = 930e^{−0.005}·0.7069 − 900e^{−0.01333}·0.6782 = 654.17 − 602.34 = 51.83.
    const v = optionValue(bsm({ underlying: 930, strike: 900, rate: 0.08, dividendYield: 0.03, expiry: 2 / 12 }));
    expect(v.d1).toBeCloseTo(0.5444, 3);
    expect(Number(v.price.toFixed(2))).toBe(51.83);
  });

  it('Hull, 10th ed., ch. 18 (Black’s model): crude-oil futures put F=K=20, r=9%, σ=25%, T=4 months → p = 1.12', () => {
    // d1 = σ√T/2 = 0.25·0.57735/2 = 0.07217, d2 = −0.07217; p = e^{−0.03}·20·[N(0.07217) − N(−0.07217)] = 0.97045·20·0.05754 = 1.1167.
    const v = optionValue({ model: 'black76', type: 'put', underlying: 20, strike: 20, expiry: 4 / 12, rate: 0.09, vol: 0.25 });
    expect(v.d1).toBeCloseTo(0.07217, 5);
    expect(Number(v.price.toFixed(2))).toBe(1.12);
    expect(v.forward).toBe(20);
  });

  const market = fc.record({
    underlying: fc.double({ min: 1, max: 1000, noNaN: true }),
    moneyness: fc.double({ min: 0.3, max: 3, noNaN: true }),
    expiry: fc.double({ min: 1 / 365, max: 30, noNaN: true }),
    rate: fc.double({ min: -0.02, max: 0.15, noNaN: true }),
    dividendYield: fc.double({ min: 0, max: 0.1, noNaN: true }),
    vol: fc.double({ min: 0.01, max: 2, noNaN: true }),
    model: fc.constantFrom('bsm' as const, 'black76' as const),
  });
  const input = (m: typeof market extends fc.Arbitrary<infer T> ? T : never, type: 'call' | 'put'): OptionInput => ({
    model: m.model,
    type,
    underlying: m.underlying,
    strike: m.underlying * m.moneyness,
    expiry: m.expiry,
    rate: m.rate,
    vol: m.vol,
    ...(m.model === 'bsm' ? { dividendYield: m.dividendYield } : {}),
  });

  it('property: put–call parity c − p = S·e^{−qT} − K·e^{−rT} (F·e^{−rT} − K·e^{−rT} for Black-76)', () => {
    fc.assert(
      fc.property(market, (m) => {
        const c = optionValue(input(m, 'call'));
        const p = optionValue(input(m, 'put'));
        const forwardPv = c.forward * c.discount;
        const strikePv = m.underlying * m.moneyness * c.discount;
        expect(c.price - p.price).toBeCloseTo(forwardPv - strikePv, 8);
        // Deltas differ by e^{(b−r)T}; gammas and vegas are equal.
        expect(c.delta - p.delta).toBeCloseTo(forwardPv / m.underlying, 10);
        expect(c.gamma).toBeCloseTo(p.gamma, 12);
      }),
      { numRuns: 300 },
    );
  });

  it('property: price rises with volatility and stays within the no-arbitrage bounds', () => {
    fc.assert(
      fc.property(market, fc.constantFrom('call' as const, 'put' as const), fc.double({ min: 0.001, max: 0.5, noNaN: true }), (m, type, dv) => {
        const lo = optionValue(input(m, type));
        const hi = optionValue({ ...input(m, type), vol: m.vol + dv });
        expect(hi.price).toBeGreaterThanOrEqual(lo.price - 1e-12 * Math.max(1, lo.price));
        const b = priceBounds(input(m, type));
        expect(lo.price).toBeGreaterThanOrEqual(b.lower - 1e-9 * b.upper);
        expect(lo.price).toBeLessThanOrEqual(b.upper + 1e-9 * b.upper);
      }),
      { numRuns: 300 },
    );
  });

  it('greeks agree with finite differences of the price', () => {
    for (const model of ['bsm', 'black76'] as const) {
      for (const type of ['call', 'put'] as const) {
        const base: OptionInput = {
          model,
          type,
          underlying: 100,
          strike: 95,
          expiry: 0.75,
          rate: 0.04,
          vol: 0.3,
          ...(model === 'bsm' ? { dividendYield: 0.02 } : {}),
        };
        const v = optionValue(base);
        const at = (o: Partial<OptionInput>) => optionValue({ ...base, ...o }).price;
        const h = 1e-4;
        expect(v.delta).toBeCloseTo((at({ underlying: 100 + h }) - at({ underlying: 100 - h })) / (2 * h), 7);
        expect(v.gamma).toBeCloseTo((at({ underlying: 100 + 0.01 }) - 2 * v.price + at({ underlying: 100 - 0.01 })) / 1e-4, 5);
        expect(v.vega).toBeCloseTo((at({ vol: 0.3 + h }) - at({ vol: 0.3 - h })) / (2 * h), 5);
        expect(v.rho).toBeCloseTo((at({ rate: 0.04 + h }) - at({ rate: 0.04 - h })) / (2 * h), 5);
        // Theta is −∂V/∂T.
        expect(v.theta).toBeCloseTo(-(at({ expiry: 0.75 + h }) - at({ expiry: 0.75 - h })) / (2 * h), 5);
      }
    }
  });

  it('dividend rho: Haug, Option Pricing Formulas (1998), pp. 11–16: put S=500, K=490, T=0.25, r=8%, q=5%, σ=15% → 42.2254', () => {
    // Haug's worked values as QuantLib's test suite transcribes them (lballabio/QuantLib,
    // test-suite/europeanoption.cpp, testGreekValues, commit 540a575). Haug quotes the dividend
    // rho per 1.00 of yield, the same unit as here. If this failed a PM hedging a dividend-yield
    // (or foreign-rate) exposure would read a wrong sensitivity or none at all.
    // d1 = [ln(500/490) + (0.03 + 0.01125)·0.25] / (0.15·0.5) = 0.40687; N(−d1) = 0.34205;
    // ∂p/∂q = T·S·e^{−qT}·N(−d1) = 0.25·500·e^{−0.0125}·0.34205 = 42.2254.
    const put = optionValue(bsm({ type: 'put', underlying: 500, strike: 490, expiry: 0.25, rate: 0.08, dividendYield: 0.05, vol: 0.15 }));
    expect(Number(put.dividendRho.toFixed(4))).toBe(42.2254);
    const call = optionValue(bsm({ underlying: 500, strike: 490, expiry: 0.25, rate: 0.08, dividendYield: 0.05, vol: 0.15 }));
    // Call and put differ by −T·S·e^{−qT} (∂/∂q of put–call parity).
    expect(call.dividendRho - put.dividendRho).toBeCloseTo(-0.25 * 500 * Math.exp(-0.0125), 10);
    expect(call.dividendRho).toBeLessThan(0);
  });

  it('the other greeks of the same Haug (1998) table: delta, gamma, vega, theta, rho', () => {
    const v = (o: Partial<OptionInput>) => optionValue(bsm(o));
    expect(v({ underlying: 105, strike: 100, dividendYield: 0.1, rate: 0.1, expiry: 0.5, vol: 0.36 }).delta).toBeCloseTo(0.5946, 4);
    expect(v({ type: 'put', underlying: 105, strike: 100, dividendYield: 0.1, rate: 0.1, expiry: 0.5, vol: 0.36 }).delta).toBeCloseTo(-0.3566, 4);
    expect(v({ underlying: 55, strike: 60, rate: 0.1, expiry: 0.75, vol: 0.3 }).gamma).toBeCloseTo(0.0278, 4);
    expect(v({ underlying: 55, strike: 60, rate: 0.1, expiry: 0.75, vol: 0.3 }).vega).toBeCloseTo(18.9358, 4);
    expect(v({ type: 'put', underlying: 430, strike: 405, dividendYield: 0.05, rate: 0.07, expiry: 1 / 12, vol: 0.2 }).theta).toBeCloseTo(-31.1924, 4);
    expect(v({ underlying: 72, strike: 75, rate: 0.09, expiry: 1, vol: 0.19 }).rho).toBeCloseTo(38.7325, 4);
  });

  it('dividend rho agrees with a central difference of the price in q; Black-76 has none', () => {
    for (const type of ['call', 'put'] as const) {
      for (const [S, K, T, q] of [
        [100, 95, 0.75, 0.02],
        [42, 50, 2, 0.06],
        [1.1, 1.05, 0.5, -0.01],
      ] as const) {
        const base = bsm({ type, underlying: S, strike: K, expiry: T, dividendYield: q, vol: 0.3, rate: 0.04 });
        const h = 1e-5;
        const fd = (optionValue({ ...base, dividendYield: q + h }).price - optionValue({ ...base, dividendYield: q - h }).price) / (2 * h);
        expect(optionValue(base).dividendRho).toBeCloseTo(fd, 5);
      }
    }
    expect(optionValue({ model: 'black76', type: 'call', underlying: 20, strike: 20, expiry: 1, rate: 0.05, vol: 0.2 }).dividendRho).toBe(0);
  });

  it('refuses inputs a PM could plausibly mistype, naming the field', () => {
    expect(() => optionValue(bsm({ vol: 20 }))).toThrow(/volatility is 20; give it as a decimal/);
    expect(() => optionValue(bsm({ rate: 5 }))).toThrow(/rate is 5; give rates as decimals/);
    expect(() => optionValue(bsm({ expiry: 0 }))).toThrow(/expiry \(years\) must be greater than 0/);
    expect(() => optionValue(bsm({ strike: -1 }))).toThrow(/strike must be greater than 0/);
    expect(() => optionValue({ ...bsm({}), model: 'black76', dividendYield: 0.02 })).toThrow(/Black-76 .* leave the dividend yield out/);
  });
});
