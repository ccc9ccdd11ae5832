import type { Migration } from './types';

/**
 * The builder's runs (src-main/builder/): one row per build (its id is the pinned snapshot's id in
 * `builds`, so forge_get_build_contracts answers for it), its phases with plan tasks and sign-off,
 * every test run and audit finding, the live conversation (so a build resumes after a restart
 * exactly where it stopped; compaction rewrites it in one transaction), the log the Builds screen
 * shows, token usage per turn, and compactions.
 */
export const buildRuns: Migration = {
  version: 8,
  name: '008_build_runs',
  up(db) {
    db.exec(`
      CREATE TABLE build_runs (
        id                  TEXT PRIMARY KEY REFERENCES builds (id),
        work_dir            TEXT NOT NULL,
        project_name        TEXT NOT NULL,
        project_id          TEXT,
        mode                TEXT NOT NULL CHECK (mode IN ('mcp', 'dump')),
        mini                INTEGER NOT NULL CHECK (mini IN (0, 1)),
        model               TEXT NOT NULL,
        status              TEXT NOT NULL CHECK (status IN ('running', 'paused', 'waiting_answer', 'completed', 'stopped', 'failed', 'interrupted')),
        current_phase       INTEGER NOT NULL,
        stop_code           TEXT,
        stop_reason         TEXT,
        stop_at             TEXT,
        error               TEXT,
        input_tokens        INTEGER NOT NULL DEFAULT 0,
        output_tokens       INTEGER NOT NULL DEFAULT 0,
        cost_usd            REAL,
        fixed_tokens        INTEGER NOT NULL DEFAULT 0,
        conversation_tokens INTEGER NOT NULL DEFAULT 0,
        limit_tokens        INTEGER NOT NULL,
        state               TEXT NOT NULL DEFAULT '{}',
        created_at          TEXT NOT NULL,
        updated_at          TEXT NOT NULL
      ) STRICT;
      CREATE INDEX build_runs_by_time ON build_runs (created_at DESC);

      CREATE TABLE build_phases (
        build_id    TEXT NOT NULL REFERENCES build_runs (id),
        number      INTEGER NOT NULL,
        name        TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('pending', 'in_progress', 'signed_off', 'failed')),
        plan        TEXT NOT NULL DEFAULT '[]',
        sign_off    TEXT,
        started_at  TEXT,
        finished_at TEXT,
        PRIMARY KEY (build_id, number)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE build_test_runs (
        id        INTEGER PRIMARY KEY,
        build_id  TEXT NOT NULL REFERENCES build_runs (id),
        phase     INTEGER NOT NULL,
        at        TEXT NOT NULL,
        command   TEXT NOT NULL,
        passed    INTEGER NOT NULL CHECK (passed IN (0, 1)),
        exit_code INTEGER,
        by        TEXT NOT NULL CHECK (by IN ('builder', 'forge')),
        output    TEXT NOT NULL
      ) STRICT;
      CREATE INDEX build_test_runs_by_phase ON build_test_runs (build_id, phase, id);

      CREATE TABLE build_findings (
        id       INTEGER PRIMARY KEY,
        build_id TEXT NOT NULL REFERENCES build_runs (id),
        phase    INTEGER NOT NULL,
        at       TEXT NOT NULL,
        severity TEXT NOT NULL CHECK (severity IN ('info', 'warning', 'severe')),
        source   TEXT NOT NULL CHECK (source IN ('tests', 'boundaries', 'contract_text', 'auditor')),
        file     TEXT,
        message  TEXT NOT NULL
      ) STRICT;
      CREATE INDEX build_findings_by_phase ON build_findings (build_id, phase, id);

      CREATE TABLE build_messages (
        build_id TEXT NOT NULL REFERENCES build_runs (id),
        seq      INTEGER NOT NULL,
        role     TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
        content  TEXT NOT NULL,
        PRIMARY KEY (build_id, seq)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE build_log (
        build_id TEXT NOT NULL REFERENCES build_runs (id),
        seq      INTEGER NOT NULL,
        at       TEXT NOT NULL,
        kind     TEXT NOT NULL,
        text     TEXT NOT NULL,
        tool     TEXT,
        is_error INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (build_id, seq)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE build_turns (
        build_id          TEXT NOT NULL REFERENCES build_runs (id),
        turn              INTEGER NOT NULL,
        at                TEXT NOT NULL,
        input_tokens      INTEGER NOT NULL,
        output_tokens     INTEGER NOT NULL,
        cache_read_tokens INTEGER NOT NULL,
        PRIMARY KEY (build_id, turn)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE build_compactions (
        id            INTEGER PRIMARY KEY,
        build_id      TEXT NOT NULL REFERENCES build_runs (id),
        at            TEXT NOT NULL,
        turn          INTEGER NOT NULL,
        before_tokens INTEGER NOT NULL,
        after_tokens  INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
