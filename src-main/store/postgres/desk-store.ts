import { Store } from '../store';
import { type ConnectionOptions, PostgresConnection } from './connection';
import { PostgresSchemaVersionError } from './pull-errors';
import { PostgresDb } from './postgres-db';
import { POSTGRES_SCHEMA_VERSION } from './schema';

/**
 * A workspace Store whose repositories (memory records and their versions, the audit trail,
 * sessions, portfolio documents, workspace settings) live in a desk's PostgreSQL database: the
 * same Store class and repository code as a PM's SQLite file, over the PostgresDb handle.
 * The database must hold a workspace at this Forge's schema version (`forge migrate --to` or
 * `forge desk create` made it); anything else is refused before a row is read.
 */
export function openDeskStore(url: string, options: ConnectionOptions = {}): Store {
  const connection = PostgresConnection.open(url, { applicationName: 'forge store', ...options });
  try {
    const present = connection.one("SELECT 1 FROM information_schema.tables WHERE table_name = 'forge_schema' AND table_schema = current_schema()");
    const version = present ? connection.one<{ version: number }>('SELECT version FROM forge_schema')?.version : undefined;
    if (version !== POSTGRES_SCHEMA_VERSION) {
      throw new PostgresSchemaVersionError(
        version ?? 0,
        POSTGRES_SCHEMA_VERSION,
        version === undefined
          ? 'This database holds no Forge workspace: create a desk (forge desk create) or move a workspace there (forge migrate --to) first.'
          : `The desk's workspace is at schema version ${version}; this Forge reads version ${POSTGRES_SCHEMA_VERSION}. Nothing was read or written.`,
      );
    }
    const db = new PostgresDb(connection);
    // Until the host binds each call's person (openDeskServices), everything is the server's own
    // work: opening the workspace, building its search index. Under the desk's app role, a session
    // bound to nobody would see no record at all.
    db.bindActingPerson(() => undefined);
    return new Store(db.asDb());
  } catch (e) {
    connection.close();
    throw e;
  }
}
