import { cacheKey, type ResponseCache } from '../cache';
import { CsvFormatError, readCsvTable } from '../csv-table';
import { HttpStatusError, httpGet } from '../http';
import { type FetchContext, ProviderError, type ProviderHealth } from '../provider';
import type { MarketKind, MarketParams, MarketSeries } from './schema';
import type { VendorLoad } from './vendor';

/**
 * Stooq's daily CSV download (`stooq.com/q/d/l/?s=spy.us&i=d`), no key: `Date,Open,High,Low,
 * Close,Volume`, CRLF, dates already the exchange's trading days, and a row without volume where
 * Stooq has none (read by the PM-file CSV reader, so a short row is a missing field, not an error).
 * Stooq publishes its history adjusted (splits and dividends) and Forge does not adjust it again;
 * the file lists no events, which the result says. An unknown symbol is the body "No data"; a
 * request Stooq wants a key for is the body "Get your apikey", and a script Stooq wants to check
 * gets an HTML page with HTTP 200: each is said in words, with the data folder as the way round.
 */

/** Stooq symbols carry their market: SPY.US, VOD.UK, SAP.DE, 7203.JP, CL.F (futures). */
const STOOQ_SYMBOL = /^[A-Z0-9][A-Z0-9_-]{0,14}\.(US|UK|DE|JP|HK|PL|HU|F|B|V)$/;
/** Suffixes only Stooq uses (AAPL.US); one-letter ones (.B, .F) are also share classes elsewhere (BRK.B). */
const STOOQ_MARKET = /\.(US|UK|DE|JP|HK|PL|HU)$/;
export const namesStooqMarket = (symbol: string): boolean => STOOQ_MARKET.test(symbol);
export const STOOQ_SERVES = 'daily prices by Stooq symbol with its market suffix (SPY.US, VOD.UK, SAP.DE, 7203.JP)';

const CURRENCY: Record<string, string> = { US: 'USD', UK: 'GBX (pence)', DE: 'EUR', JP: 'JPY', HK: 'HKD', PL: 'PLN', HU: 'HUF' };

export interface StooqOptions {
  /** Default https://stooq.com (tests point it at a local server). */
  baseUrl?: string;
  cache?: ResponseCache;
  /** Default 4 hours. */
  ttlMs?: number;
  timeoutMs?: number;
  retries?: number;
  retryBaseMs?: number;
  maxBytes?: number;
  now?: () => Date;
}

/** Reads one Stooq download into a close series, or throws the ProviderError it amounts to. */
export function parseStooqCsv(bytes: Uint8Array, symbol: string): MarketSeries {
  const text = Buffer.from(bytes.subarray(0, 400)).toString('utf8').trim();
  if (/^no data/i.test(text))
    throw new ProviderError(`Stooq has no data for ${symbol}; check the symbol and its market suffix (${STOOQ_SERVES}).`, 'not_found');
  if (/get your apikey/i.test(text))
    throw new ProviderError(
      `Stooq asks for an API key before it sends ${symbol}. Download the CSV from stooq.com in a browser and drop it into your data folder (Settings → Data → Your data folder); Forge reads it from there.`,
      'not_configured',
    );
  // Since mid-2026 Stooq answers many scripts with a browser check page (HTTP 200, HTML; finance-query#263).
  if (text.startsWith('<'))
    throw new ProviderError(
      `Stooq sent a web page (a browser check or an error) instead of the CSV of ${symbol}. Download the CSV from stooq.com in a browser and drop it into your data folder (Settings → Data → Your data folder); Forge reads it from there.`,
      'bad_response',
    );
  let table: ReturnType<typeof readCsvTable>;
  try {
    table = readCsvTable(bytes);
  } catch (e) {
    if (e instanceof CsvFormatError)
      throw new ProviderError(`Stooq's CSV of ${symbol} cannot be read (${e.message}); the answer may be cut off.`, 'bad_response');
    throw e;
  }
  const close = table.header.findIndex((h) => h.trim().toLowerCase() === 'close');
  if (!table.dated || close < 0 || table.kinds[close] !== 'number')
    throw new ProviderError(`Stooq's answer for ${symbol} is not a daily price file (columns: ${table.header.join(', ').slice(0, 120)}).`, 'bad_response');
  const market = symbol.split('.').at(-1)!;
  return {
    kind: 'price',
    symbol,
    name: `${symbol} daily close (Stooq)`,
    unit: CURRENCY[market] ?? 'local currency',
    columns: ['close'],
    rows: table.rows.map((r) => ({ date: r[0]!, values: [r[close] === null ? null : Number(r[close])] })),
  };
}

