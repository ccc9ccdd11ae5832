import { type DataProvider, type FetchContext, ProviderError, type ProviderHealth, type ProviderResult } from '../provider';
import { describeParamsError } from '../registry';
import { ALPHA_VANTAGE_SERVES, AlphaVantageMarket, type AlphaVantageOptions } from './alpha-vantage';
import { marketResult } from './format';
import { bundledMarketDir, LocalMarketData } from './local';
import { POLYGON_SERVES, PolygonMarket, type PolygonOptions } from './polygon';
import { type MarketParams, marketParams, selectVolColumns, windowSeries } from './schema';
import { namesStooqMarket, STOOQ_SERVES, StooqMarket, type StooqOptions } from './stooq';
import { emptyVendorResult, eventsIn, eventsSentence, type VendorLoad, vendorNotes, windowFacts } from './vendor';

export interface MarketProviderOptions {
  /** Registry name (default `market`). */
  name?: string;
  /** The local folder backend (default: the bundled synthetic sample, resources/data/market). */
  dir?: string;
  /** The vendor backend; omitted → local data only. */
  alphaVantage?: AlphaVantageOptions;
  /** Polygon daily aggregates for US tickers (key polygonApiKey); omitted → not used. */
  polygon?: PolygonOptions;
  /** Stooq's keyless daily CSV for symbols with a market suffix (SPY.US); omitted → not used. */
  stooq?: StooqOptions;
  now?: () => Date;
}

/**
 * Prices, yields and implied vols behind one schema. It picks the backend per request: Alpha
 * Vantage when a key is configured and the symbol is one it serves, else the local folder. The
 * result's `source` always says which — and a vendor failure is reported, never papered over with
 * sample data.
 */
export class MarketProvider implements DataProvider<typeof marketParams> {
  readonly name: string;
  readonly description: string;
  readonly params = marketParams;
  /** Set when the Alpha Vantage backend is wired: Settings names the key it reads. */
  readonly secret?: string;
  readonly local: LocalMarketData | null;
  readonly vendor: AlphaVantageMarket | null;
  readonly polygon: PolygonMarket | null;
  readonly stooq: StooqMarket | null;
  private readonly now: () => Date;

  constructor(options: MarketProviderOptions = {}) {
    this.name = options.name ?? 'market';
    this.now = options.now ?? (() => new Date());
    const dir = options.dir ?? bundledMarketDir();
    this.local = dir ? new LocalMarketData(dir) : null;
    this.vendor = options.alphaVantage ? new AlphaVantageMarket({ now: this.now, ...options.alphaVantage }) : null;
    this.polygon = options.polygon ? new PolygonMarket({ now: this.now, ...options.polygon }) : null;
    this.stooq = options.stooq ? new StooqMarket({ now: this.now, ...options.stooq }) : null;
    if (this.vendor) this.secret = 'alphaVantageApiKey';
    // One short line: the fetch tool lists every provider in the analyst's fixed context.
    // The symbols are named on use: an unknown symbol's error lists what the folder and the vendor serve.
    const origin = [this.local ? (this.local.isSample() ? 'sample' : 'local files') : '', this.vendor ? 'vendor with key' : ''].filter(Boolean).join('; ');
    this.description = `prices, yields, implied vols (${origin})`;
  }

  health(): ProviderHealth {
    const local = this.local?.health();
    const vendor = this.vendor?.health();
    if (vendor?.state === 'failing') return vendor;
    for (const h of [this.polygon?.health(), this.stooq?.health()]) if (h?.state === 'failing') return h;
    // Polygon and Stooq add to what the folder and Alpha Vantage serve; said after them.
    const more = [this.polygon?.configured() ? 'Polygon (US tickers)' : '', this.stooq ? 'Stooq, no key (SPY.US, VOD.UK …)' : ''].filter(Boolean).join('; ');
    if (more) {
      const base =
        vendor?.state === 'ok'
          ? [vendor.detail, local?.state === 'ok' ? local.detail : ''].filter(Boolean).join('; ')
          : local?.state === 'ok'
            ? `${local.detail}.${this.vendor ? ' Add an Alpha Vantage key (alphaVantageApiKey) for market data.' : ''}`
            : '';
      return { state: 'ok', detail: `${base ? `${base} ` : ''}Also: ${more}.` };
    }
    if (vendor?.state === 'ok') return { state: 'ok', detail: [vendor.detail, local?.state === 'ok' ? local.detail : ''].filter(Boolean).join('; ') };
    if (local?.state === 'ok') {
      const hint = this.vendor ? ' Add an Alpha Vantage key (alphaVantageApiKey) for market data.' : '';
      return { state: 'ok', detail: `${local.detail}.${hint}` };
    }
    return {
      state: 'not_configured',
      detail: [local?.state === 'not_configured' ? local.detail : 'No local market data folder.', vendor?.state === 'not_configured' ? vendor.detail : '']
        .filter(Boolean)
        .join(' '),
    };
  }

