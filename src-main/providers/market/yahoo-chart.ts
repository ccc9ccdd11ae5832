import { type CsvTable, CsvFormatError } from '../csv-table';
import { exchangeDate, isTimeZone, offsetDate } from './exchange-date';

/**
 * Yahoo's chart JSON (`/v8/finance/chart/<symbol>?interval=1d&events=div|split`) as a file the PM
 * saved from the browser: Forge reads it, it never fetches it. One table of daily bars (date,
 * open, high, low, close, adj_close, volume) plus the dividends and splits it lists.
 *
 * - Dates are the trading day on the exchange's clock (`meta.exchangeTimezoneName`, else
 *   `meta.gmtoffset`), never the UTC day of the timestamp.
 * - Yahoo's `close` is already split-adjusted and `adjclose` is adjusted for splits and
 *   dividends; both are kept, named, and never adjusted again here.
 * - Dividends and splits are reported (events, and one sentence), never applied.
 * - A day Yahoo has no quote for (`null` in every field) stays a row of missing values.
 */

export const YAHOO_CHART_COLUMNS = ['date', 'open', 'high', 'low', 'close', 'adj_close', 'volume'] as const;

export interface CorporateEvent {
  /** Trading day on the exchange's clock. */
  date: string;
  kind: 'dividend' | 'split';
  /** Dividend per share, in the quote currency. */
  amount?: number;
  /** Split as Yahoo writes it, e.g. `4:1` (numerator new shares per denominator old). */
  ratio?: string;
}

export interface YahooChart {
  symbol: string;
  currency: string | null;
  exchange: string | null;
  /** The zone the dates are in, e.g. `America/New_York`, or `UTC-05:00` when only the offset was given. */
  timeZone: string;
  table: CsvTable;
  events: CorporateEvent[];
  /** One sentence on what the file is and how it was read (shown where a CSV's dialect is). */
  description: string;
  /** `Events: split 4:1 on 2020-08-31; dividend 0.205 on 2020-11-06 (reported, not applied).`, or null. */
  eventsLine: string | null;
}

/** A chart file that cannot be read, said in one sentence (a CsvFormatError, so a folder reports it like a bad CSV). */
export class YahooChartFormatError extends CsvFormatError {
  constructor(message: string) {
    super(message);
    this.name = 'YahooChartFormatError';
  }
}

