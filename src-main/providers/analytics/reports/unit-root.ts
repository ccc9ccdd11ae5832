import { num, table } from '../format';
import { adfTest } from '../relative-value/adf';
import { ADF_LEVELS, type AdfLevel, type AdfRegression } from '../relative-value/mackinnon';
import type { Report } from './report';

const TERMS: Record<AdfRegression, string> = {
  c: 'constant',
  ct: 'constant and linear trend',
  n: 'no constant, no trend',
};

/** A stand-alone ADF test: τ, p-value and critical values for the chosen deterministic terms. */
export function adfReport(input: { series: number[]; regression: AdfRegression; lags: number | 'aic'; level: AdfLevel }): Report {
  const r = adfTest(input.series, { lags: input.lags, regression: input.regression });
  const cv = r.criticalValues[input.level];
  const verdict = r.rejects[input.level] ? `rejects a unit root at ${input.level}` : `does NOT reject a unit root at ${input.level}`;
  const summary =
    `ADF (${TERMS[r.regression]}, '${r.regression}'), n=${input.series.length}: τ ${num(r.statistic, 3)} vs ${num(cv, 3)} at ${input.level} ` +
    `(p ≈ ${num(r.pValue, 3)}) → ${verdict}; ${r.lags} lags (${r.lagSelection}), ${r.nobs} observations in the regression.`;
  const body = [
    '## TEST',
    table(
      ['measure', 'value'],
      [
        ['regression', `Δy_t = ${r.regression === 'n' ? '' : 'α + '}${r.regression === 'ct' ? 'β·t + ' : ''}γ·y_{t−1} + Σ δ_i·Δy_{t−i} + ε_t`],
        ['deterministic terms', `${TERMS[r.regression]} ('${r.regression}')`],
        ['τ = γ̂ / se(γ̂)', num(r.statistic, 4)],
        ['γ̂', num(r.gamma, 6)],
        [`p-value (MacKinnon 1994, '${r.regression}')`, num(r.pValue, 4)],
        ['lags', `${r.lags} (${r.lagSelection})`],
        ['observations in the regression', r.nobs],
      ],
    ),
    '',
    `## CRITICAL VALUES (MacKinnon 2010, '${r.regression}', T = ${r.nobs})`,
    table(
      ['level', 'critical value', 'unit root rejected'],
      ADF_LEVELS.map((l) => [l, num(r.criticalValues[l], 4), r.rejects[l] ? 'yes' : 'no']),
    ),
  ].join('\n');
  return { label: `ADF '${r.regression}' (n=${input.series.length})`, summary, body };
}
