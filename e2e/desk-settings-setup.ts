/**
 * A real desk for e2e/desk-settings.spec.ts: a throwaway PostgreSQL cluster (Debian's initdb/pg_ctl
 * on a temporary folder), a desk on one database of it, and the role its servers connect as
 * (PASSWORD_ROLE, the one role the test cluster asks a password of) with FORGE_DESK_E2E_PASSWORD.
 * Run with tsx: prints one JSON line `{"url": …}` (the desk as that role, password included) when
 * ready, then keeps the cluster up until its stdin closes. Playwright's loader does not compile the
 * core's TypeScript, so the spec runs this as a child process.
 */
import { createDesk } from '../src-main/desk/setup';
import { grantAppRole } from '../src-main/host/desk-app-role';
import { PostgresConnection } from '../src-main/store/postgres/connection';
import { PASSWORD_ROLE } from '../src-main/store/postgres/test-server';
import { startPostgresWorkspaces } from '../src-main/store/postgres/test-workspaces';

const password = process.env.FORGE_DESK_E2E_PASSWORD ?? 'settings-e2e-pw-1';

const workspaces = await startPostgresWorkspaces();
const url = workspaces.freshUrl();
const setup = PostgresConnection.open(url);
try {
  createDesk(setup);
  grantAppRole(setup, PASSWORD_ROLE, password);
} finally {
  setup.close();
}

process.stdout.write(`${JSON.stringify({ url: url.replace('postgres@', `${PASSWORD_ROLE}:${encodeURIComponent(password)}@`) })}\n`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await workspaces.stop();
  process.exit(0);
};
process.stdin.on('end', () => void stop());
process.stdin.on('close', () => void stop());
process.on('SIGTERM', () => void stop());
process.stdin.resume();
