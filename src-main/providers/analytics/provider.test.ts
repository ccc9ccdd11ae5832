import { describe, expect, it } from 'vitest';
import { ProviderError } from '../provider';
import { analyticsProvider } from './provider';

const fixed = { now: () => new Date('2026-03-02T15:00:00Z') };
const provider = analyticsProvider();
const fetch = (params: Record<string, unknown>, ctx = fixed) => provider.fetch(params as never, ctx);

async function failure(params: Record<string, unknown>, ctx: Parameters<typeof fetch>[1] = fixed): Promise<ProviderError> {
  try {
    await fetch(params, ctx);
  } catch (e) {
    return e as ProviderError;
  }
  throw new Error('expected the fetch to fail');
}

/** Rough token count: words and punctuation runs, the way a tokenizer splits prose and numbers. */
const tokens = (s: string) => s.split(/[\s,;:()]+/).filter(Boolean).length;

describe('the analytics provider', () => {
  it('declares itself in one short line, is always healthy, and keys its params on calc', () => {
    expect(provider.name).toBe('analytics');
    expect(provider.description.length).toBeLessThan(200);
    expect(provider.description).not.toMatch(/\n/);
    expect(provider.health()).toEqual({ state: 'ok', detail: 'local, no network' });
    const calcs = provider.params.options.map((o) => o.shape.calc.value);
    expect(calcs).toEqual([
      'option_price',
      'implied_vol',
      'bootstrap',
      'fit_curve',
      'bond_risk',
      'payoff',
      'scenario_tree',
      'zscore_halflife',
      'kelly',
      'adf',
      'var',
      'kelly_continuous',
      'bond_yield',
      'par_yields',
      'svensson',
    ]);
  });

  it('option_price: Hull Example 15.6 with the valuation date given, a full table and a short summary', async () => {
    const r = await fetch({ calc: 'option_price', type: 'call', underlying: 42, strike: 40, expiry_years: 0.5, rate: 0.1, vol: 0.2, as_of: '2026-01-15' });
    expect(r.asOf).toBe('2026-01-15');
    expect(r.source).toBe('forge analytics (local)');
    expect(r.formatSummary()).toMatch(/^BSM call S=42 K=40 T=0.5y r=10%, vol 20%: price 4.7594; delta 0.7791, gamma 0.04996, vega 0.08813 per vol point/);
    expect(tokens(r.formatSummary())).toBeLessThan(110);
    const full = r.formatFull();
    expect(full).toContain('# ctx — analytics: option_price');
    expect(full).toContain('source: forge analytics (local)');
    expect(full).toContain('as_of: 2026-01-15');
    expect(full).toMatch(/\| price \| 4\.759422 \| per unit of underlying \|/);
    expect(full).toMatch(/\| vega \| 8\.813415 \|/);
  });

  it('implied_vol: no date given → today (from the clock); an expiry date is counted ACT/365 from it', async () => {
    // 2026-03-02 → 2026-08-31 is 182 days = 0.49863 years.
    const priced = await fetch({ calc: 'option_price', type: 'put', underlying: 100, strike: 95, expiry_date: '2026-08-31', rate: 0.04, vol: 0.25 });
    const price = Number(/price (\d+\.\d+)/.exec(priced.formatSummary())![1]);
    const r = await fetch({ calc: 'implied_vol', type: 'put', underlying: 100, strike: 95, expiry_date: '2026-08-31', rate: 0.04, price });
    expect(r.asOf).toBe('2026-03-02');
    expect(r.formatSummary()).toMatch(/implied vol 25(\.000\d)?% \(solved in \d iterations to 1e-10\)/);
    expect(r.formatFull()).toMatch(/\| expiry \(years\) \| 0\.49863 \|/);
  });

  it("the session's as-of date stands in for today, and a later valuation date is refused", async () => {
    const ctx = { ...fixed, asOf: '2025-12-31' };
    const r = await fetch({ calc: 'kelly', probability: 0.6, odds: 1 }, ctx);
    expect(r.asOf).toBe('2025-12-31');
    const e = await failure({ calc: 'kelly', probability: 0.6, odds: 1, as_of: '2026-01-05' }, ctx);
    expect(e).toBeInstanceOf(ProviderError);
    expect(e.kind).toBe('as_of');
    expect(e.message).toMatch(/as_of 2026-01-05 is after the session's as-of date 2025-12-31/);
  });

  it('bootstrap and fit_curve: Hull Table 4.3 bonds → zero-rate table; a 12-point curve → Nelson–Siegel parameters', async () => {
    const bonds = [
      { maturity: 0.25, coupon: 0, price: 99.6 },
      { maturity: 0.5, coupon: 0, price: 99.0 },
      { maturity: 1, coupon: 0, price: 97.8 },
      { maturity: 1.5, coupon: 0.04, price: 102.5 },
      { maturity: 2, coupon: 0.05, price: 105.0 },
    ];
    const b = await fetch({ calc: 'bootstrap', bonds });
    // 2y: z = 2.41638%, annual e^z − 1 = 2.44581%, DF 0.952822; forward 1.5y→2y = (2·2.41638 − 1.5·2.28445)/0.5 = 2.81217%.
    expect(b.formatFull()).toMatch(/\| 2 \| 2\.4164% \| 2\.4458% \| 0\.952822 \| 2\.8122% \|/);
    expect(b.formatSummary()).toMatch(/Bootstrapped 5 zero rates from 5 bonds: 0.25y 1.603% → 2y 2.416%/);
    const points = [0.25, 0.5, 1, 2, 3, 5, 7, 10, 20, 30].map((m) => ({ maturity: m, rate: 0.04 - 0.02 * ((1 - Math.exp(-0.5 * m)) / (0.5 * m)) }));
    const f = await fetch({ calc: 'fit_curve', points });
    expect(f.formatSummary()).toMatch(/Nelson–Siegel: β0 4% \(long end\), β1 -2% \(short end 2%\), β2 0%, λ 0\.5\/yr; RMSE 0bp/);
    expect(f.formatFull()).toContain('## CURVE');
  });

  it('zscore_halflife claims mean reversion only when ADF rejects, and says so in the summary', async () => {
    const alternating = Array.from({ length: 120 }, (_, t) => 5 + (t % 2 ? 1 : -1) * (1 + ((t * 37) % 11) / 11));
    const yes = await fetch({ calc: 'zscore_halflife', series: alternating, window: 20 });
    expect(yes.formatSummary()).toMatch(/mean-reverting: ADF rejects a unit root at 5%/);
    const trend = Array.from({ length: 120 }, (_, t) => t + ((t * 13) % 7) / 7);
    const no = await fetch({ calc: 'zscore_halflife', series: trend });
    expect(no.formatSummary()).toMatch(/NOT shown to mean-revert: ADF τ/);
    expect(no.formatFull()).toMatch(/\| mean-reverting \(ADF at 5%\) \| no \|/);
  });

  it('scenario_tree, payoff, bond_risk and kelly each return their numbers', async () => {
    const s = await fetch({
      calc: 'scenario_tree',
      scenarios: [
        { name: 'up', probability: 0.6, value: 10 },
        { name: 'down', probability: 0.4, value: -5 },
      ],
    });
    expect(s.formatSummary()).toMatch(/^2 scenarios: expected 4, stdev 7\.3485/);
    const p = await fetch({ calc: 'payoff', legs: [{ kind: 'call', strike: 100, premium: 3, quantity: 1 }], prices: [90, 103, 110] });
    expect(p.formatSummary()).toMatch(/max profit unbounded, max loss -3; breakevens 103/);
    const br = await fetch({ calc: 'bond_risk', maturity: 3, coupon: 0.1, yield: 0.12, compounding: 'continuous' });
    expect(br.formatSummary()).toMatch(/price 94\.213 per 100; Macaulay duration 2\.653y/);
    const k = await fetch({
      calc: 'kelly',
      outcomes: [
        { probability: 0.4, return: 0.1 },
        { probability: 0.6, return: -0.1 },
      ],
    });
    expect(k.formatSummary()).toMatch(/size 0 — no positive expected edge/);
  });

  it('adf: the deterministic terms are chosen and named, and the matching MacKinnon table is used', async () => {
    // A straight trend plus a repeating wiggle is trend-stationary: 'ct' rejects, 'n' cannot.
    const series = Array.from({ length: 120 }, (_, t) => 0.1 * t + (t % 2 ? 1 : -1) * (1 + ((t * 37) % 11) / 11));
    const ct = await fetch({ calc: 'adf', series, regression: 'ct', lags: 1 });
    expect(ct.formatSummary()).toMatch(
      /^ADF \(constant and linear trend, 'ct'\), n=120: τ -\d+\.\d+ vs -3\.4\d* at 5% \(p ≈ 0\) → rejects a unit root at 5%; 1 lags \(fixed\), 118 observations/,
    );
    expect(ct.formatFull()).toMatch(/## CRITICAL VALUES \(MacKinnon 2010, 'ct', T = 118\)/);
    const n = await fetch({ calc: 'adf', series, regression: 'n', lags: 1 });
    expect(n.formatSummary()).toMatch(/no constant, no trend, 'n'.*vs -1\.94\d* at 5%.*does NOT reject a unit root/);
    const bad = await failure({ calc: 'adf', series, regression: 'ctt' });
    expect(bad.kind).toBe('bad_params');
  });

  it('var: historical names its order statistic and the normal method its formula; loss is positive', async () => {
    // 20 returns: the worst are −4.2%, −3.1%, −2.5% → at 90% VaR = L(18) = 2.5%, ES = (3.1 + 4.2)/2 = 3.65%.
    const returns = [0.5, -1.2, 0.3, -2.5, 1.1, -0.4, 0.8, -3.1, 0.2, -0.7, 1.5, -1.8, 0.6, -0.1, 0.9, -4.2, 0.4, -0.9, 1.2, -0.3].map((x) => x / 100);
    const h = await fetch({ calc: 'var', returns, confidence: 0.9, method: 'historical' });
    expect(h.formatSummary()).toMatch(/^90% one-period historical VaR 2\.5%, ES 3\.65% \(L\(18\) of 20 losses, k = ⌈n·α⌉\)\. Loss positive/);
    expect(h.formatFull()).toMatch(/historical: lower empirical quantile: VaR = L\(k\), k = ⌈n·α⌉/);
    // Hull: 10-day P&L N(0, 20²) → 99% VaR 46.53, ES 53.30 (money, since value is given).
    const n = await fetch({ calc: 'var', mean: 0, stdev: 0.2, value: 100 });
    expect(n.formatSummary()).toMatch(/^99% one-period normal VaR 46\.53, ES 53\.3 \(μ 0, σ 20\)/);
    expect(n.formatFull()).toContain('−μ + σ·φ(z_α)/(1 − α)');
    const both = await fetch({ calc: 'var', returns, confidence: 0.9 });
    expect(both.formatSummary()).toMatch(/historical VaR .*; normal VaR .* fitted\)/);
    const missing = await failure({ calc: 'var', method: 'historical', mean: 0, stdev: 0.1 });
    expect(missing.kind).toBe('bad_params');
    expect(missing.message).toMatch(/the historical method needs returns/);
  });

  it('kelly_continuous: f* = (μ − r)/σ² — Thorp: μ 11%, σ 20%, r 6% → 1.25× full, 0.625× at half', async () => {
    const k = await fetch({ calc: 'kelly_continuous', mean: 0.11, vol: 0.2, rate: 0.06 });
    expect(k.formatSummary()).toMatch(/f\* = \(μ − r\)\/σ² = \(11% − 6%\)\/20%² = 1\.25× capital; 0\.5× → 0\.625×/);
    const none = await fetch({ calc: 'kelly_continuous', mean: 0.03, vol: 0.2, rate: 0.04 });
    expect(none.formatSummary()).toMatch(/size 0 — no positive excess return/);
  });

  it('bad params come back as bad_params errors the analyst can act on, never a crash', async () => {
    const bounds = await failure({ calc: 'implied_vol', type: 'call', underlying: 100, strike: 80, expiry_years: 1, rate: 0.05, price: 20 });
    expect(bounds.kind).toBe('bad_params');
    expect(bounds.message).toMatch(/outside the no-arbitrage bounds of this call: it must lie strictly between 23\.9016\d* and 100/);
    const schema = await failure({ calc: 'option_price', type: 'call', underlying: -1, strike: 40, expiry_years: 1, rate: 0.05, vol: 0.2 });
    expect(schema.kind).toBe('bad_params');
    expect(schema.message).toMatch(/underlying/);
    const unknown = await failure({ calc: 'black_magic' });
    expect(unknown.kind).toBe('bad_params');
    const both = await failure({ calc: 'option_price', type: 'call', underlying: 1, strike: 1, expiry_years: 1, expiry_date: '2027-01-01', rate: 0, vol: 0.2 });
    expect(both.message).toMatch(/either expiry_years or expiry_date/);
    const tree = await failure({ calc: 'scenario_tree', scenarios: [{ name: 'a', probability: 0.5, value: 1 }] });
    expect(tree.message).toMatch(/sum to 0.5; they must sum to 1/);
    const kellyNoLoss = await failure({ calc: 'kelly', probability: 1, odds: 2 });
    expect(kellyNoLoss.message).toMatch(/no outcome with a positive probability loses money/);
  });
});
