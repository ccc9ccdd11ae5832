import type { Migration } from './types';

/**
 * Sub-agent tasks (TaskExecutor): one row per dispatched task, keyed by session and the id the
 * analyst chose, and an append-only event trail per task, and the ledger of adversarial reviews. Persisted so the Tasks screen survives
 * a restart: tasks left running by a crash come back as `failed` (reason `interrupted`).
 */
export const subAgentTasks: Migration = {
  version: 4,
  name: '004_tasks',
  up(db) {
    db.exec(`
      CREATE TABLE tasks (
        session_id    TEXT NOT NULL,
        id            TEXT NOT NULL,
        skill         TEXT NOT NULL,
        objective     TEXT NOT NULL,
        spec          TEXT NOT NULL CHECK (json_valid(spec)),
        status        TEXT NOT NULL CHECK (status IN ('queued', 'waiting', 'running', 'validating', 'ok', 'failed', 'cancelled')),
        failure       TEXT,
        error         TEXT,
        summary       TEXT,
        result_path   TEXT,
        validation    TEXT CHECK (validation IS NULL OR json_valid(validation)),
        retry_of      TEXT,
        input_tokens  INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0,
        cost_usd      REAL,
        rounds        INTEGER NOT NULL DEFAULT 0,
        created_at    TEXT NOT NULL,
        started_at    TEXT,
        finished_at   TEXT,
        updated_at    TEXT NOT NULL,
        PRIMARY KEY (session_id, id)
      ) STRICT;
      CREATE INDEX tasks_by_created ON tasks (created_at DESC);
      CREATE INDEX tasks_by_status ON tasks (status, created_at DESC);

      CREATE TABLE task_events (
        seq        INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL,
        task_id    TEXT NOT NULL,
        at         TEXT NOT NULL,
        kind       TEXT NOT NULL,
        detail     TEXT NOT NULL DEFAULT ''
      ) STRICT;
      CREATE INDEX task_events_by_task ON task_events (session_id, task_id, seq);

      -- Adversarial reviews, keyed by a hash of what was reviewed: the write tool checks here that an
      -- agent-proposed Expression was reviewed and approved before it can be offered for approval.
      CREATE TABLE reviews (
        seq          INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id   TEXT NOT NULL,
        content_key  TEXT NOT NULL,
        verdict      TEXT NOT NULL CHECK (verdict IN ('approve', 'approve_with_notes', 'revise', 'escalate', 'unclear')),
        focus        TEXT NOT NULL,
        reasons      TEXT NOT NULL,
        at           TEXT NOT NULL
      ) STRICT;
      CREATE INDEX reviews_by_key ON reviews (session_id, content_key, seq DESC);
    `);
  },
};