export class StooqMarket {
  readonly id = 'stooq';
  private readonly base: string;
  private readonly now: () => Date;
  private lastError: { message: string; at: string } | null = null;

  constructor(private readonly options: StooqOptions = {}) {
    this.base = (options.baseUrl ?? 'https://stooq.com').replace(/\/+$/, '');
    this.now = options.now ?? (() => new Date());
  }

  health(): ProviderHealth {
    if (this.lastError) return { state: 'failing', lastError: this.lastError.message, at: this.lastError.at };
    return { state: 'ok', detail: `Stooq (no key): ${STOOQ_SERVES}` };
  }

  serves(kind: MarketKind, symbol: string): boolean {
    return kind === 'price' && STOOQ_SYMBOL.test(symbol);
  }

  async load(params: MarketParams, ctx: FetchContext): Promise<VendorLoad> {
    if (!this.serves(params.kind, params.symbol))
      throw new ProviderError(`Stooq has no ${params.kind} series "${params.symbol}"; it serves ${STOOQ_SERVES}.`, 'not_found');
    const query = new URLSearchParams({ s: params.symbol.toLowerCase(), i: 'd' });
    // Stooq's own range (d1/d2, YYYYMMDD) keeps the download small; the window is still applied by Forge.
    const end = [params.end, ctx.asOf].filter((d): d is string => Boolean(d)).sort()[0];
    if (params.start) query.set('d1', params.start.replace(/-/g, ''));
    if (end) query.set('d2', end.replace(/-/g, ''));
    const url = `${this.base}/q/d/l/?${query}`;
    try {
      const load = async () => {
        const res = await httpGet({
          url,
          accept: 'text',
          signal: ctx.signal,
          timeoutMs: this.options.timeoutMs,
          retries: this.options.retries,
          retryBaseMs: this.options.retryBaseMs,
          maxBytes: this.options.maxBytes,
        });
        // Read before it is cached: "No data", a key page or a cut-off file is never stored as data.
        parseStooqCsv(res.bytes, params.symbol);
        return res.text;
      };
      const text = this.options.cache
        ? (await this.options.cache.through(cacheKey('market:stooq', url), this.options.ttlMs ?? 4 * 3_600_000, load)).value
        : await load();
      const series = parseStooqCsv(Buffer.from(text, 'utf8'), params.symbol);
      this.lastError = null;
      return {
        series,
        source: `Stooq daily ${params.symbol.toLowerCase()} (prices as Stooq publishes them, adjusted by Stooq for splits and dividends; not adjusted again)`,
        notes: ['Stooq lists no splits or dividends: check corporate actions elsewhere before comparing prices across them.'],
      };
    } catch (e) {
      const err =
        e instanceof HttpStatusError
          ? new ProviderError(`Stooq ${params.symbol}: ${e.message}`, e.kind)
          : e instanceof ProviderError
            ? e
            : new ProviderError(`Stooq: ${(e as Error)?.message ?? String(e)}`, 'bad_response');
      if (err.kind !== 'not_found' && err.kind !== 'bad_params') this.lastError = { message: err.message, at: this.now().toISOString() };
      throw err;
    }
  }
}
