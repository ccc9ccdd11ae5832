import { PostgresConnection } from '../../store/postgres/connection';
import type { TestDesk } from '../testing';

/** The role tests connect as: row-level security does not apply to superusers, so it must be one. */
export const TEST_APP_ROLE = 'forge_app';

/**
 * A connection to a test desk as an ordinary (non-superuser) role with the rights a Forge server
 * needs on the desk's tables — the posture in which row-level security is actually enforced.
 * The test server trusts 127.0.0.1, so the role needs no password there.
 */
export function connectAsApp(desk: TestDesk): PostgresConnection {
  const admin = desk.connection;
  const exists = admin.one('SELECT 1 FROM pg_roles WHERE rolname = $1', [TEST_APP_ROLE]);
  if (!exists) admin.run(`CREATE ROLE ${TEST_APP_ROLE} LOGIN NOSUPERUSER NOBYPASSRLS`);
  admin.run(`GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA public TO ${TEST_APP_ROLE}`);
  admin.run(`GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO ${TEST_APP_ROLE}`);
  return PostgresConnection.open(`postgres://${TEST_APP_ROLE}@127.0.0.1:${desk.server.port}/postgres`, { applicationName: 'forge test app' });
}
