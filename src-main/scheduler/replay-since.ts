import type { Db } from '../store';
import type { ReviewReport } from './review-report';

/** An Outcome recorded after the replayed date for an Expression the replay or the original mentioned. */
export interface LaterOutcome {
  id: string;
  expression: string;
  title: string;
  recordedAt: string;
  hit: boolean | null;
  pnl: string | null;
  exitReason: string | null;
}

/** An invalidation condition a later morning review reported as fired, for a View the replay covered. */
export interface LaterFiring {
  viewId: string;
  text: string;
  matched: boolean;
  reportedAt: string;
  runId: number | null;
}

export interface SinceThen {
  outcomes: LaterOutcome[];
  fired: LaterFiring[];
}

const EXPRESSION_ID = /\bE-\d{1,6}\b/g;

/** The Expressions a report speaks of: those its Views' moves measured or missed, and any named in its notes. */
export function expressionsIn(report: ReviewReport | null, answer = ''): string[] {
  const ids = new Set<string>(answer.match(EXPRESSION_ID) ?? []);
  for (const v of report?.views ?? []) {
    for (const m of v.moves) for (const e of m.expressions) ids.add(e);
    for (const m of v.missing) if (m.expression) ids.add(m.expression);
    for (const e of v.note?.match(EXPRESSION_ID) ?? []) ids.add(e);
  }
  return [...ids].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

const text = (v: unknown): string | null => (typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : null);

/**
 * What happened after `cutoff`, read from the live workspace (reads only): Outcomes recorded since
 * for the given Expressions, and invalidation conditions of the given Views that later morning
 * reviews reported as fired — the answer key a replay is read against.
 */
export function sinceThen(db: Db, cutoff: string, expressions: readonly string[], viewIds: readonly string[]): SinceThen {
  const outcomes: LaterOutcome[] = [];
  if (expressions.length) {
    const rows = db
      .prepare(
        `SELECT id, title, header, created_at FROM memory_records
          WHERE category = 'outcomes' AND created_at > ? AND json_extract(header, '$.expression') IN (SELECT value FROM json_each(?))
          ORDER BY created_at, id`,
      )
      .all(cutoff, JSON.stringify(expressions)) as { id: string; title: string; header: string; created_at: string }[];
    for (const r of rows) {
      const h = JSON.parse(r.header) as Record<string, unknown>;
      const hit = text(h.hit);
      outcomes.push({
        id: r.id,
        expression: String(h.expression),
        title: r.title,
        recordedAt: r.created_at,
        hit: hit === 'true' ? true : hit === 'false' ? false : null,
        pnl: text(h.pnl) ?? (text(h.pnl_bp) ? `${text(h.pnl_bp)} bp of NAV` : null),
        exitReason: text(h.exit_reason),
      });
    }
  }
  const fired: LaterFiring[] = [];
  const hasReports = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'review_reports'").get();
  if (viewIds.length && hasReports) {
    const wanted = new Set(viewIds);
    const rows = db.prepare('SELECT run_id, at, report FROM review_reports WHERE at > ? AND fired > 0 ORDER BY at, run_id').all(cutoff) as {
      run_id: number;
      at: string;
      report: string;
    }[];
    for (const r of rows) {
      const report = JSON.parse(r.report) as ReviewReport;
      for (const v of report.views) {
        if (!wanted.has(v.id)) continue;
        for (const f of v.invalidationsFired) fired.push({ viewId: v.id, text: f.text, matched: f.matched, reportedAt: r.at, runId: r.run_id });
      }
    }
  }
  return { outcomes, fired };
}
