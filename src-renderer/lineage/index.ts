export { LineagePage } from './LineagePage';
export { lineageHref, lineageRouteOf, pathHref, stepTime, kindCounts, kindLabel } from './model';
export type { LineageStep, LineageView } from './model';
