import { AppError } from '../common/errors';
import type { Db } from '../store';
import { type ReportCounts, type ReviewReport, reportCounts } from './review-report';

export interface ReviewReportListing {
  runId: number;
  sessionId: string | null;
  at: string;
  since: string;
  parsed: boolean;
  counts: ReportCounts;
}

interface ListRow {
  run_id: number;
  session_id: string | null;
  at: string;
  since: string;
  parsed: number;
  views: number;
  moved: number;
  fired: number;
  unmatched: number;
  warnings: number;
}

/** The morning review reports (migration 012), one per schedule run. Plain synchronous SQL. */
export class ReviewReports {
  constructor(private readonly db: Db) {
    const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'review_reports'").get();
    if (!has) {
      throw new AppError('internal', 'This workspace database has no review_reports table (migration 012_review_reports has not run); reports cannot be kept.');
    }
  }

  /** Saves (or replaces) the report of a schedule run. */
  save(runId: number, report: ReviewReport): void {
    const c = reportCounts(report);
    this.db
      .prepare(
        `INSERT INTO review_reports (run_id, session_id, at, since, parsed, views, moved, fired, unmatched, warnings, report)
         VALUES (@runId, @sessionId, @at, @since, @parsed, @views, @moved, @fired, @unmatched, @warnings, @report)
         ON CONFLICT (run_id) DO UPDATE SET session_id = excluded.session_id, at = excluded.at, since = excluded.since, parsed = excluded.parsed,
           views = excluded.views, moved = excluded.moved, fired = excluded.fired, unmatched = excluded.unmatched, warnings = excluded.warnings,
           report = excluded.report`,
      )
      .run({
        runId,
        sessionId: report.sessionId,
        at: report.at,
        since: report.since,
        parsed: report.parsed ? 1 : 0,
        ...c,
        report: JSON.stringify({ ...report, runId }),
      });
  }

  get(runId: number): ReviewReport | null {
    const r = this.db.prepare('SELECT report FROM review_reports WHERE run_id = ?').get(runId) as { report: string } | undefined;
    return r ? (JSON.parse(r.report) as ReviewReport) : null;
  }

  /** Newest first, without the reports themselves. */
  list(limit: number): ReviewReportListing[] {
    const rows = this.db
      .prepare(
        'SELECT run_id, session_id, at, since, parsed, views, moved, fired, unmatched, warnings FROM review_reports ORDER BY at DESC, run_id DESC LIMIT ?',
      )
      .all(limit) as ListRow[];
    return rows.map((r) => ({
      runId: r.run_id,
      sessionId: r.session_id,
      at: r.at,
      since: r.since,
      parsed: r.parsed === 1,
      counts: { views: r.views, moved: r.moved, fired: r.fired, unmatched: r.unmatched, warnings: r.warnings },
    }));
  }

  /** When the last finished morning review before this run started: the moves are measured from there. */
  previousReviewStart(runId: number): Date | null {
    const r = this.db
      .prepare("SELECT started_at FROM schedule_runs WHERE job = 'morning_review' AND status = 'ok' AND id < ? ORDER BY id DESC LIMIT 1")
      .get(runId) as { started_at: string } | undefined;
    return r ? new Date(r.started_at) : null;
  }
}
