export { Scheduler } from './scheduler';
export { realTimers } from './scheduler-types';
export type { JobRunContext, JobRunner, JobRunResult, JobStatus, SchedulerOptions, SlotClaim, SlotLeases, Timers } from './scheduler-types';
export { JOBS, JOB_NAMES, STALENESS_DAYS, isJobName, staleViews, triggerMessage } from './jobs';
export type { AnalysisBudget, JobName, ScheduledJob, StaleView, TriggerContext, ViewDate } from './jobs';
export { ScheduleLog } from './run-log';
export type { JobState, RunStatus, RunTrigger, ScheduleRun } from './run-log';
export { DEFAULT_TIME_ZONE, formatLocal, latestSlot, localDate, nextSlot, resolveTimeZone } from './time';
export type { ResolvedTimeZone } from './time';
export { analystRunner, liveViewDates } from './runner';
export type { AnalystRunnerOptions, SessionStarter } from './runner';
export { movesSinceLastReview, invalidationBullets } from './review-moves';
export type { MissingMove, MovesInput, SeriesMove, ViewMoves } from './review-moves';
export {
  buildReviewReport,
  parseReviewReport,
  reportCounts,
  reportSummaryLine,
  reviewNotice,
  stripReportBlock,
  REPORT_INSTRUCTION,
  REVIEW_ACTIONS,
} from './review-report';
export type { FiredCondition, ParsedReviewReport, ParsedViewVerdict, ReportCounts, ReviewAction, ReviewReport, ReviewReportView } from './review-report';
export { ReviewReports } from './review-reports';
export type { ReviewReportListing } from './review-reports';
export { morningReviewReporter, movesBrief, formatMove } from './morning-review';
export type { MorningReviewHooks, MorningReviewReporterOptions } from './morning-review';
export { replayMorning } from './replay';
export type { ReplayAnalyst, ReplayOptions, ReplayResult, ReplayToolCall } from './replay';
export type { LaterFiring, LaterOutcome, SinceThen } from './replay-since';
