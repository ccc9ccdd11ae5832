import { cacheKey, type ResponseCache } from '../cache';
import { httpGet } from '../http';
import { type FetchContext, ProviderError, type ProviderHealth } from '../provider';
import type { MarketKind, MarketParams, MarketSeries } from './schema';

/**
 * Alpha Vantage behind the market schema (https://www.alphavantage.co/documentation/):
 * TIME_SERIES_DAILY (equities), FX_DAILY (currency pairs), WTI / BRENT / NATURAL_GAS (commodities,
 * daily) and TREASURY_YIELD (US Treasuries). It sells no implied vols: asking for one is a clear
 * not_found naming what it does serve. Alpha Vantage reports rate limits and unknown symbols inside
 * a 200 JSON body ("Note" / "Information" / "Error Message"), so every body is read before it is
 * trusted — and only a body that parsed into a series is cached.
 */

export const ALPHA_VANTAGE_SERVES = 'prices of FX pairs (EURUSD), US equities (IBM), WTI, BRENT and NATURAL_GAS; US Treasury yields UST3M/2Y/5Y/7Y/10Y/30Y';

export interface AlphaVantageOptions {
  /** Read on every call, so a key entered in Settings applies at once (secret `alphaVantageApiKey`). */
  apiKey: () => string | undefined;
  /** Default https://www.alphavantage.co (tests point it at a local server). */
  baseUrl?: string;
  /** Successful answers are kept here for ttlMs (free keys allow 25 requests a day). */
  cache?: ResponseCache;
  /** Default 4 hours: daily bars change once a day. */
  ttlMs?: number;
  timeoutMs?: number;
  retries?: number;
  retryBaseMs?: number;
  maxBytes?: number;
  now?: () => Date;
}

const CURRENCIES = new Set(
  'USD EUR JPY GBP CHF AUD CAD NZD SEK NOK DKK CNY CNH HKD SGD KRW INR IDR MYR PHP THB TWD MXN BRL CLP COP PEN ZAR TRY PLN CZK HUF ILS SAR AED RUB'.split(' '),
);
const COMMODITIES: Record<string, string> = { WTI: 'WTI', BRENT: 'BRENT', NATURAL_GAS: 'NATURAL_GAS', NATGAS: 'NATURAL_GAS' };
const TREASURIES: Record<string, string> = { UST3M: '3month', UST2Y: '2year', UST5Y: '5year', UST7Y: '7year', UST10Y: '10year', UST30Y: '30year' };
const TICKER = /^[A-Z][A-Z0-9]{0,5}([.-][A-Z0-9]{1,4})?$/;

/** How one symbol maps onto an Alpha Vantage function. `generic`: matched only the ticker pattern. */
export interface AlphaVantageRoute {
  fn: 'TIME_SERIES_DAILY' | 'FX_DAILY' | 'TREASURY_YIELD' | 'WTI' | 'BRENT' | 'NATURAL_GAS';
  query: Record<string, string>;
  seriesKey?: string;
  generic: boolean;
  name: string;
  unit: string;
}

export function routeFor(kind: MarketKind, symbol: string): AlphaVantageRoute | null {
  if (kind === 'yield') {
    const maturity = TREASURIES[symbol];
    if (!maturity) return null;
    return {
      fn: 'TREASURY_YIELD',
      query: { interval: 'daily', maturity },
      generic: false,
      name: `US Treasury ${maturity.replace(/(\d+)/, '$1-')} yield`,
      unit: '%',
    };
  }
  if (kind !== 'price') return null;
  if (/^[A-Z]{6}$/.test(symbol) && CURRENCIES.has(symbol.slice(0, 3)) && CURRENCIES.has(symbol.slice(3))) {
    const [from, to] = [symbol.slice(0, 3), symbol.slice(3)];
    return {
      fn: 'FX_DAILY',
      query: { from_symbol: from, to_symbol: to },
      seriesKey: 'Time Series FX (Daily)',
      generic: false,
      name: `${from}/${to} spot`,
      unit: `${to} per ${from}`,
    };
  }
  const commodity = COMMODITIES[symbol];
  if (commodity) {
    const fn = commodity as 'WTI' | 'BRENT' | 'NATURAL_GAS';
    return { fn, query: { interval: 'daily' }, generic: false, name: `${commodity.replace('_', ' ')} (Alpha Vantage)`, unit: 'USD' };
  }
  if (TICKER.test(symbol)) {
    const listing = symbol.includes('.') ? symbol.split('.')[1] : undefined;
    return {
      fn: 'TIME_SERIES_DAILY',
      query: { symbol },
      seriesKey: 'Time Series (Daily)',
      generic: true,
      name: `${symbol} daily close`,
      unit: listing ? `local currency (${listing} listing)` : 'USD',
    };
  }
  return null;
}

