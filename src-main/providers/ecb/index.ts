export { EcbProvider, ECB_BASE_URL } from './provider';
export type { EcbProviderOptions } from './provider';
export { ecbParams, ECB_SERIES } from './params';
export type { EcbParams } from './params';
