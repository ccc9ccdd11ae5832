import { ConflictError } from '../common/errors';
import type { PostgresConnection } from '../store/postgres/connection';
import { POSTGRES_SCHEMA_VERSION, postgresAfterCopy, postgresSchema } from '../store/postgres/schema';
import { DESK_SCHEMA } from './schema';

/** Bumped whenever DESK_SCHEMA changes; kept in workspace_meta as `desk_schema_version` (2: owners by trigger, the server's own work). */
export const DESK_SCHEMA_VERSION = 2;

/**
 * Makes a database a desk: the workspace tables (unless `forge migrate` already created them with
 * a PM's workspace) and the desk's own, in one transaction — a failure leaves the database as it
 * was. A database that is already a desk is refused, never altered twice.
 */
export function createDesk(connection: PostgresConnection): { createdWorkspace: boolean } {
  return connection.transaction(() => {
    const tables = new Set(
      connection.query<{ name: string }>('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()').map((r) => r.name),
    );
    if (tables.has('desk_users')) throw new ConflictError('This database is already a desk; nothing was changed.');
    const createdWorkspace = !tables.has('memory_records');
    if (createdWorkspace) {
      for (const statement of postgresSchema) connection.run(statement);
      for (const statement of postgresAfterCopy) connection.run(statement);
      connection.run("INSERT INTO forge_schema (version, source) VALUES ($1, 'forge desk create')", [POSTGRES_SCHEMA_VERSION]);
    }
    for (const statement of DESK_SCHEMA) connection.run(statement);
    connection.run("INSERT INTO workspace_meta (key, value) VALUES ('desk_schema_version', $1)", [String(DESK_SCHEMA_VERSION)]);
    return { createdWorkspace };
  });
}