const DAY_MS = 86_400_000;

export class AlphaVantageMarket {
  readonly id = 'alpha_vantage';
  private readonly base: string;
  private readonly now: () => Date;
  private lastError: { message: string; at: string } | null = null;

  constructor(private readonly options: AlphaVantageOptions) {
    this.base = (options.baseUrl ?? 'https://www.alphavantage.co').replace(/\/+$/, '');
    this.now = options.now ?? (() => new Date());
  }

  configured(): boolean {
    return Boolean(this.options.apiKey()?.trim());
  }

  health(): ProviderHealth {
    if (!this.configured()) return { state: 'not_configured', detail: 'Alpha Vantage needs an API key (Settings → secrets: alphaVantageApiKey).' };
    if (this.lastError) return { state: 'failing', lastError: this.lastError.message, at: this.lastError.at };
    return { state: 'ok', detail: `Alpha Vantage: ${ALPHA_VANTAGE_SERVES}` };
  }

  /** A route when Alpha Vantage serves this kind and symbol (implied vols: never). */
  route(kind: MarketKind, symbol: string): AlphaVantageRoute | null {
    return routeFor(kind, symbol);
  }

  async load(params: MarketParams, ctx: FetchContext): Promise<{ series: MarketSeries; source: string; notes: string[] }> {
    if (params.kind === 'implied_vol') {
      throw new ProviderError(`Alpha Vantage does not offer implied vols; it serves ${ALPHA_VANTAGE_SERVES}.`, 'not_found');
    }
    const route = this.route(params.kind, params.symbol);
    if (!route) throw new ProviderError(`Alpha Vantage has no ${params.kind} series "${params.symbol}"; it serves ${ALPHA_VANTAGE_SERVES}.`, 'not_found');
    const key = this.options.apiKey()?.trim();
    if (!key) throw new ProviderError('Alpha Vantage is not configured: add the alphaVantageApiKey secret in Settings.', 'not_configured');

    const query: Record<string, string> = { function: route.fn, ...route.query };
    if (route.seriesKey) query.outputsize = this.needsFullHistory(params, ctx) ? 'full' : 'compact';
    const ck = cacheKey('market:alpha_vantage', query);
    const cached = this.options.cache?.get(ck) ?? null;
    try {
      let text = cached;
      if (text === null) {
        const url = `${this.base}/query?${new URLSearchParams({ ...query, apikey: key }).toString()}`;
        const res = await httpGet({
          url,
          accept: 'json',
          secretParams: ['apikey'],
          signal: ctx.signal,
          timeoutMs: this.options.timeoutMs,
          retries: this.options.retries,
          retryBaseMs: this.options.retryBaseMs,
          maxBytes: this.options.maxBytes,
        });
        text = res.text;
      }
      const series = parseAlphaVantage(text, route, params, key);
      if (cached === null) this.options.cache?.put(ck, text, this.options.ttlMs ?? 4 * 3_600_000);
      this.lastError = null;
      const what = route.fn === 'FX_DAILY' ? `${route.query.from_symbol}/${route.query.to_symbol}` : (route.query.maturity ?? route.query.symbol ?? route.fn);
      return {
        series,
        source: `Alpha Vantage ${route.fn} ${what}`,
        notes: cached !== null ? ['Served from the response cache (a recent identical request).'] : [],
      };
    } catch (e) {
      const err = e instanceof ProviderError ? e : new ProviderError(`Alpha Vantage: ${(e as Error)?.message ?? String(e)}`, 'bad_response');
      if (err.kind !== 'not_found' && err.kind !== 'bad_params') this.lastError = { message: err.message, at: this.now().toISOString() };
      throw err;
    }
  }

