export { ProviderRegistry, ProviderError } from './types';
export type { Provider, ProviderInfo, FetchResult } from './types';
export { CsvProvider, parseCsv } from './csv';
export type { CsvProviderOptions } from './csv';
