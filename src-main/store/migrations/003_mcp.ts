import type { Migration } from './types';

/**
 * The governance MCP server's projects: each project's contracts as immutable numbered versions,
 * and builds that pin one version of each contract when they start. A pinned snapshot copies the
 * text, and triggers refuse any change to it, so later edits can never alter a running build.
 */
export const mcpProjects: Migration = {
  version: 3,
  name: '003_mcp',
  up(db) {
    db.exec(`
      CREATE TABLE projects (
        id          TEXT PRIMARY KEY,
        name        TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL
      ) STRICT;

      CREATE TABLE project_contracts (
        project_id    TEXT NOT NULL REFERENCES projects (id),
        contract_type TEXT NOT NULL,
        version       INTEGER NOT NULL CHECK (version >= 1),
        content       TEXT NOT NULL,
        content_hash  TEXT NOT NULL,
        source        TEXT NOT NULL DEFAULT 'user' CHECK (source IN ('user', 'planner', 'import')),
        created_at    TEXT NOT NULL,
        PRIMARY KEY (project_id, contract_type, version)
      ) STRICT, WITHOUT ROWID;
      CREATE TRIGGER project_contracts_no_update BEFORE UPDATE ON project_contracts BEGIN
        SELECT RAISE(ABORT, 'A contract version cannot be changed; save a new version instead.');
      END;

      CREATE TABLE builds (
        id         TEXT PRIMARY KEY,
        project_id TEXT NOT NULL REFERENCES projects (id),
        status     TEXT NOT NULL DEFAULT 'pinned',
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX builds_by_project ON builds (project_id, created_at DESC);

      CREATE TABLE build_contracts (
        build_id      TEXT NOT NULL REFERENCES builds (id),
        contract_type TEXT NOT NULL,
        version       INTEGER NOT NULL,
        content       TEXT NOT NULL,
        PRIMARY KEY (build_id, contract_type)
      ) STRICT, WITHOUT ROWID;
      CREATE TRIGGER build_contracts_no_update BEFORE UPDATE ON build_contracts BEGIN
        SELECT RAISE(ABORT, 'A pinned build snapshot cannot be changed.');
      END;
      CREATE TRIGGER build_contracts_no_delete BEFORE DELETE ON build_contracts BEGIN
        SELECT RAISE(ABORT, 'A pinned build snapshot cannot be deleted.');
      END;
    `);
  },
};
