import type { Migration } from './types';

/**
 * Every guardrail check as it ran: when an Expression is written (proposed, or edited while live)
 * and when the PM approves it, each hard limit with the figure the trade made it, the limit and
 * whether it passed (guardrails/check-log.ts). The decision lineage shows these figures as they were
 * measured then; nothing recomputes them later. Append-only like the audit log: a record of a check
 * that can be edited afterwards proves nothing.
 */
export const guardrailChecks: Migration = {
  version: 16,
  name: '016_guardrail_checks',
  up(db) {
    db.exec(`
      CREATE TABLE guardrail_checks (
        -- No AUTOINCREMENT needed: rows are never deleted, so sequence numbers are never reused.
        seq         INTEGER PRIMARY KEY,
        at          TEXT NOT NULL,
        path        TEXT NOT NULL,
        stage       TEXT NOT NULL CHECK (stage IN ('write', 'approve')),
        outcome     TEXT NOT NULL CHECK (outcome IN ('written', 'blocked', 'not_written', 'approved', 'refused')),
        passed      INTEGER NOT NULL CHECK (passed IN (0, 1)),
        actor       TEXT NOT NULL,
        session_id  TEXT,
        task_id     TEXT,
        book_as_of  TEXT,
        checks      TEXT NOT NULL CHECK (json_valid(checks))
      ) STRICT;
      CREATE INDEX guardrail_checks_by_path ON guardrail_checks (path, seq);
      CREATE TRIGGER guardrail_checks_no_update BEFORE UPDATE ON guardrail_checks BEGIN
        SELECT RAISE(ABORT, 'Guardrail checks are append-only; a check cannot be changed.');
      END;
      CREATE TRIGGER guardrail_checks_no_delete BEFORE DELETE ON guardrail_checks BEGIN
        SELECT RAISE(ABORT, 'Guardrail checks are append-only; a check cannot be deleted.');
      END;
    `);
  },
};
