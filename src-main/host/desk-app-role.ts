import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { ConflictError, InvalidInputError } from '../common/errors';
import { checkPasswordPolicy } from '../desk/people';
import type { PostgresConnection } from '../store/postgres/connection';

/**
 * The ordinary database role Forge's servers connect to a desk as (`forge desk grant-app-role`).
 *
 * Decisions:
 * - NOSUPERUSER NOBYPASSRLS: superusers and BYPASSRLS roles skip row-level security, so a server
 *   connected as one would show every PM every private note. This role is bound by the policies,
 *   and `forge serve --db` on it binds each statement to the person of its call (or to the
 *   server's own work), so a server needs no other role (PostgresDb.bindActingPerson).
 * - Exactly the grants the code needs, recomputed from nothing on every run (REVOKE ALL, then
 *   GRANT): SELECT, INSERT, UPDATE on every table; DELETE only where Forge deletes rows
 *   (DELETING_TABLES, checked against the source by the test); the append-only tables (audit trail,
 *   guardrail checks) get SELECT and INSERT only, so even their triggers are never the last line.
 *   Sequences: USAGE and SELECT (nextval for identity columns, currval). Run it again after an
 *   upgrade that adds tables.
 * - The password is sent as a SCRAM-SHA-256 verifier computed here, never as text: a plaintext
 *   password in ALTER ROLE can end up in the server's statement log.
 */

/** Tables Forge's own code deletes rows from (grep "DELETE FROM" in src-main; the test checks the list). */
export const DELETING_TABLES: readonly string[] = [
  'build_messages',
  'desk_record_shares',
  'memory_archive',
  'memory_changes',
  'memory_records',
  'provider_cache',
  'research_notes',
  'research_passage_vectors',
  'research_passages',
  'research_vector_changes',
  'review_reports',
  'search_block_changes',
  'search_blocks',
  'search_entries',
  'search_free_slots',
  'search_queue',
  'search_slot_patches',
];

/** Append-only in the database (triggers refuse UPDATE and DELETE): the app role may only add rows. */
export const APPEND_ONLY_TABLES: readonly string[] = ['audit_log', 'guardrail_checks'];

/** An unquoted-safe PostgreSQL role name: what a DBA would type, and nothing that needs escaping. */
const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export interface AppRoleSummary {
  role: string;
  created: boolean;
  tables: number;
  deletable: string[];
  appendOnly: string[];
  sequences: number;
  database: string;
}

/** Creates or updates `role` with exactly the desk's grants, in one transaction. */
export function grantAppRole(connection: PostgresConnection, role: string, password: string): AppRoleSummary {
  if (!ROLE_NAME.test(role)) {
    throw new InvalidInputError(
      `"${role.slice(0, 70)}" is not a role name Forge creates: use lowercase letters, digits and "_", starting with a letter (e.g. forge_app).`,
      [{ path: ['role'], message: 'lowercase letters, digits and _' }],
    );
  }
  checkPasswordPolicy(password);
  const verifier = scramVerifier(password);
  return connection.transaction(() => {
    const me = connection.one<{ user: string; database: string }>('SELECT current_user AS "user", current_database() AS database');
    if (!me) throw new Error('SELECT current_user returned no row');
    if (role === me.user || role === 'postgres') {
      throw new ConflictError(`${role} is the role setting up the desk; the servers need a role of their own (e.g. forge_app). Nothing was changed.`);
    }
    const desk = connection.one("SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'desk_users'");
    if (!desk) throw new ConflictError(`This database is not a desk yet: run forge desk create first. Nothing was changed.`);
    const existing = connection.one<{ rolsuper: boolean; rolbypassrls: boolean }>('SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = $1', [role]);
    // An existing superuser is someone's administrator account: taking its rights away is not this command's call.
    if (existing?.rolsuper) {
      throw new ConflictError(`${role} is a superuser; Forge will not demote it. Give the servers a role of their own (e.g. forge_app). Nothing was changed.`);
    }
    const owns = connection.one('SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tableowner = $1 LIMIT 1', [role]);
    if (owns) {
      throw new ConflictError(`${role} owns the desk's tables; the servers need a role of their own (e.g. forge_app), not the owner. Nothing was changed.`);
    }
    // The verifier is Forge's own base64/digits, and role matches ROLE_NAME: nothing here can break out of the quotes.
    const attributes = `LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOREPLICATION PASSWORD '${verifier}'`;
    connection.run(existing ? `ALTER ROLE ${role} WITH ${attributes}` : `CREATE ROLE ${role} WITH ${attributes}`);
    const tables = connection
      .query<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1",
      )
      .map((r) => r.name);
    const sequences = connection
      // pg_class, not information_schema.sequences, which leaves out identity columns' sequences.
      .query<{ name: string }>("SELECT relname AS name FROM pg_class WHERE relkind = 'S' AND relnamespace = current_schema()::regnamespace ORDER BY 1")
      .map((r) => r.name);
    const schema = quoteIdent(connection.one<{ s: string }>('SELECT current_schema() AS s')?.s ?? 'public');
    connection.run(`GRANT CONNECT ON DATABASE ${quoteIdent(me.database)} TO ${role}`);
    connection.run(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
    connection.run(`REVOKE ALL ON ALL TABLES IN SCHEMA ${schema} FROM ${role}`);
    connection.run(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${schema} FROM ${role}`);
    const deletable: string[] = [];
    const appendOnly: string[] = [];
    for (const table of tables) {
      const t = `${schema}.${quoteIdent(table)}`;
      if (APPEND_ONLY_TABLES.includes(table)) {
        connection.run(`GRANT SELECT, INSERT ON ${t} TO ${role}`);
        appendOnly.push(table);
      } else if (DELETING_TABLES.includes(table)) {
        connection.run(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${t} TO ${role}`);
        deletable.push(table);
      } else {
        connection.run(`GRANT SELECT, INSERT, UPDATE ON ${t} TO ${role}`);
      }
    }
    for (const sequence of sequences) connection.run(`GRANT USAGE, SELECT ON SEQUENCE ${schema}.${quoteIdent(sequence)} TO ${role}`);
    return { role, created: !existing, tables: tables.length, deletable, appendOnly, sequences: sequences.length, database: me.database };
  });
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * PostgreSQL's stored form of a SCRAM-SHA-256 password (RFC 5802/7677, as pg_authid keeps it):
 * the server can check a sign-in against it but not recover the password. NFKC stands in for
 * SASLprep, which is the identity for the printable ASCII passwords people type.
 */
export function scramVerifier(password: string, salt: Buffer = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(password.normalize('NFKC'), salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}
