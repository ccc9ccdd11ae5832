import { describe, expect, it } from 'vitest';
import type { ProviderError } from '../provider';
import { analyticsProvider } from './provider';

/**
 * The analyst's view of the yield calculations and the option grid: each op answers with a short
 * summary naming its conventions and a full table. If these failed, the analyst would get no
 * yield, par curve or Svensson curve (or one in an unstated convention) and quote it to the PM.
 */

const fixed = { now: () => new Date('2026-03-09T15:00:00Z') };
const provider = analyticsProvider();
const fetch = (params: Record<string, unknown>) => provider.fetch(params as never, fixed);
const tokens = (s: string) => s.split(/[\s,;:()]+/).filter(Boolean).length;

async function failure(params: Record<string, unknown>): Promise<ProviderError> {
  try {
    await fetch(params);
  } catch (e) {
    return e as ProviderError;
  }
  throw new Error('expected the fetch to fail');
}

describe('analytics: yields, par curves, Svensson, and the option grid', () => {
  it("bond_yield: Excel's YIELD example (5.75%, clean 95.04287, 8.75y 30/360) → 6.5%, and back to the price", async () => {
    const y = await fetch({ calc: 'bond_yield', maturity: 8.75, coupon: 0.0575, clean_price: 95.04287 });
    expect(y.formatSummary()).toMatch(/^8\.75y 5\.75% semiannual bond at clean 95\.04287: yield to maturity 6\.5% \(continuous 6\.3966%/);
    expect(y.formatSummary()).toMatch(/street convention, compounded 2× a year/);
    expect(tokens(y.formatSummary())).toBeLessThan(110);
    expect(y.formatFull()).toMatch(/\| accrued interest \| 1\.4375 \|/);
    const p = await fetch({ calc: 'bond_yield', maturity: 9.75, coupon: 0.0575, yield: 0.065 });
    expect(p.formatSummary()).toMatch(/at 6\.5%: clean 94\.63436, dirty 96\.07186/);
    const both = await failure({ calc: 'bond_yield', maturity: 5, coupon: 0.04, clean_price: 99, yield: 0.04 });
    expect(both.kind).toBe('bad_params');
    expect(both.message).toMatch(/exactly one of clean_price, dirty_price .* or yield/);
  });

  it('bond_yield by dates: settlement defaults to the valuation date; the day count and coupon schedule are stated', async () => {
    const r = await fetch({ calc: 'bond_yield', coupon: 0.0575, maturity_date: '2016-11-15', day_count: '30/360', clean_price: 95.04287, as_of: '2008-02-15' });
    expect(r.formatSummary()).toMatch(/bond maturing 2016-11-15, settling 2008-02-15 at clean 95\.04287: yield to maturity 6\.5%/);
    expect(r.formatSummary()).toMatch(/30\/360 accrual, 18 coupons left, next 2008-05-15/);
    expect(tokens(r.formatSummary())).toBeLessThan(110);
    expect(r.formatFull()).toMatch(/\| previous \/ next coupon \| 2007-11-15 \/ 2008-05-15 \|/);
    const neither = await failure({ calc: 'bond_yield', coupon: 0.04, clean_price: 99 });
    expect(neither.message).toMatch(/either maturity \(years\) or maturity_date/);
  });

  it('par_yields: Hull §4.6 zero curve → 2y par yield 6.873% (semiannual), one row per tenor', async () => {
    const r = await fetch({
      calc: 'par_yields',
      points: [
        { maturity: 0.5, rate: 0.05 },
        { maturity: 1, rate: 0.058 },
        { maturity: 1.5, rate: 0.064 },
        { maturity: 2, rate: 0.068 },
      ],
    });
    expect(r.formatSummary()).toMatch(/^Par yields \(semiannual coupons, clean price 100\) from 4 zero rates: 0\.5y 5\.063% → 2y 6\.873%/);
    expect(r.formatSummary()).toMatch(/Zeros given continuous, interpolated linearly/);
    expect(r.formatFull()).toMatch(/\| 2 \| 6\.8% \| 0\.872843 \| 6\.8729% \|/);
  });

  it("svensson: the Fed's GSW parameters for 2026-03-06 reproduce SVENY10, SVENPY10 and SVEN1F09 as published", async () => {
    const r = await fetch({
      calc: 'svensson',
      beta0: 0.00000118558051341,
      beta1: 0.0365507972187386,
      beta2: -0.03657398577533,
      beta3: 0.164827863321283,
      tau1: 5.33457685733225,
      tau2: 14.4318194852304,
    });
    // Published: SVENY02 3.554, SVENPY02 3.5862, SVENY10 4.2079, SVENPY10 4.1849, SVEN1F01/04/09 3.5637/4.0487/5.2008.
    expect(r.formatSummary()).toMatch(
      /2y zero 3\.554%, par 3\.586%; 10y zero 4\.208%, par 4\.185%; 1y forward par in 1y 3\.564%, in 4y 4\.049%, in 9y 5\.201%/,
    );
    expect(r.formatFull()).toMatch(/\| 10 \| 4\.2079% \| 5\.2209% \| 4\.1849% \|/);
    expect(r.formatFull()).toMatch(/\| 9 \| 5\.2008% \|/);
    const pctBetas = await failure({ calc: 'svensson', beta0: 4.5, beta1: -1, beta2: 0, beta3: 0, tau1: 1, tau2: 10 });
    expect(pctBetas.kind).toBe('bad_params');
  });

  it("fit_curve with Svensson also gives par yields: fitted to the Fed's published 2026-03-06 zeros, they land on its par yields", async () => {
    // SVENY01–30 of 2026-03-06 (fixtures/gsw-feds200628-2026.csv), fitted back; SVENPY 2, 10, 30 = 3.5862, 4.1849, 4.7795.
    const zeros = [3.5756, 3.554, 3.5758, 3.6294, 3.7053, 3.7961, 3.8958, 4.0, 4.1049, 4.2079, 4.3069, 4.4005, 4.4874, 4.5672, 4.6392];
    const more = [4.7034, 4.7596, 4.8079, 4.8486, 4.882, 4.9082, 4.9278, 4.941, 4.9482, 4.9499, 4.9464, 4.9382, 4.9256, 4.9089, 4.8885];
    const points = [...zeros, ...more].map((y, i) => ({ maturity: i + 1, rate: y / 100 }));
    const r = await fetch({ calc: 'fit_curve', model: 'nss', points });
    const full = r.formatFull();
    expect(full).toContain('## SVENSSON PAR YIELDS');
    for (const [tenor, published] of [
      [2, 3.5862],
      [10, 4.1849],
      [30, 4.7795],
    ] as const) {
      const row = new RegExp(`\\| ${tenor} \\| [\\d.]+% \\| ([\\d.]+)% \\|`).exec(full.split('## SVENSSON PAR YIELDS')[1]!);
      expect(Math.abs(Number(row![1]) - published)).toBeLessThan(0.002);
    }
  });

  it('option_price: dividend rho in the summary and table; spots add a value/delta/gamma table at the same vol', async () => {
    const r = await fetch({
      calc: 'option_price',
      type: 'put',
      underlying: 500,
      strike: 490,
      expiry_years: 0.25,
      rate: 0.08,
      dividend_yield: 0.05,
      vol: 0.15,
      spots: [450, 500, 550],
    });
    // Haug's phi example: 42.2254 per 1.00 of yield → 0.004223 per bp.
    expect(r.formatSummary()).toMatch(/dividend rho 0\.004223 per bp of q/);
    expect(tokens(r.formatSummary())).toBeLessThan(110);
    expect(r.formatFull()).toMatch(/\| dividend rho \| 42\.225\d* \| ∂V\/∂q per 1\.00 of dividend yield/);
    expect(r.formatFull()).toContain('## VALUE ACROSS SPOT (vol 15%)');
    const price = Number(/\| price \| ([\d.]+) \|/.exec(r.formatFull())![1]);
    expect(r.formatFull()).toContain(`| 500 | ${price} |`);
    const tooMany = await failure({
      calc: 'option_price',
      type: 'call',
      underlying: 1,
      strike: 1,
      expiry_years: 1,
      rate: 0,
      vol: 0.2,
      spots: Array(102).fill(1),
    });
    expect(tooMany.kind).toBe('bad_params');
  });
});
