export { HomeScreen } from './HomeScreen';
export { AwaitingBadge } from './AwaitingBadge';
export { refreshAwaitingApproval } from './live';
export { usageBars, viewsNeedingAttention, nextRuns, runningTasks, awaitingOrder, staleCutoff, isStale, awaitingApprovalInput } from './model';
export type { UsageBar, ViewAttention, AttentionReason } from './model';
