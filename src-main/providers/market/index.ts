export { MarketProvider, createMarketProvider } from './provider';
export type { MarketProviderOptions } from './provider';
export { AlphaVantageMarket, ALPHA_VANTAGE_SERVES, parseAlphaVantage, routeFor } from './alpha-vantage';
export type { AlphaVantageOptions, AlphaVantageRoute } from './alpha-vantage';
export { LocalMarketData, bundledMarketDir } from './local';
export { marketParams, MARKET_KINDS, VOL_DELTAS } from './schema';
export type { MarketKind, MarketParams, MarketSeries } from './schema';
