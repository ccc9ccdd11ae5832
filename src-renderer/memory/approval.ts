import type { ProcedureOutput } from '../../src-main/api';

/**
 * Pure rules for the PM's approval gate on the Expressions screen: which records offer Approve /
 * Reject, how a guardrail block is worded, and whether a record came from the demo.
 */

export type Violation = ProcedureOutput<'expressions/approve'>['violations'][number];

/** Statuses the core accepts for approve/reject (tools/approval.ts). */
const decidable = new Set(['proposed', 'review_required']);

/** True for a status Approve / Reject still applies to (proposed, sent back for review). */
export function awaitsApproval(status: string | null | undefined): boolean {
  return decidable.has(String(status ?? ''));
}

/** True for a live Expression (not an archived copy) waiting on the PM's decision. */
export function awaitsDecision(path: string, status: string | null | undefined): boolean {
  return /^\/memory\/expressions\/E-\d{3,}\.md$/.test(path) && awaitsApproval(status);
}

/** The Expression id of a record path, e.g. `/memory/expressions/E-004.md` → `E-004`. */
export function expressionIdOf(path: string): string | null {
  return /^\/memory\/expressions\/(E-\d{3,})\.md$/.exec(path)?.[1] ?? null;
}

/** The banner over a record waiting on the PM. */
export function decisionBanner(status: string | null | undefined, proposedBy?: unknown): string {
  if (status === 'review_required') return 'Sent back for review — awaiting your decision';
  return proposedBy === 'pm' ? 'Written by you — awaiting your approval' : 'Proposed by the analyst — awaiting your approval';
}

/** Records written by the sample workspace or the offline demo carry `source: demo`. */
export function isDemoRecord(header: Record<string, unknown> | null | undefined): boolean {
  return (
    String(header?.source ?? '')
      .trim()
      .toLowerCase() === 'demo'
  );
}

const ruleWords: Record<string, { label: string; unit: string }> = {
  max_single_risk: { label: 'Single-trade risk', unit: '% of NAV' },
  max_gross_exposure: { label: 'Gross exposure after the trade', unit: '% of NAV' },
  max_duration_contribution: { label: 'Duration contribution', unit: 'years' },
  max_factor_concentration: { label: 'Factor concentration', unit: '% of gross' },
  expression_requires_view: { label: 'Linked View', unit: '' },
  missing_risk_field: { label: 'Risk field', unit: '' },
};

/** A guardrail rule in the PM's words, keeping the rule's own name for reference. */
export function ruleLabel(rule: string): string {
  return ruleWords[rule]?.label ?? rule.replace(/_/g, ' ');
}

/** A value with the unit its rule is measured in (`6 % of NAV`); text values stay as they are. */
export function withUnit(rule: string, value: number | string): string {
  const unit = ruleWords[rule]?.unit;
  if (typeof value !== 'number') return value;
  const shown = Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100);
  return unit ? `${shown} ${unit}` : shown;
}

/** How far over its limit a numeric value is, e.g. `+1 (20% over)`; null when not comparable. */
export function overBy(actual: number | string, limit: number | string): string | null {
  if (typeof actual !== 'number' || typeof limit !== 'number' || limit === 0) return null;
  const d = actual - limit;
  if (d <= 0) return null;
  const rounded = Math.round(d * 100) / 100;
  return `+${rounded} (${Math.round((d / limit) * 100)}% over)`;
}

/** A reject reason the PM typed, trimmed to what the core keeps (300 characters, one line). */
export function cleanReason(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 300);
}
