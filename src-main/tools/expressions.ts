import { readConstraints, type GuardrailLimits, type LimitsInForce } from '../guardrails';
import { countsInBook } from '../common/expression-status';
import type { HeaderFields } from '../fs';

/**
 * The rules that keep capital under the PM's control, in one place: who may set which
 * Expression status and the guardrail check against the book. What each status means for capital
 * (live, proposed, closed) is defined once in common/expression-status.
 */

/** The PM (through the UI/API) and the scheduler's trackers act with the PM's authority. */
export function isTrustedActor(actor: string): boolean {
  return actor === 'pm' || actor === 'scheduler';
}

export function statusOf(header: HeaderFields | Record<string, unknown>): string {
  const s = header.status;
  return typeof s === 'string' ? s.trim().toLowerCase() : '';
}

/** The guardrail check on an Expression's header: one definition, in guardrails/ (a desk's approval uses it too). */
export { checkExpressionHeader } from '../guardrails';

/**
 * The status an Expression lands with. Anyone but the PM (and the scheduler acting for the PM)
 * can only propose, or decline (`rejected`); an agent claiming `active` gets `proposed`.
 * Returns null when the write must be refused: agents never edit a live trade.
 */
export function landingStatus(claimed: string, previousStatus: string | null, actor: string): { status: string; note: string | null } | { refused: string } {
  if (isTrustedActor(actor)) return { status: claimed || 'proposed', note: null };
  if (previousStatus && countsInBook(previousStatus)) {
    return {
      refused:
        `this Expression is ${previousStatus}: only the PM changes a live trade. ` +
        'To suggest a change, write a new Expression (new.md) with `replaces: <id>` in its header, or tell the PM.',
    };
  }
  if (claimed === 'rejected') return { status: 'rejected', note: null };
  const note = claimed && claimed !== 'proposed' ? `status set to proposed (you wrote "${claimed}"): only the PM can activate capital.` : null;
  return { status: 'proposed', note };
}

/**
 * The limits in force: the PM's /portfolio/constraints.md header (max_single_risk, max_gross,
 * max_duration, max_factor_concentration) where it sets them, the defaults otherwise; a limit line
 * that cannot be read is refused naming its line (guardrails/constraints.ts). The analyst cannot
 * write /portfolio/, so it cannot loosen them.
 */
export function limitsFromConstraints(constraintsMd: string | null): GuardrailLimits {
  return readConstraints(constraintsMd).limits;
}

/** The limits in force and, for each, whether the PM's constraints.md set it (else the default applies). */
export function limitsInForce(constraintsMd: string | null): LimitsInForce {
  return readConstraints(constraintsMd);
}
