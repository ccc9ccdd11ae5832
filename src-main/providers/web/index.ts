export { WebProvider } from './web-provider';
export type { WebProviderOptions } from './web-provider';
export { webParams } from './params';
export type { WebParams } from './params';
export { assertPublicUrl, isPublicAddress } from './address';
export type { AddressPolicy, Lookup } from './address';
export { extractReadable } from './extract';
export type { ReadablePage } from './extract';
export { BRAVE_BASE_URL } from './brave';
