export { PortfolioScreen } from './PortfolioScreen';
export { splitDoc, limitRows, usedShare, positiveNumber, field, defaultLimits } from './doc';
