import type { ProviderResult } from '../provider';
import type { MarketSeries } from './schema';

/**
 * The two renderings of a market series: the whole dated table (stored in the session) and about
 * 100 tokens for the conversation. Units are stated in both, so "4.1" is never read as a price.
 */

const round = (n: number, dp: number) => {
  const f = 10 ** dp;
  return Math.round(n * f) / f;
};

/** Decimal places that keep the series' own precision (FX 5, yields 3, indices 2). */
function decimals(series: MarketSeries): number {
  if (series.kind !== 'price') return series.kind === 'yield' ? 3 : 2;
  const sample = series.rows.find((r) => r.values[0] !== null)?.values[0] ?? 0;
  const abs = Math.abs(sample);
  return abs < 10 ? 5 : 2;
}

const signed = (n: number, dp: number) => `${n >= 0 ? '+' : ''}${round(n, dp)}`;

/** One column first → last with the change in the unit a PM reads it in (%, bp, vol points). */
function describeColumn(series: MarketSeries, i: number, dp: number): string | null {
  const points = series.rows.map((r) => ({ date: r.date, v: r.values[i] ?? null })).filter((p): p is { date: string; v: number } => p.v !== null);
  if (!points.length) return null;
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const values = points.map((p) => p.v);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  let change: string;
  if (series.kind === 'price') change = first.v !== 0 ? `${signed(((last.v - first.v) / first.v) * 100, 1)}%` : signed(last.v - first.v, dp);
  else if (series.kind === 'yield') change = `${signed((last.v - first.v) * 100, 0)} bp`;
  else change = `${signed(last.v - first.v, 2)} vol pts`;
  const label = series.columns.length > 1 ? `${series.columns[i]} ` : '';
  return `${label}${round(first.v, dp)} → ${round(last.v, dp)} (${change}; range ${round(lo, dp)}–${round(hi, dp)})`;
}

export interface MarketResultInfo {
  /** e.g. `sample resources/data/market (synthetic)`, `Alpha Vantage FX_DAILY EUR/USD`. */
  source: string;
  /** The clock, for the fetched-at line. */
  now: () => Date;
  /** Lines a reader must see (e.g. "synthetic sample data, not market data"). */
  notes?: string[];
  /** Sentences the short summary carries too ("Showing 500 of 2,300 obs", an as-of cut). */
  summaryNotes?: string[];
  /** One sentence on splits and dividends in the range (reported, never applied): summary and a `## EVENTS` section. */
  events?: string;
}

export function marketResult(series: MarketSeries, info: MarketResultInfo): ProviderResult {
  const first = series.rows[0]!.date;
  const asOf = series.rows[series.rows.length - 1]!.date;
  const dp = decimals(series);
  const kindWord = series.kind === 'implied_vol' ? 'implied vol' : series.kind;
  const label = `${series.symbol} ${kindWord} ${first}..${asOf}`;
  const columnLines = series.columns.map((_, i) => describeColumn(series, i, dp)).filter((s): s is string => s !== null);

  const summary = () => {
    const shown = columnLines.slice(0, 4);
    const more = columnLines.length > shown.length ? ` (+${columnLines.length - shown.length} more columns)` : '';
    const notes = info.notes?.length ? ` ${info.notes[0]}` : '';
    const extra = [...(info.summaryNotes ?? []), ...(info.events ? [info.events] : [])].map((n) => ` ${n}`).join('');
    return `${series.name}, ${series.rows.length} obs ${first}..${asOf}, in ${series.unit}: ${shown.join('; ')}${more}. Source: ${info.source}.${notes}${extra}`;
  };

  const full = () =>
    [
      `# ${series.symbol} ${kindWord}`,
      `name: ${series.name}`,
      `kind: ${series.kind}`,
      `unit: ${series.unit}`,
      `source: ${info.source}`,
      `range: ${first}..${asOf}`,
      `observations: ${series.rows.length}`,
      `as_of: ${asOf}`,
      `fetched_at: ${info.now().toISOString()}`,
      ...(info.notes ?? []).map((n) => `note: ${n}`),
      '---',
      '## SUMMARY',
      summary(),
      '',
      ...(info.events ? ['## EVENTS', info.events, ''] : []),
      '## DATA',
      `| date | ${series.columns.map((c) => `${c} (${series.unit})`).join(' | ')} |`,
      `|---|${series.columns.map(() => '---:').join('|')}|`,
      ...series.rows.map((r) => `| ${r.date} | ${r.values.map((v) => (v === null ? '' : v.toFixed(dp))).join(' | ')} |`),
      '',
    ].join('\n');

  return { label, asOf, source: info.source, formatFull: full, formatSummary: summary };
}
