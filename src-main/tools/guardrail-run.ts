import type { ForgeFS } from '../fs';
import { measureChecks, readBook, type GuardrailLimits, type RuleCheck, type Violation } from '../guardrails';
import { checkExpressionHeader } from './expressions';

export interface GuardrailRun {
  violations: Violation[];
  /** Every limit with the figure this trade made it, measured from the same book the check read. */
  checks: RuleCheck[];
  bookAsOf: string;
}

/**
 * The hard limits for an Expression, as its write and its approval run them: the book read now
 * (inside the caller's transaction, without this Expression wherever it counted), the check, and
 * every limit's figure so the caller can record the check as it ran (guardrails/check-log.ts).
 */
export function runGuardrails(
  fs: ForgeFS,
  header: Record<string, unknown>,
  limits: GuardrailLimits,
  viewExists: (id: string) => boolean,
  exclude: string | undefined,
): GuardrailRun {
  const book = readBook(fs, limits, { exclude });
  const violations = checkExpressionHeader(header, book, limits, viewExists);
  return { violations, checks: measureChecks(header, book, limits, violations), bookAsOf: book.asOf };
}
