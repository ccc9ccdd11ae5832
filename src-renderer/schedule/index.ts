export { ScheduleScreen } from './ScheduleScreen';
export { handleScheduleChanged, scheduleEventNames } from './live';
export { cronInWords, upsertJob, jobState, budgetLine, localTime } from './model';
