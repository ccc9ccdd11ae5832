export { ProposalsScreen } from './ProposalsScreen';
export { PendingBadge } from './PendingBadge';
export { handleProposalsChanged, proposalEventNames, pendingReducer, badgeText, usePendingProposals } from './live';
export { routeProposal, sortProposals, decisionLine, statusLabel, targetLabel, rejectReasonError } from './model';
