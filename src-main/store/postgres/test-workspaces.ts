import { openDeskStore } from './desk-store';
import { PostgresConnection } from './connection';
import { POSTGRES_SCHEMA_VERSION, postgresAfterCopy, postgresSchema } from './schema';
import { startTestPostgres, type TestPostgres } from './test-server';

/**
 * Fresh, empty PostgreSQL workspaces for the store's contract tests: one throwaway cluster, the
 * workspace schema built once in a template database, and a new database copied from it per test
 * (CREATE DATABASE … TEMPLATE copies files: milliseconds, where building the schema takes seconds).
 */
export interface PostgresWorkspaces {
  server: TestPostgres;
  /** A new empty workspace database; its URL. */
  freshUrl(): string;
  /** A Store over a new empty workspace database. */
  freshStore(): ReturnType<typeof openDeskStore>;
  stop(): Promise<void>;
}

export async function startPostgresWorkspaces(): Promise<PostgresWorkspaces> {
  const server = await startTestPostgres();
  const admin = PostgresConnection.open(server.url, { applicationName: 'forge test admin' });
  const at = (database: string) => server.url.replace(/\/[^/]*$/, `/${database}`);
  let n = 0;
  try {
    admin.run('CREATE DATABASE forge_template');
    const template = PostgresConnection.open(at('forge_template'));
    try {
      template.transaction(() => {
        for (const statement of postgresSchema) template.run(statement);
        for (const statement of postgresAfterCopy) template.run(statement);
        template.run("INSERT INTO forge_schema (version, source) VALUES ($1, 'test template')", [POSTGRES_SCHEMA_VERSION]);
      });
    } finally {
      // A template must have no open connection while it is copied.
      template.close();
    }
  } catch (e) {
    admin.close();
    await server.stop();
    throw e;
  }
  const freshUrl = () => {
    const name = `forge_ws_${++n}`;
    admin.run(`CREATE DATABASE ${name} TEMPLATE forge_template`);
    return at(name);
  };
  return {
    server,
    freshUrl,
    freshStore: () => openDeskStore(freshUrl()),
    stop: async () => {
      admin.close();
      await server.stop();
    },
  };
}
