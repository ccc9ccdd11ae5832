import { cacheKey, type ResponseCache } from '../cache';
import { HttpStatusError, httpGet } from '../http';
import { type FetchContext, ProviderError, type ProviderHealth } from '../provider';
import { exchangeDate } from './exchange-date';
import type { MarketKind, MarketParams, MarketSeries } from './schema';
import type { VendorLoad } from './vendor';
import type { CorporateEvent } from './yahoo-chart';

/**
 * Polygon.io daily aggregates (`/v2/aggs/ticker/{T}/range/1/day/{from}/{to}?adjusted=true`),
 * US equities, key `polygonApiKey`. A bar's `t` is the start of its session in milliseconds; its
 * day is read on the New York clock, never as the UTC date. Prices are Polygon's split-adjusted
 * ones (adjusted=true, said in the source line) and are not adjusted again. Long ranges come in
 * pages (`next_url`), followed here with the key added to each request and never written to a
 * message or the cache. Splits and dividends in the range are read from Polygon's reference data
 * and reported, never applied.
 */

export const POLYGON_SERVES = 'US equities and ETFs by ticker (AAPL, SPY), daily, split-adjusted';
const US_ZONE = 'America/New_York';
const TICKER = /^[A-Z][A-Z0-9]{0,5}([.][A-Z]{1,2})?$/;
const DAY_MS = 86_400_000;

export interface PolygonOptions {
  /** Read on every call, so a key entered in Settings applies at once (secret `polygonApiKey`). */
  apiKey: () => string | undefined;
  /**
   * Default https://api.massive.com: Polygon.io renamed itself Massive on 2025-10-30 (same keys and
   * API; api.polygon.io stays supported for a while). Tests point it at a local server.
   */
  baseUrl?: string;
  cache?: ResponseCache;
  /** Default 4 hours: daily bars change once a day. */
  ttlMs?: number;
  /** Pages followed at most (default 20): a runaway `next_url` chain is stopped and said. */
  maxPages?: number;
  timeoutMs?: number;
  retries?: number;
  retryBaseMs?: number;
  maxBytes?: number;
  now?: () => Date;
}

interface Bar {
  t: number;
  o?: number;
  h?: number;
  l?: number;
  c: number;
  v?: number;
}

/** What one run of pages gave: the bars, and how the vendor described them. */
interface Aggs {
  bars: { date: string; close: number }[];
  adjusted: boolean;
  pages: number;
  /** True when maxPages stopped the paging with a next_url still to follow. */
  truncated: boolean;
}

type Json = Record<string, unknown>;

/** Reads one aggregates page, or throws the ProviderError it amounts to. */
export function parsePolygonAggs(text: string, ticker: string): { bars: Bar[]; next: string | null; adjusted: boolean } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ProviderError(`Polygon sent malformed JSON for ${ticker} (${text.length} bytes; the answer may be cut off).`, 'bad_response');
  }
  const o = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Json;
  if (o.status === 'ERROR' || o.status === 'NOT_AUTHORIZED') {
    throw new ProviderError(
      `Polygon refused ${ticker}: ${String(o.error ?? o.message ?? o.status).slice(0, 200)}`,
      o.status === 'NOT_AUTHORIZED' ? 'not_configured' : 'bad_response',
    );
  }
  if (typeof o.status !== 'string' || (o.results !== undefined && !Array.isArray(o.results)))
    throw new ProviderError(`Polygon answered ${ticker} in an unexpected shape (no status or results list).`, 'bad_response');
  const bars: Bar[] = [];
  for (const r of (o.results as unknown[] | undefined) ?? []) {
    const b = r as Json;
    if (typeof b?.t !== 'number' || typeof b.c !== 'number' || !Number.isFinite(b.c))
      throw new ProviderError(`Polygon sent a bar for ${ticker} without a time or close.`, 'bad_response');
    bars.push(b as unknown as Bar);
  }
  return { bars, next: typeof o.next_url === 'string' && o.next_url ? o.next_url : null, adjusted: o.adjusted !== false };
}

export class PolygonMarket {
  readonly id = 'polygon';
  private readonly base: string;
  private readonly now: () => Date;
  private lastError: { message: string; at: string } | null = null;

