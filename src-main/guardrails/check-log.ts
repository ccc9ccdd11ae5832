import type { Db } from '../store';
import type { Book } from './book';
import type { Violation } from './check';
import type { GuardrailLimits } from './limits';
import { tradeFigures } from './trade-figures';

/**
 * Every guardrail check kept as it ran (issue #29 §3: "every guardrail check with its figures").
 * checkExpression returns only what broke; a PM tracing a booked trade also needs the figures that
 * passed — what the trade made each limit at the proposal and again at approval. They are measured
 * here, at the moment of the check, from the same book the check read, and stored in the
 * append-only guardrail_checks table (migration 016). The lineage reads them back; nothing
 * recomputes them later, because the book will have moved.
 */

/** One hard limit as measured: the figure the trade made it (null when it could not be read). */
export interface RuleCheck {
  rule: Violation['rule'];
  value: number | string | null;
  limit: number | string;
  pass: boolean;
  /** The violation's own message when it broke. */
  message?: string;
}

export type CheckStage = 'write' | 'approve';
export type CheckOutcome = 'written' | 'blocked' | 'not_written' | 'approved' | 'refused';

export interface GuardrailCheckRecord {
  seq: number;
  at: string;
  path: string;
  stage: CheckStage;
  outcome: CheckOutcome;
  passed: boolean;
  actor: string;
  sessionId: string | null;
  taskId: string | null;
  bookAsOf: string | null;
  checks: RuleCheck[];
}

/**
 * Each hard limit with its figure, for an Expression header checked against `book` (the book the
 * check read, without this Expression). Pass/fail is the check's own verdict (`violations`), never a
 * second opinion: a rule passes only when checkExpression found nothing wrong with it and its figure
 * could be measured. A broken rule keeps the violation's figure.
 */
export function measureChecks(
  header: Record<string, unknown>,
  book: Pick<Book, 'gross' | 'factors'>,
  limits: GuardrailLimits,
  violations: Violation[],
): RuleCheck[] {
  const broke = (rule: Violation['rule']) => violations.find((v) => v.rule === rule);
  const out: RuleCheck[] = [];
  const row = (rule: Violation['rule'], value: number | null, limit: number) => {
    const v = broke(rule);
    out.push(v ? { rule, value: v.actual, limit: v.limit, pass: false, message: v.message } : { rule, value, limit, pass: value !== null });
  };

  const rawView = header.view_id ?? header.view;
  const viewId = typeof rawView === 'string' ? rawView.trim() : '';
  const view = broke('expression_requires_view');
  out.push(
    view
      ? { rule: 'expression_requires_view', value: view.actual, limit: view.limit, pass: false, message: view.message }
      : { rule: 'expression_requires_view', value: viewId || 'none', limit: 'an existing View', pass: true },
  );
  // Unreadable fields (the trade's or the book's) are each their own failed row, as the check reports them.
  for (const v of violations.filter((x) => x.rule === 'missing_risk_field')) {
    out.push({ rule: v.rule, value: v.actual, limit: v.limit, pass: false, message: v.message });
  }

  const f = tradeFigures(header, book);
  row('max_single_risk', f.loss, limits.maxSingleRisk);
  row('max_gross_exposure', f.gross, limits.maxGross);
  row('max_factor_concentration', f.share, limits.maxFactorConcentration);
  row('max_duration_contribution', f.duration, limits.maxDuration);
  return out;
}

export interface CheckToRecord {
  at: string;
  path: string;
  stage: CheckStage;
  outcome: CheckOutcome;
  actor: string;
  sessionId?: string | null;
  taskId?: string | null;
  bookAsOf?: string | null;
  checks: RuleCheck[];
}

// How each database names a check's actor (a desk: the person, as its audit rows do). Kept per
// database handle rather than threaded through every writer, like the audit's own naming.
const actorNamers = new WeakMap<Db, (actor: string) => string>();

/**
 * From now on, checks recorded on `db` name their actor through `name` (host/desk-calls.ts: on a
 * desk `pm` becomes the person's user id and `agent` `agent@<user id>`), so the check log of a
 * proposal says whose analyst proposed it, as the audit row of the same write does.
 */
export function nameCheckActors(db: Db, name: (actor: string) => string): void {
  actorNamers.set(db, name);
}

/** Appends one check. Call it inside the transaction that acted on it, so the record and the act commit together. */
export function recordGuardrailCheck(db: Db, c: CheckToRecord): number {
  const actor = actorNamers.get(db)?.(c.actor) ?? c.actor;
  const passed = c.checks.every((x) => x.pass) ? 1 : 0;
  return Number(
    db
      .prepare(
        `INSERT INTO guardrail_checks (at, path, stage, outcome, passed, actor, session_id, task_id, book_as_of, checks)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(c.at, c.path, c.stage, c.outcome, passed, actor, c.sessionId ?? null, c.taskId ?? null, c.bookAsOf ?? null, JSON.stringify(c.checks))
      .lastInsertRowid,
  );
}

interface Row {
  seq: number;
  at: string;
  path: string;
  stage: CheckStage;
  outcome: CheckOutcome;
  passed: number;
  actor: string;
  session_id: string | null;
  task_id: string | null;
  book_as_of: string | null;
  checks: string;
}

/** The checks recorded for one path, in the order they ran. Empty for a database from before migration 16. */
export function guardrailChecksFor(db: Db, path: string): GuardrailCheckRecord[] {
  const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'guardrail_checks'").get();
  if (!has) return [];
  const rows = db.prepare('SELECT * FROM guardrail_checks WHERE path = ? ORDER BY seq').all(path) as Row[];
  return rows.map((r) => ({
    seq: r.seq,
    at: r.at,
    path: r.path,
    stage: r.stage,
    outcome: r.outcome,
    passed: r.passed === 1,
    actor: r.actor,
    sessionId: r.session_id,
    taskId: r.task_id,
    bookAsOf: r.book_as_of,
    checks: JSON.parse(r.checks) as RuleCheck[],
  }));
}