const DAILY_OR_LONGER = new Set(['1d', '5d', '1wk', '1mo', '3mo']);

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Cheap test for a folder scan: does this text look like a saved Yahoo chart answer? */
export function looksLikeYahooChart(text: string): boolean {
  return /^\s*\{\s*"chart"\s*:/.test(text.slice(0, 200));
}

export function readYahooChart(bytes: Uint8Array): YahooChart {
  let body: unknown;
  try {
    body = JSON.parse(
      Buffer.from(bytes)
        .toString('utf8')
        .replace(/^\uFEFF/, ''),
    );
  } catch {
    throw new YahooChartFormatError('The file is not complete JSON (it may have been cut off while saving); save the chart answer again.');
  }
  const chart = obj(obj(body)?.chart);
  if (!chart) throw new YahooChartFormatError('This JSON is not a Yahoo chart answer (no "chart" object).');
  const err = obj(chart.error);
  if (err) throw new YahooChartFormatError(`Yahoo answered with an error, not prices: ${String(err.description ?? err.code ?? 'unknown').slice(0, 200)}.`);
  const result = Array.isArray(chart.result) ? obj(chart.result[0]) : null;
  if (!result) throw new YahooChartFormatError('The Yahoo chart answer holds no result.');
  const meta = obj(result.meta) ?? {};
  const symbol = typeof meta.symbol === 'string' ? meta.symbol : 'unknown symbol';
  const granularity = typeof meta.dataGranularity === 'string' ? meta.dataGranularity : '1d';
  if (!DAILY_OR_LONGER.has(granularity))
    throw new YahooChartFormatError(`The chart of ${symbol} has ${granularity} bars; save a daily one (interval=1d) to read it as a dated series.`);

  const zoneName = typeof meta.exchangeTimezoneName === 'string' && isTimeZone(meta.exchangeTimezoneName) ? meta.exchangeTimezoneName : null;
  const offset = num(meta.gmtoffset);
  if (!zoneName && offset === null)
    throw new YahooChartFormatError(`The chart of ${symbol} names no exchange time zone (exchangeTimezoneName or gmtoffset), so its days cannot be placed.`);
  const dayOf = (sec: number) => (zoneName ? exchangeDate(sec * 1000, zoneName) : offsetDate(sec * 1000, offset!));
  const timeZone =
    zoneName ??
    `UTC${offset! < 0 ? '-' : '+'}${String(Math.floor(Math.abs(offset!) / 3600)).padStart(2, '0')}:${String(Math.floor((Math.abs(offset!) % 3600) / 60)).padStart(2, '0')}`;

  const stamps = Array.isArray(result.timestamp) ? result.timestamp : [];
  const indicators = obj(result.indicators) ?? {};
  const quote = obj(Array.isArray(indicators.quote) ? indicators.quote[0] : null) ?? {};
  const adj = obj(Array.isArray(indicators.adjclose) ? indicators.adjclose[0] : null);
  const series = (name: string, from: Json | null): unknown[] | null => {
    const a = from?.[name];
    if (a === undefined || a === null) return null;
    if (!Array.isArray(a) || a.length !== stamps.length)
      throw new YahooChartFormatError(
        `The chart of ${symbol} has ${Array.isArray(a) ? a.length : 'no list of'} ${name} values for ${stamps.length} timestamps.`,
      );
    return a;
  };
  const cols = [series('open', quote), series('high', quote), series('low', quote), series('close', quote), series('adjclose', adj), series('volume', quote)];
  if (stamps.length && !cols[3]) throw new YahooChartFormatError(`The chart of ${symbol} has timestamps but no close prices.`);

  // One row per trading day: Yahoo can append the live bar of the last day after its daily bar; the later one wins.
  const byDate = new Map<string, (string | null)[]>();
  stamps.forEach((t, i) => {
    const sec = num(t);
    if (sec === null) throw new YahooChartFormatError(`The chart of ${symbol} has a timestamp that is not a number at position ${i + 1}.`);
    const cells = cols.map((c) => {
      const v = c ? num(c[i]) : null;
      return v === null ? null : String(v);
    });
    byDate.set(dayOf(sec), cells);
  });
  const rows = [...byDate.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([d, cells]) => [d, ...cells]);

  const events: CorporateEvent[] = [];
  const ev = obj(result.events) ?? {};
  for (const d of Object.values(obj(ev.dividends) ?? {})) {
    const o = obj(d);
    if (o && num(o.date) !== null && num(o.amount) !== null) events.push({ date: dayOf(num(o.date)!), kind: 'dividend', amount: num(o.amount)! });
  }
  for (const s of Object.values(obj(ev.splits) ?? {})) {
    const o = obj(s);
    if (!o || num(o.date) === null) continue;
    const ratio = typeof o.splitRatio === 'string' ? o.splitRatio : `${num(o.numerator) ?? '?'}:${num(o.denominator) ?? '?'}`;
    events.push({ date: dayOf(num(o.date)!), kind: 'split', ratio });
  }
  events.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));

  const table: CsvTable = {
    dialect: { delimiter: ',', decimalComma: false, header: true, encoding: 'UTF-8', bom: false, lineEnding: 'LF', dates: 'YYYY-MM-DD', datesNote: null },
    header: [...YAHOO_CHART_COLUMNS],
    kinds: ['date', 'number', 'number', 'number', 'number', 'number', 'number'],
    rows,
    dated: true,
  };
  const eventsLine = events.length ? `Events: ${events.map(describeEvent).join('; ')} (reported, not applied).` : null;
  const exchange = typeof meta.fullExchangeName === 'string' ? meta.fullExchangeName : typeof meta.exchangeName === 'string' ? meta.exchangeName : null;
  const currency = typeof meta.currency === 'string' ? meta.currency : null;
  const description = [
    `Yahoo chart JSON of ${symbol}${exchange ? ` (${exchange}${currency ? `, ${currency}` : ''})` : ''}, ${granularity} bars`,
    `dates in ${timeZone}`,
    cols[4]
      ? 'close is split-adjusted by Yahoo, adj_close adjusted for splits and dividends by Yahoo (neither adjusted again)'
      : 'close is split-adjusted by Yahoo; no adj_close in the file',
    events.length
      ? `${count(events, 'split')} split${count(events, 'split') === 1 ? '' : 's'} and ${count(events, 'dividend')} dividend${count(events, 'dividend') === 1 ? '' : 's'} reported, not applied`
      : 'no dividends or splits listed',
  ].join(', ');
  return { symbol, currency, exchange, timeZone, table, events, description, eventsLine };
}

const count = (events: CorporateEvent[], kind: CorporateEvent['kind']) => events.filter((e) => e.kind === kind).length;

export function describeEvent(e: CorporateEvent): string {
  return e.kind === 'split' ? `split ${e.ratio} on ${e.date}` : `dividend ${e.amount} on ${e.date}`;
}