  constructor(private readonly options: PolygonOptions) {
    this.base = (options.baseUrl ?? 'https://api.massive.com').replace(/\/+$/, '');
    this.now = options.now ?? (() => new Date());
  }

  configured(): boolean {
    return Boolean(this.options.apiKey()?.trim());
  }

  health(): ProviderHealth {
    if (!this.configured()) return { state: 'not_configured', detail: 'Polygon needs an API key (Settings → API keys: polygonApiKey, or POLYGON_API_KEY).' };
    if (this.lastError) return { state: 'failing', lastError: this.lastError.message, at: this.lastError.at };
    return { state: 'ok', detail: `Polygon: ${POLYGON_SERVES}` };
  }

  /** Polygon serves this kind and symbol: prices of US tickers. */
  serves(kind: MarketKind, symbol: string): boolean {
    return kind === 'price' && TICKER.test(symbol);
  }

  async load(params: MarketParams, ctx: FetchContext): Promise<VendorLoad> {
    const key = this.options.apiKey()?.trim();
    if (!key) throw new ProviderError('Polygon is not configured: add the polygonApiKey secret in Settings → API keys.', 'not_configured');
    if (!this.serves(params.kind, params.symbol))
      throw new ProviderError(`Polygon has no ${params.kind} series "${params.symbol}"; it serves ${POLYGON_SERVES}.`, 'not_found');
    const ticker = params.symbol;
    const { from, to } = this.range(params, ctx);
    try {
      const aggs = await this.aggs(ticker, from, to, key, ctx.signal);
      const events = await this.events(ticker, from, to, key, ctx.signal);
      this.lastError = null;
      const series: MarketSeries = {
        kind: 'price',
        symbol: ticker,
        name: `${ticker} daily close`,
        unit: 'USD',
        columns: ['close'],
        rows: aggs.bars.map((b) => ({ date: b.date, values: [b.close] })),
      };
      const notes: string[] = [];
      if (aggs.truncated) notes.push(`Polygon had more pages than the ${aggs.pages} read; ask for a shorter range.`);
      if (!events.ok) notes.push(`Splits and dividends could not be read from Polygon (${events.error}); check before comparing prices across dates.`);
      return {
        series,
        source: `Polygon aggs ${ticker} 1/day ${from}..${to} (${aggs.adjusted ? 'adjusted=true: split-adjusted by Polygon, not adjusted again' : 'unadjusted'})`,
        notes,
        events: events.ok ? events.list : [],
      };
    } catch (e) {
      const err = e instanceof ProviderError ? e : new ProviderError(`Polygon: ${(e as Error)?.message ?? String(e)}`, 'bad_response');
      if (err.kind !== 'not_found' && err.kind !== 'bad_params') this.lastError = { message: err.message, at: this.now().toISOString() };
      throw err;
    }
  }

  /** Polygon needs both ends: up to the as-of/end day, back to start (or enough for `last`, else a year). */
  private range(params: MarketParams, ctx: FetchContext): { from: string; to: string } {
    const today = exchangeDate((ctx.now ?? this.now)().getTime(), US_ZONE);
    const to = [params.end, ctx.asOf, today].filter((d): d is string => Boolean(d)).sort()[0]!;
    const back = params.last !== undefined ? Math.ceil(params.last * 1.5) + 10 : 365;
    const from = params.start ?? new Date(Date.parse(`${to}T00:00:00Z`) - back * DAY_MS).toISOString().slice(0, 10);
    return { from, to };
  }

  private async aggs(ticker: string, from: string, to: string, key: string, signal?: AbortSignal): Promise<Aggs> {
    const first = `${this.base}/v2/aggs/ticker/${encodeURIComponent(ticker)}/range/1/day/${from}/${to}?adjusted=true&sort=asc&limit=50000`;
    const load = async (): Promise<string> => {
      const maxPages = this.options.maxPages ?? 20;
      const bars: Aggs['bars'] = [];
      let adjusted = true;
      let url: string | null = first;
      let pages = 0;
      while (url && pages < maxPages) {
        const page = parsePolygonAggs(await this.get(url, key, `aggregates of ${ticker}`, signal), ticker);
        pages++;
        adjusted &&= page.adjusted;
        for (const b of page.bars) bars.push({ date: exchangeDate(b.t, US_ZONE), close: b.c });
        url = page.next;
      }
      const out: Aggs = { bars: dedupe(bars), adjusted, pages, truncated: url !== null };
      return JSON.stringify(out);
    };
    // The cache holds the assembled pages under the key-less first URL: a failed page stores nothing.
    const text = this.options.cache
      ? (await this.options.cache.through(cacheKey('market:polygon', first), this.options.ttlMs ?? 4 * 3_600_000, load)).value
      : await load();
    return JSON.parse(text) as Aggs;
  }

