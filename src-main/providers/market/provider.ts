import { type DataProvider, type FetchContext, ProviderError, type ProviderHealth, type ProviderResult } from '../provider';
import { describeParamsError } from '../registry';
import { ALPHA_VANTAGE_SERVES, AlphaVantageMarket, type AlphaVantageOptions } from './alpha-vantage';
import { marketResult } from './format';
import { bundledMarketDir, LocalMarketData } from './local';
import { type MarketParams, marketParams, selectVolColumns, windowSeries } from './schema';

export interface MarketProviderOptions {
  /** Registry name (default `market`). */
  name?: string;
  /** The local folder backend (default: the bundled synthetic sample, resources/data/market). */
  dir?: string;
  /** The vendor backend; omitted → local data only. */
  alphaVantage?: AlphaVantageOptions;
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
  private readonly now: () => Date;

  constructor(options: MarketProviderOptions = {}) {
    this.name = options.name ?? 'market';
    this.now = options.now ?? (() => new Date());
    const dir = options.dir ?? bundledMarketDir();
    this.local = dir ? new LocalMarketData(dir) : null;
    this.vendor = options.alphaVantage ? new AlphaVantageMarket({ now: this.now, ...options.alphaVantage }) : null;
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

    const route = this.vendor?.route(params.kind, params.symbol) ?? null;
    // A bare ticker the local folder also holds (SPX) is the local series; an FX pair, commodity or
    // Treasury maturity Alpha Vantage names explicitly goes to the vendor.
    const vendorFirst = Boolean(this.vendor?.configured() && route && !(route.generic && this.local?.serves(params.kind, params.symbol)));
    let loaded: Awaited<ReturnType<AlphaVantageMarket['load']>>;
    if (vendorFirst) loaded = await this.vendor!.load(params, ctx);
    else if (this.local?.serves(params.kind, params.symbol)) loaded = this.local.load(params);
    else throw this.unknown(params, Boolean(route));

    let series = windowSeries(loaded.series, params, ctx.asOf);
    if (params.kind === 'implied_vol') series = selectVolColumns(series, params.tenor, params.delta);
    return marketResult(series, { source: loaded.source, notes: loaded.notes, now: ctx.now ?? this.now });
  }

  private unknown(params: MarketParams, vendorWould: boolean): ProviderError {
    const have = this.local ? this.local.symbols(params.kind) : [];
    const local = have.length ? `Local ${params.kind} series: ${have.join(', ')}.` : `No local ${params.kind} series.`;
    let vendor = '';
    if (vendorWould && this.vendor && !this.vendor.configured()) vendor = ' Alpha Vantage would serve it: add the alphaVantageApiKey secret in Settings.';
    else if (this.vendor && params.kind === 'implied_vol') vendor = ` Alpha Vantage does not offer implied vols (it serves ${ALPHA_VANTAGE_SERVES}).`;
    else if (this.vendor) vendor = ` Alpha Vantage serves ${ALPHA_VANTAGE_SERVES}.`;
    return new ProviderError(`No ${params.kind} series "${params.symbol}". ${local}${vendor}`, 'not_found');
  }
}

export function createMarketProvider(options: MarketProviderOptions = {}): MarketProvider {
  return new MarketProvider(options);
}
