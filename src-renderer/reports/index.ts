export { ReviewReport, RunReviewReport } from './ReviewReport';
export { formatChange, formatLevel, headline, totals } from './model';
export type { ReportTotals } from './model';
