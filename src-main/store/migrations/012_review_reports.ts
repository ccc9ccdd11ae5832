import type { Migration } from './types';

/**
 * The morning review's structured report (src-main/scheduler/review-report.ts), one per schedule
 * run: per live View the market moves since the previous review, the invalidation conditions the
 * analyst said fired, and its action. The whole report is JSON; the counts the list shows are
 * columns, so listing reports never parses them. A run's report goes with the run.
 */
export const reviewReports: Migration = {
  version: 12,
  name: '012_review_reports',
  up(db) {
    db.exec(`
      CREATE TABLE review_reports (
        run_id      INTEGER PRIMARY KEY REFERENCES schedule_runs (id) ON DELETE CASCADE,
        session_id  TEXT,
        at          TEXT NOT NULL,
        since       TEXT NOT NULL,
        parsed      INTEGER NOT NULL CHECK (parsed IN (0, 1)),
        views       INTEGER NOT NULL,
        moved       INTEGER NOT NULL,
        fired       INTEGER NOT NULL,
        unmatched   INTEGER NOT NULL,
        warnings    INTEGER NOT NULL,
        report      TEXT NOT NULL CHECK (json_valid(report))
      ) STRICT;
      CREATE INDEX review_reports_by_at ON review_reports (at);
    `);
  },
};
