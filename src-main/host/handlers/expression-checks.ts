import type { GuardrailCheck, ReviewVerdictView } from '../../api/expression-checks';
import { NotFoundError } from '../../common/errors';
import { isDecidable } from '../../common/expression-status';
import { reviewKey } from '../../executor';
import { parseRecord, type ForgeFS } from '../../fs';
import { readBook, shownFigure, tradeFigures, type GuardrailLimits } from '../../guardrails';
import { checkExpressionHeader } from '../../tools';

/**
 * The Expression page's guardrail table: each hard limit with the figure this trade makes it and
 * whether it passes. `pass` comes from the same check approval runs (checkExpressionHeader over the
 * book without this Expression), so the page can never say "passes" where Approve would refuse.
 */

export function expressionChecks(
  fs: ForgeFS,
  id: string,
  limits: GuardrailLimits,
): { status: string; basis: 'approval' | 'book'; bookAsOf: string; checks: GuardrailCheck[] } {
  const path = `/memory/expressions/${id}.md`;
  if (!fs.exists(path)) throw new NotFoundError(`There is no Expression ${id}.`);
  const header = parseRecord(fs.readFile(path)).header as Record<string, unknown>;
  const status = typeof header.status === 'string' ? header.status.trim().toLowerCase() : '';
  const viewExists = (v: string) => /^V-\d+$/.test(v) && fs.exists(`/memory/views/${v}.md`);
  // A proposal (or a trade back for review) is checked as Approve will check it: the book without
  // it wherever it counts, plus it. A trade already
  // in the book is shown as it stands there (adding it again would count it twice).
  const inBook = !isDecidable(status) && readBook(fs, limits).open.some((o) => o.id === id);
  const book = readBook(fs, limits, inBook ? {} : { exclude: id });
  const violations = inBook ? [] : checkExpressionHeader(header, book, limits, viewExists);
  const failed = (rule: GuardrailCheck['rule']) => violations.find((v) => v.rule === rule);

  const checks: GuardrailCheck[] = [];
  const row = (rule: GuardrailCheck['rule'], value: number | string | null, limit: number | string, passMessage: string, over: boolean) => {
    const v = failed(rule);
    if (v) checks.push({ rule, value: v.actual, limit, pass: false, message: v.message });
    else checks.push({ rule, value, limit, pass: !over, message: over ? `Above the limit of ${limit}.` : passMessage });
  };
  const above = (x: number | null, limit: number) => inBook && x !== null && x > limit;

  const viewId = typeof (header.view_id ?? header.view) === 'string' ? String(header.view_id ?? header.view).trim() : '';
  row('expression_requires_view', viewId || 'none', 'an existing View', `Linked to View ${viewId}.`, inBook && !viewExists(viewId));
  // Unreadable risk fields (this trade's or the book's) are each their own failing row.
  for (const v of violations.filter((x) => x.rule === 'missing_risk_field')) {
    checks.push({ rule: v.rule, value: v.actual, limit: v.limit, pass: false, message: v.message });
  }

  const { loss, gross, factor, share, duration } = tradeFigures(header, book, { inBook });
  row(
    'max_single_risk',
    loss,
    limits.maxSingleRisk,
    loss === null ? 'Max loss cannot be read.' : `Max loss ${shownFigure(loss, limits.maxSingleRisk)}% of NAV.`,
    above(loss, limits.maxSingleRisk),
  );
  row(
    'max_gross_exposure',
    gross,
    limits.maxGross,
    gross === null
      ? 'Notional cannot be read.'
      : `Gross exposure ${inBook ? 'of the book' : 'with this trade'}: ${shownFigure(gross, limits.maxGross)}% of NAV.`,
    above(gross, limits.maxGross),
  );
  if (factor === null) {
    // Approve refuses a trade without a factor (missing_risk_field above); the row says why too.
    checks.push({
      rule: 'max_factor_concentration',
      value: null,
      limit: limits.maxFactorConcentration,
      pass: false,
      message: 'No factor named (`factor:`): concentration cannot be measured, so the trade cannot be shown to fit.',
    });
  } else {
    row(
      'max_factor_concentration',
      share,
      limits.maxFactorConcentration,
      `${factor} is ${share === null ? '—' : shownFigure(share, limits.maxFactorConcentration)}% of gross exposure.`,
      above(share, limits.maxFactorConcentration),
    );
  }
  row(
    'max_duration_contribution',
    duration,
    limits.maxDuration,
    duration === null ? 'Duration impact cannot be read.' : `Duration contribution ${shownFigure(duration, limits.maxDuration, 2)}.`,
    above(duration, limits.maxDuration),
  );
  return { status, basis: inBook ? 'book' : 'approval', bookAsOf: book.asOf, checks };
}

interface ReviewRow {
  verdict: ReviewVerdictView['verdict'];
  focus: string;
  reasons: string;
  at: string;
  session_id: string;
}

/**
 * The reviewer's verdict for an Expression. Reviews are filed by the text reviewed (executor
 * ReviewLedger), not by record id, so this looks for the current text and every archived version;
 * failing that, the latest review in a session that wrote the record (flagged `matched: false`).
 */
export function expressionReview(fs: ForgeFS, id: string): ReviewVerdictView | null {
  const path = `/memory/expressions/${id}.md`;
  const texts = [fs.readFile(path), ...fs.history(path).versions.map((v) => fs.readFile(v.archivePath))];
  const keys = [...new Set(texts.map(reviewKey))];
  const db = fs.store.db;
  const exact = db
    .prepare(`SELECT verdict, focus, reasons, at, session_id FROM reviews WHERE content_key IN (${keys.map(() => '?').join(',')}) ORDER BY seq DESC LIMIT 1`)
    .get(...keys) as ReviewRow | undefined;
  if (exact) return toView(exact, true);
  const writes = fs.store.audit.list({ path, limit: 50 });
  const sessions = [...new Set(writes.map((w) => w.session_id).filter((s): s is string => Boolean(s)))];
  if (!sessions.length) return null;
  // Only reviews filed before the record's last write can be about it.
  const lastWrite = writes[0]?.at ?? new Date().toISOString();
  const near = db
    .prepare(
      `SELECT verdict, focus, reasons, at, session_id FROM reviews WHERE session_id IN (${sessions.map(() => '?').join(',')}) AND at <= ? ORDER BY seq DESC LIMIT 1`,
    )
    .get(...sessions, lastWrite) as ReviewRow | undefined;
  return near ? toView(near, false) : null;
}

function toView(r: ReviewRow, matched: boolean): ReviewVerdictView {
  return { verdict: r.verdict, focus: r.focus, reasons: r.reasons, at: r.at, sessionId: r.session_id, matched };
}
