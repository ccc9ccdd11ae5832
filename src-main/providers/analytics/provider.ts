import type { z } from 'zod';
import { isAppError } from '../../common/errors';
import { type DataProvider, type FetchContext, ProviderError, type ProviderHealth, type ProviderResult } from '../provider';
import { type AnalyticsParams, analyticsParams } from './params';
import { bondRiskReport, curveReport } from './reports/curves';
import { optionReport, payoffReport } from './reports/options';
import type { Report } from './reports/report';
import { continuousKellyReport, varReport } from './reports/risk';
import { kellyReport, meanReversionReport, scenarioReport } from './reports/stats';
import { adfReport } from './reports/unit-root';
import { bondYieldReport, parYieldsReport, svenssonReport } from './reports/yields';

/**
 * The `analytics` data provider: local calculations (no network, no keys) the analyst reaches
 * through `fetch`. Each result is stamped with the valuation date (the one given, else the
 * session's as-of date, else today) and the source `forge analytics (local)`.
 */

export const ANALYTICS_SOURCE = 'forge analytics (local)';

const DAY_MS = 86_400_000;

function yearsBetween(from: string, to: string): number {
  return (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / (365 * DAY_MS);
}

function validDate(name: string, d: string): string {
  const t = Date.parse(`${d}T00:00:00Z`);
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== d)
    throw new ProviderError(`${name} "${d}" is not a calendar date (YYYY-MM-DD).`, 'bad_params');
  return d;
}

function run(p: AnalyticsParams, asOf: string): Report {
  switch (p.calc) {
    case 'option_price':
    case 'implied_vol': {
      if ((p.expiry_years === undefined) === (p.expiry_date === undefined)) throw new ProviderError('give either expiry_years or expiry_date.', 'bad_params');
      const expiry = p.expiry_years ?? yearsBetween(asOf, validDate('expiry_date', p.expiry_date!));
      if (!(expiry > 0)) throw new ProviderError(`expiry_date ${p.expiry_date} is not after the valuation date ${asOf}.`, 'bad_params');
      return optionReport({
        model: p.model,
        type: p.type,
        underlying: p.underlying,
        strike: p.strike,
        expiry,
        rate: p.rate,
        ...(p.dividend_yield !== undefined ? { dividendYield: p.dividend_yield } : {}),
        ...(p.spots !== undefined ? { spots: p.spots } : {}),
        ...(p.calc === 'option_price' ? { vol: p.vol } : { price: p.price }),
      });
    }
    case 'bootstrap':
      return curveReport({ bonds: p.bonds, model: 'none', bootstrapOnly: true });
    case 'fit_curve':
      return curveReport({ bonds: p.bonds, points: p.points, model: p.model, bootstrapOnly: false });
    case 'bond_risk':
      return bondRiskReport(p);
    case 'payoff':
      return payoffReport(p.legs, p.prices, p.multiplier);
    case 'scenario_tree':
      return scenarioReport(p.scenarios, p.percentiles);
    case 'zscore_halflife':
      return meanReversionReport(p);
    case 'kelly':
      return kellyReport(p);
    case 'adf':
      return adfReport(p);
    case 'var':
      return varReport(p);
    case 'kelly_continuous':
      return continuousKellyReport(p);
    case 'bond_yield':
      return bondYieldReport({ ...p, settlement: p.settlement ?? asOf });
    case 'par_yields':
      return parYieldsReport(p);
    case 'svensson':
      return svenssonReport(p);
  }
}

export function analyticsProvider(): DataProvider<typeof analyticsParams> {
  return {
    name: 'analytics',
    description: 'local maths',
    params: analyticsParams,
    health: (): ProviderHealth => ({ state: 'ok', detail: 'local, no network' }),
    async fetch(params: z.output<typeof analyticsParams>, ctx: FetchContext): Promise<ProviderResult> {
      if (ctx.signal?.aborted) throw new ProviderError('stopped', 'unavailable');
      const parsed = analyticsParams.safeParse(params);
      if (!parsed.success) {
        const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || 'params'}: ${i.message}`);
        throw new ProviderError(`analytics params are invalid: ${issues.join('; ')}`, 'bad_params');
      }
      const p = parsed.data;
      const today = (ctx.now ?? (() => new Date()))().toISOString().slice(0, 10);
      const asOf = p.as_of ? validDate('as_of', p.as_of) : (ctx.asOf ?? today);
      if (ctx.asOf && asOf > ctx.asOf) throw new ProviderError(`as_of ${asOf} is after the session's as-of date ${ctx.asOf}.`, 'as_of');
      let report: Report;
      try {
        report = run(p, asOf);
      } catch (e) {
        // The math says what is wrong with the inputs (InvalidInputError); the analyst reads it as bad params.
        if (isAppError(e) && e.code === 'invalid_input') throw new ProviderError(e.message, 'bad_params');
        throw e;
      }
      const header = [`# ctx — analytics: ${p.calc}`, `source: ${ANALYTICS_SOURCE}`, `as_of: ${asOf}`, `label: ${report.label}`, '---'];
      const full = [...header, '## SUMMARY', report.summary, '', report.body, ''].join('\n');
      return {
        label: report.label,
        asOf,
        source: ANALYTICS_SOURCE,
        formatFull: () => full,
        formatSummary: () => report.summary,
      };
    },
  };
}