  /** `compact` is the latest 100 bars; anything reaching further back (or a past as-of) needs `full`. */
  private needsFullHistory(params: MarketParams, ctx: FetchContext): boolean {
    const today = (ctx.now ?? this.now)().getTime();
    const ref = Math.min(...[params.end, ctx.asOf].filter((d): d is string => Boolean(d)).map((d) => Date.parse(`${d}T00:00:00Z`)), today);
    let earliest = ref - 30 * DAY_MS;
    if (params.start) earliest = Date.parse(`${params.start}T00:00:00Z`);
    else if (params.last) earliest = ref - Math.ceil(params.last * 1.5) * DAY_MS;
    return earliest < today - 130 * DAY_MS;
  }
}

/** Reads one Alpha Vantage body into a series, or throws the ProviderError it amounts to. */
export function parseAlphaVantage(text: string, route: AlphaVantageRoute, params: Pick<MarketParams, 'kind' | 'symbol'>, apiKey = ''): MarketSeries {
  const scrub = (s: string) => (apiKey.length >= 3 ? s.split(apiKey).join('***') : s).slice(0, 300);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ProviderError(`Alpha Vantage sent malformed JSON for ${params.symbol}.`, 'bad_response');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ProviderError('Alpha Vantage sent JSON that is not an object.', 'bad_response');
  const o = body as Record<string, unknown>;
  if (typeof o['Error Message'] === 'string') {
    throw new ProviderError(`Alpha Vantage has no ${route.fn} data for ${params.symbol}: ${scrub(o['Error Message'])}`, 'not_found');
  }
  const notice = typeof o.Note === 'string' ? o.Note : typeof o.Information === 'string' ? o.Information : null;
  if (notice !== null) {
    if (/premium/i.test(notice) && !/rate limit|call frequency|requests per/i.test(notice)) {
      throw new ProviderError(
        `Alpha Vantage: this request needs a premium plan (${scrub(notice)}). Ask for recent data only (no start date), or use the local data.`,
        'not_configured',
      );
    }
    throw new ProviderError(`Alpha Vantage rate limit reached: ${scrub(notice)}`, 'rate_limited');
  }

  const num = (v: unknown): number | null => {
    if (typeof v !== 'string' && typeof v !== 'number') return null;
    const n = typeof v === 'number' ? v : v.trim() === '' || v.trim() === '.' ? Number.NaN : Number(v);
    return Number.isFinite(n) ? n : null;
  };
  const ISO = /^\d{4}-\d{2}-\d{2}$/;
  let rows: MarketSeries['rows'];
  let unit = route.unit;
  if (route.seriesKey) {
    const ts = o[route.seriesKey];
    if (typeof ts !== 'object' || ts === null)
      throw new ProviderError(`Alpha Vantage's answer lacks "${route.seriesKey}" for ${params.symbol}.`, 'bad_response');
    rows = Object.entries(ts as Record<string, Record<string, unknown>>)
      .filter(([d]) => ISO.test(d))
      .map(([date, bar]) => ({ date, values: [num(bar?.['4. close'])] }));
  } else {
    const data = o.data;
    if (!Array.isArray(data)) throw new ProviderError(`Alpha Vantage's answer lacks "data" for ${params.symbol}.`, 'bad_response');
    rows = data
      .filter((p): p is { date: string; value: unknown } => typeof p === 'object' && p !== null && typeof (p as { date?: unknown }).date === 'string')
      .filter((p) => ISO.test(p.date))
      .map((p) => ({ date: p.date, values: [num(p.value)] }));
    if (route.fn !== 'TREASURY_YIELD' && typeof o.unit === 'string' && o.unit.trim()) unit = o.unit.trim().replace(/^dollars per /i, 'USD per ');
  }
  rows = rows.filter((r) => r.values[0] !== null).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  if (!rows.length) throw new ProviderError(`Alpha Vantage returned no observations for ${params.symbol}.`, 'not_found');
  const name = typeof o.name === 'string' && o.name.trim() ? o.name.trim() : route.name;
  return { kind: params.kind, symbol: params.symbol, name, unit, columns: [params.kind === 'yield' ? 'yield' : 'close'], rows };
}
