import type { GuardrailLimits } from './limits';
import { shownFigure } from './figures';
import { factorKey } from './snapshot';
import { readFigure, roundFigure } from './trade-figures';

/** One broken limit: the rule, what the trade would make it, and the limit. */
export interface Violation {
  rule: 'max_single_risk' | 'max_gross_exposure' | 'max_duration_contribution' | 'max_factor_concentration' | 'expression_requires_view' | 'missing_risk_field';
  actual: number | string;
  limit: number | string;
  severity: 'hard';
  message: string;
}

/** The book as the guardrails see it: computed (see book.ts), never read from prose. */
export interface PortfolioExposure {
  /** Gross exposure, % of NAV. */
  gross: number;
  /** Gross exposure by factor (e.g. usd, us_rates, oil), % of NAV. */
  factors?: Record<string, number>;
  /** Live Expressions whose exposure cannot be read: while any exist, no new trade can be shown to fit. */
  unmeasured?: string[];
  /** Live Expressions added to the book whose factor cannot be read: no factor's share can be shown to fit. */
  unfactored?: string[];
}

/** What an Expression declares about its risk (its header fields, already parsed). */
export interface ExpressionRisk {
  viewId?: string;
  maxLossPct?: unknown;
  notional?: unknown;
  durationImpact?: unknown;
  factor?: string;
}

export interface CheckContext {
  /** Does the linked View exist in memory? */
  viewExists(viewId: string): boolean;
}

const num = (v: unknown): number | undefined => readFigure(v) ?? undefined;

/**
 * Check an Expression against the hard limits. Code, not judgement: it fails closed — a risk
 * field that is missing or not a number is itself a violation, because an unmeasured trade
 * cannot be shown to be inside the limits.
 */
export function checkExpression(expression: ExpressionRisk, portfolio: PortfolioExposure, limits: GuardrailLimits, ctx: CheckContext): Violation[] {
  const out: Violation[] = [];
  const hard = (rule: Violation['rule'], actual: number | string, limit: number | string, message: string) =>
    out.push({ rule, actual: typeof actual === 'number' ? roundFigure(actual) : actual, limit, severity: 'hard', message });

  const viewId = expression.viewId?.trim();
  if (!viewId) hard('expression_requires_view', 'none', 'an existing View', 'Every Expression must link to a View (view_id).');
  else if (!ctx.viewExists(viewId)) hard('expression_requires_view', viewId, 'an existing View', `View ${viewId} does not exist.`);

  const fields: [keyof ExpressionRisk, string][] = [
    ['maxLossPct', 'max_loss_pct'],
    ['notional', 'notional'],
    ['durationImpact', 'duration_impact'],
  ];
  const values: Partial<Record<keyof ExpressionRisk, number>> = {};
  for (const [key, header] of fields) {
    const v = num(expression[key]);
    if (v === undefined)
      hard(
        'missing_risk_field',
        String(expression[key] ?? 'missing'),
        'a number',
        `${header} must be a number (got ${JSON.stringify(expression[key] ?? null)}).`,
      );
    else values[key] = v;
  }

  if (values.maxLossPct !== undefined && Math.abs(values.maxLossPct) > limits.maxSingleRisk) {
    hard(
      'max_single_risk',
      Math.abs(values.maxLossPct),
      limits.maxSingleRisk,
      `Max loss ${shownFigure(Math.abs(values.maxLossPct), limits.maxSingleRisk)}% of NAV exceeds the ${limits.maxSingleRisk}% single-trade limit.`,
    );
  }
  if (portfolio.unmeasured?.length) {
    const ids = portfolio.unmeasured.join(', ');
    hard(
      'missing_risk_field',
      ids,
      'a readable notional',
      `The book cannot be measured: ${ids} ${portfolio.unmeasured.length > 1 ? 'have' : 'has'} no readable notional. Fix ${portfolio.unmeasured.length > 1 ? 'them' : 'it'} first.`,
    );
  }
  if (portfolio.unfactored?.length) {
    const ids = portfolio.unfactored.join(', ');
    const many = portfolio.unfactored.length > 1;
    hard(
      'missing_risk_field',
      ids,
      'a readable factor',
      `The book's factor concentration cannot be measured: ${ids} ${many ? 'have' : 'has'} no readable factor. Give ${many ? 'them' : 'it'} a \`factor:\` line first.`,
    );
  }
  // Fail closed, as for the notional: a trade with no factor would skip the concentration limit.
  const factor = expression.factor?.trim() ? factorKey(expression.factor) : '';
  if (!factor) {
    hard(
      'missing_risk_field',
      expression.factor?.trim() || 'missing',
      'a factor name',
      `factor must name the risk factor the trade adds to, e.g. us_rates, eur_rates, fx, equity (got ${JSON.stringify(expression.factor ?? null)}); concentration cannot be checked without it.`,
    );
  }
  const notional = values.notional !== undefined ? Math.abs(values.notional) : undefined;
  if (notional !== undefined) {
    const gross = portfolio.gross + notional;
    if (gross > limits.maxGross) {
      hard(
        'max_gross_exposure',
        gross,
        limits.maxGross,
        `Gross exposure would be ${shownFigure(gross, limits.maxGross)}% of NAV, above the ${limits.maxGross}% limit.`,
      );
    }
    if (factor && gross > 0) {
      const share = (((portfolio.factors?.[factor] ?? 0) + notional) / gross) * 100;
      if (share > limits.maxFactorConcentration) {
        hard(
          'max_factor_concentration',
          share,
          limits.maxFactorConcentration,
          `${factor} would be ${shownFigure(share, limits.maxFactorConcentration)}% of gross exposure, above the ${limits.maxFactorConcentration}% concentration limit.`,
        );
      }
    }
  }
  if (values.durationImpact !== undefined && Math.abs(values.durationImpact) > limits.maxDuration) {
    hard(
      'max_duration_contribution',
      Math.abs(values.durationImpact),
      limits.maxDuration,
      `Duration contribution ${shownFigure(Math.abs(values.durationImpact), limits.maxDuration, 2)} exceeds the ${limits.maxDuration} limit.`,
    );
  }
  return out;
}

/** The tool result line the model and the PM read: rule, actual value and limit for each. */
export function formatViolations(violations: Violation[]): string {
  if (!violations.length) return 'Guardrails: all limits pass.';
  return [
    `BLOCKED by guardrails (${violations.length} hard violation${violations.length > 1 ? 's' : ''}):`,
    ...violations.map((v) => `- ${v.rule}: actual ${v.actual}, limit ${v.limit} — ${v.message}`),
  ].join('\n');
}

/**
 * Runs the hard limits for an Expression's header (its `key: value` fields as written) against a
 * book: the one mapping from header fields to ExpressionRisk, shared by a PM's own approval
 * (tools/) and a desk's (desk/books/). Call it inside the transaction that changes the status,
 * with the book read there and the Expression itself left out of it.
 */
export function checkExpressionHeader(
  header: Record<string, unknown>,
  book: PortfolioExposure,
  limits: GuardrailLimits,
  viewExists: (id: string) => boolean,
): Violation[] {
  const viewId = header.view_id ?? header.view;
  const factor = header.factor;
  return checkExpression(
    {
      viewId: typeof viewId === 'string' ? viewId : undefined,
      maxLossPct: header.max_loss_pct,
      notional: header.notional,
      durationImpact: header.duration_impact,
      factor: typeof factor === 'string' ? factorKey(factor) : undefined,
    },
    book,
    limits,
    { viewExists },
  );
}
