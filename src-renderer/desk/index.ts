export { DeskScreen } from './DeskScreen';
export { deskEventNames, handleDeskChanged } from './live';
export { useIsDesk } from './status';
export { useDeskSession } from './session';
export { approvalSummary, bookTitle, figure, grossLine, limitsText, parseLimits, ruleLabel, usageShare } from './model';
