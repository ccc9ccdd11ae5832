/**
 * A real desk for e2e/desk.spec.ts: a throwaway PostgreSQL cluster (Debian's initdb/pg_ctl on a
 * temporary folder), a desk on one database of it with two PMs (alice, bob) and a risk manager
 * (rita), limits on every book, and three proposed Expressions with their owners (E-001 and E-002
 * alice's, E-003 bob's). Run with tsx: it prints one JSON line `{"url": …}` when ready, then keeps
 * the cluster up until its stdin closes (the spec's afterAll), and stops it. Playwright's loader
 * does not compile the core's TypeScript, so the spec runs this as a child process.
 */
import { DeskBooks } from '../src-main/desk/books';
import { addExpression, WIDE_LIMITS } from '../src-main/desk/books/testing';
import { DeskPeople } from '../src-main/desk/people';
import { createDesk } from '../src-main/desk/setup';
import { PostgresConnection } from '../src-main/store/postgres/connection';
import { startPostgresWorkspaces } from '../src-main/store/postgres/test-workspaces';

const password = process.env.FORGE_DESK_E2E_PASSWORD ?? 'correct horse battery staple';

const workspaces = await startPostgresWorkspaces();
const url = workspaces.freshUrl();
const setup = PostgresConnection.open(url);
try {
  createDesk(setup);
  const people = new DeskPeople(setup);
  people.createFirstAdmin({ userId: 'alice', displayName: 'Alice', role: 'pm', password });
  people.createUser('alice', { userId: 'bob', displayName: 'Bob', role: 'pm', password });
  people.createUser('alice', { userId: 'rita', displayName: 'Rita', role: 'risk', password });
  setup.run(
    "INSERT INTO memory_records (category, id, title, status, meta, created_at, updated_at, header, body, content_hash) VALUES ('views', 'V-001', 'Fed cuts first', 'active', '', '2026-11-01', '2026-11-01', '{\"status\":\"active\"}', 'Why.', 'x')",
  );
  addExpression(setup, { id: 'E-001', owner: 'alice', notional: 30 });
  addExpression(setup, { id: 'E-002', owner: 'alice', notional: 30 });
  addExpression(setup, { id: 'E-003', owner: 'bob', notional: 20 });
  // A desk fails closed until risk sets limits; the spec is about approving, not about setting them.
  const books = new DeskBooks(setup);
  for (const book of ['desk', 'alice', 'bob']) books.setLimits('rita', book, WIDE_LIMITS);
} finally {
  setup.close();
}

process.stdout.write(`${JSON.stringify({ url })}\n`);

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