  async fetch(raw: MarketParams, ctx: FetchContext = {}): Promise<ProviderResult> {
    const parsed = marketParams.safeParse(raw);
    // The registry validates too; this keeps direct callers (the CLI, tests) to the same contract.
    if (!parsed.success) throw new ProviderError(describeParamsError(parsed.error), 'bad_params');
    const params = parsed.data;
    if (ctx.signal?.aborted) throw new ProviderError('Stopped before fetching market data.', 'unavailable');

    const localServes = Boolean(this.local?.serves(params.kind, params.symbol));
    // A symbol naming its Stooq market (SPY.US, VOD.UK) is Stooq's, whatever other vendor has a key;
    // Polygon then answers the US tickers the local folder does not hold.
    if (this.stooq?.serves(params.kind, params.symbol) && namesStooqMarket(params.symbol) && !localServes)
      return this.fromVendor(params, await this.stooq.load(params, ctx), ctx);
    if (this.polygon?.configured() && this.polygon.serves(params.kind, params.symbol) && !localServes)
      return this.fromVendor(params, await this.polygon.load(params, ctx), ctx);
    const route = this.vendor?.route(params.kind, params.symbol) ?? null;
    // A bare ticker the local folder also holds (SPX) is the local series; an FX pair, commodity or
    // Treasury maturity Alpha Vantage names explicitly goes to the vendor.
    const vendorFirst = Boolean(this.vendor?.configured() && route && !(route.generic && this.local?.serves(params.kind, params.symbol)));
    let loaded: Awaited<ReturnType<AlphaVantageMarket['load']>>;
    if (vendorFirst) loaded = await this.vendor!.load(params, ctx);
    else if (localServes) loaded = this.local!.load(params);
    else if (this.stooq?.serves(params.kind, params.symbol)) return this.fromVendor(params, await this.stooq.load(params, ctx), ctx);
    else throw this.unknown(params, Boolean(route));

    let series = windowSeries(loaded.series, params, ctx.asOf);
    if (params.kind === 'implied_vol') series = selectVolColumns(series, params.tenor, params.delta);
    return marketResult(series, { source: loaded.source, notes: loaded.notes, now: ctx.now ?? this.now });
  }

  /** A vendor's series through the same window, with "N of M", the as-of cut, events, and an empty window as a sentence. */
  private fromVendor(params: MarketParams, load: VendorLoad, ctx: FetchContext): ProviderResult {
    const now = ctx.now ?? this.now;
    const facts = windowFacts(load.series, params, ctx.asOf);
    if (!facts.total) return emptyVendorResult(params, load, facts, ctx.asOf, now);
    const series = windowSeries(load.series, params, ctx.asOf);
    const first = series.rows[0]!.date;
    const last = series.rows[series.rows.length - 1]!.date;
    return marketResult(series, {
      source: load.source,
      notes: load.notes,
      summaryNotes: vendorNotes(facts, series.rows.length, ctx.asOf),
      // A vendor that lists no events (Stooq) says so in its notes; an empty list from one that does is a sentence.
      events: load.events ? eventsSentence(eventsIn(load.events, first, last)) : undefined,
      now,
    });
  }

  private unknown(params: MarketParams, vendorWould: boolean): ProviderError {
    const have = this.local ? this.local.symbols(params.kind) : [];
    const local = have.length ? `Local ${params.kind} series: ${have.join(', ')}.` : `No local ${params.kind} series.`;
    let vendor = '';
    if (vendorWould && this.vendor && !this.vendor.configured()) vendor = ' Alpha Vantage would serve it: add the alphaVantageApiKey secret in Settings.';
    else if (this.vendor && params.kind === 'implied_vol') vendor = ` Alpha Vantage does not offer implied vols (it serves ${ALPHA_VANTAGE_SERVES}).`;
    else if (this.vendor) vendor = ` Alpha Vantage serves ${ALPHA_VANTAGE_SERVES}.`;
    if (this.polygon)
      vendor += this.polygon.configured() ? ` Polygon serves ${POLYGON_SERVES}.` : ' Polygon would serve US tickers: add the polygonApiKey secret in Settings.';
    if (this.stooq) vendor += ` Stooq (no key) serves ${STOOQ_SERVES}.`;
    return new ProviderError(`No ${params.kind} series "${params.symbol}". ${local}${vendor}`, 'not_found');
  }
}

export function createMarketProvider(options: MarketProviderOptions = {}): MarketProvider {
  return new MarketProvider(options);
}
