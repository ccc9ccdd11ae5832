import { PostgresConnection } from '../store/postgres/connection';
import { startTestPostgres, type TestPostgres } from '../store/postgres/test-server';
import { createDesk } from './setup';

export interface TestDesk {
  server: TestPostgres;
  /** The desk's database URL (superuser on the throwaway cluster). */
  url: string;
  /** One open connection on it; more with `connect()`. */
  connection: PostgresConnection;
  connect(): PostgresConnection;
  stop(): Promise<void>;
}

/** A throwaway PostgreSQL cluster made a desk (createDesk), for the desk's tests. */
export async function startTestDesk(): Promise<TestDesk> {
  const server = await startTestPostgres();
  const opened: PostgresConnection[] = [];
  const connect = () => {
    const c = PostgresConnection.open(server.url, { applicationName: 'forge test' });
    opened.push(c);
    return c;
  };
  try {
    const connection = connect();
    createDesk(connection);
    return {
      server,
      url: server.url,
      connection,
      connect,
      stop: async () => {
        for (const c of opened) c.close();
        await server.stop();
      },
    };
  } catch (e) {
    for (const c of opened) c.close();
    await server.stop();
    throw e;
  }
}
