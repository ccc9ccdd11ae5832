/**
 * What an Expression's status means for capital, written once. The book, the guardrail checks,
 * the exit tracker, the Outcome records, the write pipeline and the morning review's moves all
 * read these, so "live" cannot mean one thing in the book and another in the tracker.
 *
 * - live (`countsInBook`): active, or sent back for review. It holds capital: the book counts it,
 *   the tracker checks its exits, only the PM changes it. A View under review lifts no stop.
 * - open proposal (`isOpenProposal`): proposed. It holds no capital; it is counted only where a
 *   proposal is checked as if approved (the write that lands it, Approve, the Expression page).
 * - closed: left the book; an Outcome records it.
 */

/** Statuses that hold capital: counted in the book, tracked for exits, edited only by the PM. */
export const LIVE_EXPRESSION_STATUSES = ['active', 'review_required'] as const;
/** An idea waiting for the PM: no capital until Approve. */
export const PROPOSED_EXPRESSION_STATUSES = ['proposed'] as const;
/** Out of the book. */
export const CLOSED_EXPRESSION_STATUSES = ['closed'] as const;
/** Live trades plus open proposals: what the morning review reports moves for. */
export const LIVE_OR_PROPOSED_EXPRESSION_STATUSES = [...LIVE_EXPRESSION_STATUSES, ...PROPOSED_EXPRESSION_STATUSES] as const;
/** Statuses the PM decides on (Approve or Reject): a fresh proposal, or a live trade sent back for review. */
export const DECIDABLE_EXPRESSION_STATUSES = ['proposed', 'review_required'] as const;

const norm = (status: string | null | undefined) => (status ?? '').trim().toLowerCase();
const has = (list: readonly string[], status: string | null | undefined) => list.includes(norm(status));

/** Holds capital now: the book counts it. */
export const countsInBook = (status: string | null | undefined): boolean => has(LIVE_EXPRESSION_STATUSES, status);
/** A proposal waiting for the PM (counted only when checked as if approved). */
export const isOpenProposal = (status: string | null | undefined): boolean => has(PROPOSED_EXPRESSION_STATUSES, status);
/** Left the book. */
export const isClosedExpression = (status: string | null | undefined): boolean => has(CLOSED_EXPRESSION_STATUSES, status);
/**
 * A write that leaves an Expression in one of these statuses is checked against the hard limits
 * first: it holds capital, or is about to be offered to the PM as if it would.
 */
export const checkedAgainstLimits = (status: string | null | undefined): boolean => countsInBook(status) || isOpenProposal(status);
/** Approve and Reject act on these. */
export const isDecidable = (status: string | null | undefined): boolean => has(DECIDABLE_EXPRESSION_STATUSES, status);
