import { type ResponseCache, cacheKey } from '../cache';
import { type DatedRow, cutAfterAsOf, datedTableResult, fmtNumber, lastValueDate } from '../dated-table';
import { httpGet } from '../http';
import type { DataProvider, FetchContext, ProviderHealth, ProviderResult } from '../provider';
import { ProviderError } from '../provider';
import { normaliseTenor, type TreasuryParams, treasuryParams } from './params';
import { type CurveTable, mergeCurves, parseTreasuryCsv, parseTreasuryXml } from './parse';

export const TREASURY_BASE_URL = 'https://home.treasury.gov/resource-center/data-chart-center/interest-rates';

const HOUR = 3_600_000;
const DAY_MS = 24 * HOUR;
const DEFAULT_DAYS = 90;
const DEFAULT_LIMIT = 60;
/** One request per calendar year: more than this in one fetch is a bulk download, not a question. */
const MAX_YEARS = 10;

export interface TreasuryProviderOptions {
  /** The interest-rates root (`…/data-chart-center/interest-rates`) unless Settings (or a test) points elsewhere. */
  baseUrl?: () => string | undefined;
  cache?: ResponseCache;
  now?: () => Date;
  timeoutMs?: number;
  retries?: number;
  retryBaseMs?: number;
  maxBytes?: number;
}

const CURVES = {
  nominal: { type: 'daily_treasury_yield_curve', title: 'US Treasury par yield curve (nominal)', short: 'UST nominal' },
  real: { type: 'daily_treasury_real_yield_curve', title: 'US Treasury real par yield curve (TIPS)', short: 'UST real' },
} as const;

/**
 * `treasury`: the US Treasury's daily par yield curve and real (TIPS) par yield curve, from the
 * official CSV download or XML feed, one calendar year per request, no key. Dates after the
 * session's as-of date are cut here (the Treasury serves whole years), and counted.
 */
export class TreasuryProvider implements DataProvider<typeof treasuryParams> {
  readonly name = 'treasury';
  readonly description = 'US Treasury daily par yield curve and real (TIPS) curve, by tenor';
  readonly params = treasuryParams;

  constructor(private readonly o: TreasuryProviderOptions = {}) {}

  health(): ProviderHealth {
    return { state: 'ok', detail: 'official Treasury data, no key needed' };
  }

  async fetch(p: TreasuryParams, ctx: FetchContext = {}): Promise<ProviderResult> {
    const now = (ctx.now ?? this.o.now ?? (() => new Date()))();
    const today = now.toISOString().slice(0, 10);
    const asOf = ctx.asOf;
    const curve = CURVES[p.curve ?? 'nominal'];
    const askedEnd = p.end ?? asOf ?? today;
    const end = minDay(minDay(askedEnd, asOf), today);
    if (p.start && p.start > end) {
      const why = asOf && p.start > asOf ? ` (the session is as of ${asOf})` : p.start > today ? ' (that is in the future)' : '';
      throw new ProviderError(`start ${p.start} is after ${end}${why}.`, asOf && p.start > asOf ? 'as_of' : 'bad_params');
    }
    const start = p.start ?? addDays(end, -DEFAULT_DAYS);
    const firstYear = Number(start.slice(0, 4));
    const lastYear = Number(end.slice(0, 4));
    if (lastYear - firstYear + 1 > MAX_YEARS) {
      throw new ProviderError(`${start}..${end} spans ${lastYear - firstYear + 1} calendar years; ask for at most ${MAX_YEARS} at a time.`, 'bad_params');
    }
    const format = p.format ?? 'csv';
    const tables: CurveTable[] = [];
    for (let y = firstYear; y <= lastYear; y++)
      tables.push(await this.year(curve.type, y, format, String(y) < today.slice(0, 4), p.curve ?? 'nominal', ctx.signal));
    const merged = mergeCurves(tables);

    const wanted = p.tenors ? [...new Set(p.tenors.map(normaliseTenor))] : merged.tenors;
    const columns = p.tenors ? merged.tenors.filter((t) => wanted.includes(t)).concat(wanted.filter((t) => !merged.tenors.includes(t))) : merged.tenors;
    const pick = (r: DatedRow): DatedRow => ({ ...r, values: columns.map((t) => (merged.tenors.includes(t) ? r.values[merged.tenors.indexOf(t)]! : null)) });
    // The Treasury serves whole years: every day it sent after the session's as-of date (and inside
    // the range asked) is cut here and counted, so the analyst knows later data existed and was withheld.
    const inRange = merged.rows.filter((r) => r.date >= start && (!p.end || r.date <= p.end)).map(pick);
    const { kept, removed } = cutAfterAsOf(inRange, asOf);
    const limit = p.limit ?? DEFAULT_LIMIT;
    const rows = kept.slice(-limit);
    const notes: string[] = [];
    const unpublished = columns.filter((_, i) => rows.length > 0 && rows.every((r) => r.values[i] === null));
    if (unpublished.length) notes.push(`${unpublished.join(', ')} not published in this range.`);
    const spread = twosTens(rows, columns);
    if (spread) notes.push(spread);
    const moves = changes(rows, columns);
    if (moves) notes.push(moves);
    if (!rows.length) notes.push('(Weekends and federal holidays have no curve; the current day appears after the close.)');
    return datedTableResult(
      {
        provider: this.name,
        title: curve.title,
        short: curve.short,
        source: `US Treasury ${curve.type} (${format.toUpperCase()})`,
        columns,
        unit: '% (par yield, bond-equivalent)',
        rows,
        total: kept.length,
        removedAfterAsOf: removed ? { count: removed, asOf: asOf! } : undefined,
        range: `${start}..${p.end ?? end}`,
        // The last day with a number, never a blank row; with no rows, the end of the window asked.
        asOf: lastValueDate(rows) ?? end,
        fetchedAt: now.toISOString(),
        notes,
      },
      'days',
    );
  }

