import type { ProcedureOutput } from '../../src-main/api';

/** Pure helpers for the Desk screen: how a book, a limit and an approval's result read to a person. */

export type DeskBook = ProcedureOutput<'desk/books'>['books'][number];
export type DeskUser = ProcedureOutput<'desk/me'>['user'];
export type DeskApproval = ProcedureOutput<'desk/approve'>;
export type DeskLimits = { maxSingleRisk: number; maxGross: number; maxDuration: number; maxFactorConcentration: number };

const ruleLabels: Record<string, string> = {
  max_gross_exposure: 'Gross',
  max_single_risk: 'Single-trade risk',
  max_duration_contribution: 'Duration',
  max_factor_concentration: 'Factor concentration',
};

/** "Gross", "Single-trade risk"… — a rule the person recognises; an unknown rule keeps its own name. */
export function ruleLabel(rule: string): string {
  return ruleLabels[rule] ?? rule.replace(/_/g, ' ');
}

/** A figure as a person reads it: at most two decimals, thousands grouped ("1,250.5"). */
export function figure(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** The desk book is "Desk book"; a PM's book is named by its PM. */
export function bookTitle(book: Pick<DeskBook, 'kind' | 'ownerId' | 'bookId'>): string {
  return book.kind === 'desk' ? 'Desk book' : `${book.ownerId ?? book.bookId}’s book`;
}

/** "30 of 1,000", or "30 (no limit set: nothing can be approved)" — a desk fails closed without limits. */
export function grossLine(book: Pick<DeskBook, 'gross' | 'limits'>): string {
  if (!book.limits) return `${figure(book.gross)} (no limits set: nothing can be approved until risk sets them)`;
  return `${figure(book.gross)} of ${figure(book.limits.maxGross)}`;
}

/** How full a limit is, 0…1 (over 1 is shown full and flagged by `over`). */
export function usageShare(value: number, limit: number): number {
  if (!(limit > 0)) return 0;
  return Math.max(0, Math.min(1, value / limit));
}

/** What an approval did, in one sentence, with each broken limit naming its book. */
export function approvalSummary(result: DeskApproval): { ok: boolean; message: string; violations: string[] } {
  return {
    ok: result.approved,
    message: result.message,
    violations: result.violations.map((v) => `${v.book === 'desk' ? 'Desk book' : `${v.book}’s book`}: ${v.message}`),
  };
}

export type LimitField = keyof DeskLimits;
export const limitFields: { key: LimitField; label: string; max: number }[] = [
  { key: 'maxGross', label: 'Gross', max: 100_000 },
  { key: 'maxSingleRisk', label: 'Single-trade risk (%)', max: 1000 },
  { key: 'maxDuration', label: 'Duration', max: 1000 },
  { key: 'maxFactorConcentration', label: 'Factor concentration (%)', max: 100 },
];

/**
 * The limits typed into a book's form, or the first field's problem in plain words. The server
 * checks them again; this only saves a round trip on an empty or negative figure.
 */
export function parseLimits(text: Record<LimitField, string>): { ok: true; limits: DeskLimits } | { ok: false; message: string } {
  const out: Partial<DeskLimits> = {};
  for (const f of limitFields) {
    const raw = text[f.key].trim();
    const n = Number(raw);
    if (raw === '' || !Number.isFinite(n) || n <= 0) return { ok: false, message: `${f.label} must be a number above 0.` };
    if (n > f.max) return { ok: false, message: `${f.label} must be at most ${figure(f.max)}.` };
    out[f.key] = n;
  }
  return { ok: true, limits: out as DeskLimits };
}

/** The form's starting text: the book's current limits, or empty when risk has set none. */
export function limitsText(limits: DeskLimits | null): Record<LimitField, string> {
  const text = {} as Record<LimitField, string>;
  for (const f of limitFields) text[f.key] = limits ? String(limits[f.key]) : '';
  return text;
}
