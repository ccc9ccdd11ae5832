import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempCore } from '../testing';

let t: ReturnType<typeof tempCore>;
beforeAll(async () => {
  t = tempCore();
  await t.core.context.memory.ready;
});
afterAll(async () => {
  await t.dispose();
});

describe('analytics/option', () => {
  it('prices Hull Example 15.6 (c = 4.76) with greeks, and implies 20% back from that price', async () => {
    const priced = await t.core.invoke('analytics/option', { type: 'call', underlying: 42, strike: 40, expiryYears: 0.5, rate: 0.1, vol: 0.2 });
    expect(priced.ok).toBe(true);
    if (!priced.ok) return;
    expect(priced.value.model).toBe('bsm');
    expect(Number(priced.value.price.toFixed(2))).toBe(4.76);
    expect(priced.value.greeks.delta).toBeCloseTo(0.7791, 4);
    expect(priced.value.impliedVol).toBeNull();
    expect(priced.value.bounds.lower).toBeCloseTo(42 - 40 * Math.exp(-0.05), 12);

    const implied = await t.core.invoke('analytics/option', {
      type: 'call',
      underlying: 42,
      strike: 40,
      expiryYears: 0.5,
      rate: 0.1,
      price: priced.value.price,
    });
    expect(implied.ok && implied.value.impliedVol?.vol).toBeCloseTo(0.2, 10);
    expect(implied.ok && implied.value.vol).toBeCloseTo(0.2, 10);
    expect(implied.ok && implied.value.impliedVol!.iterations).toBeLessThanOrEqual(6);
  });

  it('values the option across a grid of spots in the same response, each point equal to pricing that spot alone', async () => {
    // The Data screen's option chart asks once for 25 levels; if the grid disagreed with single
    // pricings the chart would draw a curve that does not go through the priced point.
    const spots = [30, 36, 42, 48, 54];
    const r = await t.core.invoke('analytics/option', { type: 'call', underlying: 42, strike: 40, expiryYears: 0.5, rate: 0.1, price: 4.759422, spots });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.grid?.map((g) => g.underlying)).toEqual(spots);
    for (const g of r.value.grid!) {
      const alone = await t.core.invoke('analytics/option', {
        type: 'call',
        underlying: g.underlying,
        strike: 40,
        expiryYears: 0.5,
        rate: 0.1,
        vol: r.value.vol,
      });
      expect(alone.ok && alone.value.price).toBeCloseTo(g.price, 12);
      expect(alone.ok && alone.value.greeks.delta).toBeCloseTo(g.delta, 12);
    }
    expect(r.value.grid![2]!.price).toBeCloseTo(4.759422, 5);
    const none = await t.core.invoke('analytics/option', { type: 'call', underlying: 42, strike: 40, expiryYears: 0.5, rate: 0.1, vol: 0.2 });
    expect(none.ok && none.value.grid).toBeNull();
    const tooMany = await t.core.invoke('analytics/option', {
      type: 'call',
      underlying: 42,
      strike: 40,
      expiryYears: 0.5,
      rate: 0.1,
      vol: 0.2,
      spots: Array.from({ length: 102 }, (_, i) => i + 1),
    });
    expect(tooMany.ok).toBe(false);
  });

  it('Black-76 futures put (Hull ch. 18: F = K = 20, r = 9%, σ = 25%, 4 months → 1.12)', async () => {
    const r = await t.core.invoke('analytics/option', {
      model: 'black76',
      type: 'put',
      underlying: 20,
      strike: 20,
      expiryYears: 4 / 12,
      rate: 0.09,
      vol: 0.25,
    });
    expect(r.ok && Number(r.value.price.toFixed(2))).toBe(1.12);
  });

  it('a price outside the no-arbitrage bounds, or both vol and price, is invalid_input with the reason', async () => {
    const out = await t.core.invoke('analytics/option', { type: 'call', underlying: 100, strike: 80, expiryYears: 1, rate: 0.05, price: 20 });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error.code).toBe('invalid_input');
    expect(out.error.message).toMatch(/strictly between 23\.9016 and 100/);
    const both = await t.core.invoke('analytics/option', { type: 'call', underlying: 100, strike: 80, expiryYears: 1, rate: 0.05, price: 25, vol: 0.2 });
    expect(!both.ok && both.error.message).toMatch(/either a volatility .* or a market price/);
    const schema = await t.core.invoke('analytics/option', { type: 'call', underlying: 100, strike: 80, expiryYears: 1, rate: 5, vol: 0.2 });
    expect(!schema.ok && schema.error.code).toBe('invalid_input');
    expect(!schema.ok && schema.error.issues?.[0]?.path).toEqual(['rate']);
  });
});

describe('analytics/curve', () => {
  it('bootstraps Hull Table 4.3, fits Nelson–Siegel, and returns chart points from the short end to the last maturity', async () => {
    const r = await t.core.invoke('analytics/curve', {
      bonds: [
        { maturity: 0.25, coupon: 0, price: 99.6 },
        { maturity: 0.5, coupon: 0, price: 99.0 },
        { maturity: 1, coupon: 0, price: 97.8 },
        { maturity: 1.5, coupon: 0.04, price: 102.5 },
        { maturity: 2, coupon: 0.05, price: 105.0 },
      ],
      chartPoints: 9,
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.zeros.map((z) => Number((z.zeroContinuous * 100).toFixed(3)))).toEqual([1.603, 2.01, 2.225, 2.284, 2.416]);
    expect(r.value.forwards).toHaveLength(4);
    expect(r.value.ns!.params.model).toBe('ns');
    expect(r.value.ns!.rmse).toBeLessThan(0.0005); // within 5bp of five points
    expect(r.value.nss).toBeNull();
    expect(r.value.chart).toHaveLength(9);
    expect(r.value.chart.at(-1)!.maturity).toBe(2);
    // The linear column passes through the nodes: at 1y (chart point 4 of 9 on 0..2) it is the 1y zero rate.
    expect(r.value.chart[4]!.maturity).toBe(1);
    expect(r.value.chart[4]!.linear).toBeCloseTo(r.value.zeros[2]!.zeroContinuous, 15);
  });

  it('fits both models to zero rates given as points; refuses a Svensson fit on too few points', async () => {
    const points = [0.25, 0.5, 1, 2, 3, 5, 7, 10, 20, 30].map((m) => ({ maturity: m, rate: 0.03 + (0.01 * Math.log1p(m)) / 3 }));
    const r = await t.core.invoke('analytics/curve', { points, model: 'both' });
    expect(r.ok && r.value.nss!.rmse).toBeLessThanOrEqual(r.ok ? r.value.ns!.rmse + 1e-12 : 0);
    expect(r.ok && r.value.chart).toHaveLength(61);
    const few = await t.core.invoke('analytics/curve', { points: points.slice(0, 5), model: 'nss' });
    expect(!few.ok && few.error.code).toBe('invalid_input');
    expect(!few.ok && few.error.message).toMatch(/Svensson fit needs at least 6 points/);
    const neither = await t.core.invoke('analytics/curve', {});
    expect(!neither.ok && neither.error.message).toMatch(/give either bonds .* or points/);
  });
});