  /** One calendar year of one curve, through the cache; only an answer that parses is stored. */
  private async year(type: string, year: number, format: 'csv' | 'xml', past: boolean, curve: string, signal?: AbortSignal): Promise<CurveTable> {
    const base = (this.o.baseUrl?.() || TREASURY_BASE_URL).replace(/\/+$/, '');
    // The Treasury's own links, verbatim (the bare `page` parameter included).
    const url =
      format === 'csv'
        ? `${base}/daily-treasury-rates.csv/${year}/all?type=${type}&field_tdr_date_value=${year}&page&_format=csv`
        : `${base}/pages/xml?data=${type}&field_tdr_date_value=${year}`;
    const what = `the ${year} ${curve} curve ${format.toUpperCase()}`;
    const parse = format === 'csv' ? parseTreasuryCsv : parseTreasuryXml;
    const load = async () => {
      const res = await httpGet({
        url,
        accept: format === 'csv' ? 'text' : 'xml',
        signal,
        timeoutMs: this.o.timeoutMs,
        retries: this.o.retries,
        retryBaseMs: this.o.retryBaseMs,
        maxBytes: this.o.maxBytes,
      }).catch((e: unknown) => {
        throw e instanceof ProviderError ? new ProviderError(`US Treasury, ${what}: ${e.message}`, e.kind) : e;
      });
      if (res.contentType === 'text/html')
        throw new ProviderError(`Treasury answered ${what} with a web page, not the ${format.toUpperCase()}.`, 'bad_response');
      parse(res.text, what); // checked before it can be cached: a 200 that is not the data is a fault, not data
      return res.text;
    };
    // A past year's curve is final; the current year gains a day each afternoon.
    const text = this.o.cache ? (await this.o.cache.through(cacheKey('treasury', url), past ? DAY_MS : HOUR, load)).value : await load();
    return parse(text, what);
  }
}

/** `2s10s +31 bp on 2023-09-01.` when the last row has both. */
function twosTens(rows: DatedRow[], columns: string[]): string | null {
  const i2 = columns.indexOf('2Y');
  const i10 = columns.indexOf('10Y');
  if (i2 < 0 || i10 < 0) return null;
  const last = rows.findLast((r) => r.values[i2] !== null && r.values[i10] !== null);
  if (!last) return null;
  const bp = Math.round((last.values[i10]! - last.values[i2]!) * 100);
  return `2s10s ${bp >= 0 ? '+' : ''}${fmtNumber(bp)} bp on ${last.period}.`;
}

/** `Change 2023-07-03→2023-09-01: 2Y -7 bp, 10Y +32 bp, 30Y +42 bp.` over the rows shown (the key tenors present). */
function changes(rows: DatedRow[], columns: string[]): string | null {
  const key = ['3M', '2Y', '10Y', '30Y'].filter((t) => columns.includes(t));
  const picked = (key.length ? key : columns.slice(0, 3)).map((t) => columns.indexOf(t));
  const parts = picked.flatMap((i) => {
    const first = rows.find((r) => r.values[i] !== null);
    const last = rows.findLast((r) => r.values[i] !== null);
    if (!first || !last || first === last) return [];
    const bp = Math.round((last.values[i]! - first.values[i]!) * 100);
    return [{ text: `${columns[i]} ${bp >= 0 ? '+' : ''}${bp} bp`, from: first.period, to: last.period }];
  });
  if (!parts.length) return null;
  return `Change ${parts[0]!.from}→${parts[0]!.to}: ${parts.map((p) => p.text).join(', ')}.`;
}

function minDay(a: string, b: string | undefined): string {
  return b && b < a ? b : a;
}

function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}