  /** Splits and dividends with an effective day in the range; a failure here is said, not fatal. */
  private async events(
    ticker: string,
    from: string,
    to: string,
    key: string,
    signal?: AbortSignal,
  ): Promise<{ ok: true; list: CorporateEvent[] } | { ok: false; error: string }> {
    const t = encodeURIComponent(ticker);
    const urls = {
      splits: `${this.base}/v3/reference/splits?ticker=${t}&execution_date.gte=${from}&execution_date.lte=${to}&limit=1000`,
      dividends: `${this.base}/v3/reference/dividends?ticker=${t}&ex_dividend_date.gte=${from}&ex_dividend_date.lte=${to}&limit=1000`,
    };
    try {
      const read = async (url: string) => {
        const load = async () => {
          const s = await this.get(url, key, `reference data of ${ticker}`, signal);
          JSON.parse(s); // malformed JSON is a fault, never cached
          return s;
        };
        const text = this.options.cache
          ? (await this.options.cache.through(cacheKey('market:polygon', url), this.options.ttlMs ?? 4 * 3_600_000, load)).value
          : await load();
        const results = (JSON.parse(text) as Json).results;
        // The API filters by ticker; a mirror that does not is filtered here.
        return (Array.isArray(results) ? results : []).map((r) => r as Json).filter((r) => r.ticker === ticker);
      };
      const list: CorporateEvent[] = [];
      for (const s of await read(urls.splits)) {
        if (typeof s.execution_date === 'string' && s.execution_date >= from && s.execution_date <= to)
          list.push({ date: s.execution_date, kind: 'split', ratio: `${s.split_to}:${s.split_from}` });
      }
      for (const d of await read(urls.dividends)) {
        if (typeof d.ex_dividend_date === 'string' && typeof d.cash_amount === 'number' && d.ex_dividend_date >= from && d.ex_dividend_date <= to)
          list.push({ date: d.ex_dividend_date, kind: 'dividend', amount: d.cash_amount });
      }
      return { ok: true, list: list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)) };
    } catch (e) {
      return { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
  }

  /** One GET with the key added to the query (also to a `next_url`), redacted from every message. */
  private async get(url: string, key: string, what: string, signal?: AbortSignal): Promise<string> {
    const u = new URL(url, this.base);
    u.searchParams.set('apiKey', key);
    try {
      const res = await httpGet({
        url: u.toString(),
        accept: 'json',
        secretParams: ['apiKey'],
        signal,
        timeoutMs: this.options.timeoutMs,
        retries: this.options.retries,
        retryBaseMs: this.options.retryBaseMs,
        maxBytes: this.options.maxBytes,
      });
      return res.text;
    } catch (e) {
      if (!(e instanceof HttpStatusError)) throw e instanceof ProviderError ? new ProviderError(`Polygon ${what}: ${e.message}`, e.kind) : e;
      let vendor = '';
      try {
        const b = JSON.parse(e.body) as Json;
        vendor = String(b.error ?? b.message ?? '').slice(0, 200);
      } catch {
        // not Polygon's JSON error body: the HTTP message says enough
      }
      if (e.status === 401 || e.status === 403)
        throw new ProviderError(
          `Polygon refused the API key or plan for ${what}${vendor ? ` (${vendor})` : ''}. Check polygonApiKey in Settings → API keys.`,
          'not_configured',
        );
      throw new ProviderError(`${e.message}${vendor ? ` Polygon: ${vendor}` : ''}`, e.kind);
    }
  }
}

/** One bar per day (the later one wins), ascending. */
function dedupe(bars: Aggs['bars']): Aggs['bars'] {
  const byDate = new Map(bars.map((b) => [b.date, b]));
  return [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}
