import { num, pct, table } from '../format';
import type { AdfLevel } from '../relative-value/mackinnon';
import { meanReversion, spreadOf } from '../relative-value/zscore';
import { scenarioStats } from '../scenarios/scenario-tree';
import { kelly, type KellyInput } from '../sizing/kelly';
import { fail } from '../numeric/validate';
import type { Report } from './report';

const MAX_TABLE_ROWS = 500;

export function scenarioReport(scenarios: unknown, percentiles?: number[]): Report {
  const s = scenarioStats(scenarios, percentiles);
  const summary =
    `${s.leaves.length} scenarios: expected ${num(s.expected)}, stdev ${num(s.stdev)}, P(<0) ${pct(s.probabilityNegative, 1)}; ` +
    `${s.percentiles.map((p) => `p${p.p} ${num(p.value)}`).join(', ')}; worst "${s.worst.path}" ${num(s.worst.value)}, best "${s.best.path}" ${num(s.best.value)}.`;
  const body = [
    '## LEAVES',
    table(
      ['scenario', 'probability', 'value', 'contribution'],
      s.leaves.map((l) => [l.path, num(l.probability, 6), num(l.value), num(l.probability * l.value)]),
    ),
    '',
    '## DISTRIBUTION',
    table(
      ['measure', 'value'],
      [
        ['expected value', num(s.expected, 6)],
        ['variance', num(s.variance, 6)],
        ['standard deviation', num(s.stdev, 6)],
        ['P(value < 0)', num(s.probabilityNegative, 6)],
        ...s.percentiles.map((p) => [`percentile ${p.p}`, num(p.value, 6)]),
      ],
    ),
  ].join('\n');
  return { label: `scenario tree (${s.leaves.length} leaves)`, summary, body };
}

export function meanReversionReport(input: {
  series?: number[];
  a?: number[];
  b?: number[];
  hedge_ratio?: number | 'ols';
  window?: number;
  level: AdfLevel;
  lags: number | 'aic';
}): Report {
  let series: number[];
  let hedge: number | null = null;
  if (input.series) {
    if (input.a || input.b) fail('give either series or both a and b, not both.');
    series = input.series;
  } else if (input.a && input.b) {
    const s = spreadOf(input.a, input.b, input.hedge_ratio ?? 1);
    series = s.spread;
    hedge = s.hedgeRatio;
  } else fail('give either series (the spread) or both a and b (the legs).');
  const r = meanReversion(series, { level: input.level, lags: input.lags, window: input.window });
  const hl = r.ar1.halfLife;
  const verdict = r.meanReverting
    ? `mean-reverting: ADF rejects a unit root at ${r.level} (τ ${num(r.adf!.statistic, 2)} < ${num(r.adf!.criticalValues[r.level], 2)}), half-life ${num(hl, 1)} periods`
    : r.adf
      ? `NOT shown to mean-revert: ADF τ ${num(r.adf.statistic, 2)} vs ${num(r.adf.criticalValues[r.level], 2)} at ${r.level} (p ≈ ${num(r.adf.pValue, 3)}); AR(1) half-life ${num(hl, 1)} is descriptive only`
      : 'too short for a unit-root test: mean reversion not claimed';
  const rollingNow = r.rolling ? r.rolling.z[r.rolling.z.length - 1] : null;
  const summary =
    `Spread n=${r.n}${hedge !== null ? ` (hedge ratio ${num(hedge)})` : ''}: current ${num(r.current)}, mean ${num(r.mean)}, stdev ${num(r.stdev)}, z ${num(r.z, 2)}` +
    `${r.rolling ? `, rolling-${r.rolling.window} z ${num(rollingNow, 2)}` : ''}, percentile ${num(r.percentile, 1)}. ${verdict}.`;
  const stats: (string | number)[][] = [
    ['observations', r.n],
    ['hedge ratio', hedge === null ? '—' : num(hedge, 6)],
    ['mean', num(r.mean, 6)],
    ['stdev', num(r.stdev, 6)],
    ['current', num(r.current, 6)],
    ['z-score', num(r.z, 4)],
    ['percentile', num(r.percentile, 2)],
    ['AR(1) phi', num(r.ar1.phi, 6)],
    ['AR(1) half-life (periods)', num(hl, 3)],
  ];
  if (r.adf) {
    stats.push(
      ['ADF τ', num(r.adf.statistic, 4)],
      ['ADF p-value (MacKinnon 1994)', num(r.adf.pValue, 4)],
      ['ADF lags', `${r.adf.lags} (${r.adf.lagSelection})`],
      ['ADF regression observations', r.adf.nobs],
      [
        'critical 1% / 5% / 10% (MacKinnon 2010)',
        `${num(r.adf.criticalValues['1%'], 3)} / ${num(r.adf.criticalValues['5%'], 3)} / ${num(r.adf.criticalValues['10%'], 3)}`,
      ],
    );
  }
  stats.push(['mean-reverting (ADF at ' + r.level + ')', r.meanReverting ? 'yes' : 'no']);
  const body = ['## STATISTICS', table(['measure', 'value'], stats), '', '## NOTES', ...(r.notes.length ? r.notes.map((n) => `- ${n}`) : ['- none'])];
  if (r.rolling) {
    const start = Math.max(0, r.n - MAX_TABLE_ROWS);
    body.push(
      '',
      `## ROLLING Z (window ${r.rolling.window}${start ? `, last ${MAX_TABLE_ROWS}` : ''})`,
      table(
        ['t', 'value', 'z'],
        series.slice(start).map((v, i) => [start + i, num(v, 6), num(r.rolling!.z[start + i], 4)]),
      ),
    );
  }
  return { label: `spread z-score and half-life (n=${r.n})`, summary, body: body.join('\n') };
}

