export { TreasuryProvider, TREASURY_BASE_URL } from './provider';
export type { TreasuryProviderOptions } from './provider';
export { treasuryParams, NOMINAL_TENORS, REAL_TENORS } from './params';
export type { TreasuryParams } from './params';
