import { z } from 'zod';
import { ProviderError } from '../provider';

/**
 * One request shape for prices, yields and implied vols, whichever backend answers it (the local
 * sample folder or a vendor), and one normalised answer: a dated table with its unit stated.
 */

export const MARKET_KINDS = ['price', 'yield', 'implied_vol'] as const;
export type MarketKind = (typeof MARKET_KINDS)[number];

export const VOL_DELTAS = ['ATM', '25C', '25P'] as const;

const isoDate = z.iso.date('a date YYYY-MM-DD');

export const marketParams = z
  .object({
    kind: z.enum(MARKET_KINDS).describe('price (in quote currency), yield (in %), implied_vol (in % annualised)'),
    symbol: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9][A-Z0-9._-]{0,19}$/, 'a symbol such as SPX, EURUSD, BRENT, UST10Y, BUND10Y, IBM')
      .describe(
        'e.g. SPX, EURUSD, BRENT, UST2Y, UST10Y, BUND10Y; equities by ticker (IBM) when a vendor key is set; with a market suffix (SPY.US, VOD.UK) from Stooq, no key',
      ),
    start: isoDate.optional().describe('first date, YYYY-MM-DD'),
    end: isoDate.optional().describe('last date, YYYY-MM-DD'),
    last: z.number().int().min(1).max(1000).optional().describe('only the last N observations'),
    tenor: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^\d{1,2}[WMY]$/, 'a tenor such as 1M, 3M, 1Y')
      .optional()
      .describe('implied_vol only: option expiry, e.g. 1M, 3M (default: every tenor)'),
    delta: z.enum(VOL_DELTAS).optional().describe('implied_vol only: ATM, 25C (25-delta call) or 25P (25-delta put) (default: all)'),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.kind !== 'implied_vol') {
      for (const k of ['tenor', 'delta'] as const) {
        if (p[k] !== undefined) ctx.addIssue({ code: 'custom', path: [k], message: `${k} applies to implied_vol only (kind is ${p.kind})` });
      }
    }
    if (p.start && p.end && p.start > p.end) ctx.addIssue({ code: 'custom', path: ['end'], message: `end ${p.end} is before start ${p.start}` });
  });

export type MarketParams = z.output<typeof marketParams>;

/** The normalised answer of every backend. */
export interface MarketSeries {
  kind: MarketKind;
  symbol: string;
  /** e.g. `S&P 500 index`, `US Treasury 10-year yield`. */
  name: string;
  /** Stated on every table: `USD per EUR`, `%`, `% annualised`. */
  unit: string;
  /** Value columns after the date: `close`, `yield`, or one per tenor/delta (`1M ATM`). */
  columns: string[];
  /** Ascending by date; a missing value is null. */
  rows: { date: string; values: (number | null)[] }[];
}

export const MAX_ROWS = 500;

/**
 * Applies start/end/last and the session's as-of date (nothing after it) to an ascending series.
 * The same window for every backend, so a vendor cannot leak a later observation.
 */
export function windowSeries(series: MarketSeries, params: Pick<MarketParams, 'start' | 'end' | 'last'>, asOf?: string): MarketSeries {
  const end = asOf && (!params.end || asOf < params.end) ? asOf : params.end;
  let rows = series.rows.filter((r) => (!params.start || r.date >= params.start) && (!end || r.date <= end));
  if (params.last !== undefined) rows = rows.slice(-params.last);
  if (rows.length > MAX_ROWS) rows = rows.slice(-MAX_ROWS);
  if (!rows.length) {
    const have = series.rows.length ? `${series.rows[0]!.date}..${series.rows[series.rows.length - 1]!.date}` : 'none';
    const range = `${params.start ?? '…'}..${end ?? '…'}`;
    const because = asOf && series.rows.length && series.rows[0]!.date > asOf ? ` (the session is as of ${asOf}, before the first observation)` : '';
    throw new ProviderError(`No ${series.symbol} ${series.kind} observations in ${range}${because}; available: ${have}.`, 'not_found');
  }
  return { ...series, rows };
}

/** Keeps only the requested vol columns (`1M ATM`); the columns are `<tenor> <delta>`. */
export function selectVolColumns(series: MarketSeries, tenor?: string, delta?: string): MarketSeries {
  if (!tenor && !delta) return series;
  const keep = series.columns.map((c, i) => [c, i] as const).filter(([c]) => (!tenor || c.split(' ')[0] === tenor) && (!delta || c.split(' ')[1] === delta));
  if (!keep.length) {
    throw new ProviderError(
      `No ${series.symbol} implied vol for ${[tenor, delta].filter(Boolean).join(' ')}; available: ${series.columns.join(', ')}.`,
      'not_found',
    );
  }
  return {
    ...series,
    columns: keep.map(([c]) => c),
    rows: series.rows.map((r) => ({ date: r.date, values: keep.map(([, i]) => r.values[i] ?? null) })).filter((r) => r.values.some((v) => v !== null)),
  };
}