export function kellyReport(input: {
  probability?: number;
  odds?: number;
  loss?: number;
  outcomes?: { probability: number; return: number }[];
  fraction: number;
}): Report {
  let k: KellyInput;
  if (input.outcomes) {
    if (input.probability !== undefined || input.odds !== undefined) fail('give either outcomes or probability and odds, not both.');
    k = { outcomes: input.outcomes };
  } else if (input.probability !== undefined && input.odds !== undefined) {
    k = { probability: input.probability, odds: input.odds, ...(input.loss !== undefined ? { loss: input.loss } : {}) };
  } else fail('give either probability and odds (binary form) or outcomes (a list of {probability, return}).');
  const r = kelly(k, input.fraction);
  const summary = r.reason
    ? `Kelly (${r.form}): size 0 — ${r.reason}`
    : `Kelly (${r.form}): edge ${num(r.edge)} per unit; full Kelly ${pct(r.fullKelly, 2)} of capital, ${num(r.fraction)}× → ${pct(r.recommended, 2)}; expected log growth ${num(r.growthRecommended, 5)} per bet (full: ${num(r.growthFull, 5)}). Assumes calibrated probabilities.`;
  const body = [
    '## OUTCOMES',
    table(
      ['probability', 'return per unit'],
      r.outcomes.map((o) => [num(o.probability, 6), num(o.return, 6)]),
    ),
    '',
    '## SIZE',
    table(
      ['measure', 'value'],
      [
        ['edge (expected return per unit)', num(r.edge, 6)],
        ['full Kelly fraction', num(r.fullKelly, 6)],
        ['fraction of Kelly applied', num(r.fraction, 4)],
        ['recommended fraction', num(r.recommended, 6)],
        ['log growth at full Kelly', num(r.growthFull, 6)],
        ['log growth at recommended', num(r.growthRecommended, 6)],
        ['reason for zero size', r.reason ?? '—'],
      ],
    ),
  ].join('\n');
  return { label: `kelly (${r.form})`, summary, body };
}
