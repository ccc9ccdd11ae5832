export { PortfolioScreen } from './PortfolioScreen';
export { splitDoc, limitRows, usedShare, positiveNumber, field } from './doc';
export type { LimitsInForce } from './doc';
