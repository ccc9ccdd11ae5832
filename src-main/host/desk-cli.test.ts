import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { actingAs } from '../desk/people';
import { PostgresConnection } from '../store/postgres/connection';
import { migrateToPostgres } from '../store/postgres/migrate';
import { PASSWORD_ROLE, skipWithoutPostgres, startTestPostgres, type TestPostgres } from '../store/postgres/test-server';
import { main } from './cli';
import { APPEND_ONLY_TABLES, DELETING_TABLES } from './desk-app-role';
import { forgeDeskCli, SERVE_BINDS_EACH_CALL } from './desk-cli';
import type { SecretInput } from './desk-secrets';
import { seedDeskTestWorkspace } from './testing';

const ADMIN_PW = 'admin passphrase 2026 one';
const NEW_PW = 'analyst first passphrase';
const APP_PW = 'app role passphrase 77';

let server: TestPostgres;
let admin: PostgresConnection;
const root = mkdtempSync(join(tmpdir(), 'forge-desk-cli-'));
let databases = 0;

/** A new empty database on the test server, and its URL (superuser, trusted on 127.0.0.1). */
function emptyDatabase(): string {
  const name = `desk_cli_${++databases}`;
  admin.run(`CREATE DATABASE ${name}`);
  return server.url.replace(/\/postgres$/, `/${name}`);
}

function withDb<T>(url: string, fn: (c: PostgresConnection) => T): T {
  const c = PostgresConnection.open(url);
  try {
    return fn(c);
  } finally {
    c.close();
  }
}

/** Passwords from these environment variables, else these stdin lines (piped: no terminal). */
function secrets(env: Record<string, string> = {}, lines: string[] = []): SecretInput {
  return { env: { ...env }, stdin: Readable.from(lines.map((l) => `${l}\n`)), prompt: () => undefined };
}

/** Runs `forge desk …` and returns its exit code and everything it printed. */
async function desk(args: string[], input: SecretInput = secrets({ FORGE_DESK_PASSWORD: ADMIN_PW })): Promise<{ code: number; out: string; err: string }> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const code = await forgeDeskCli(args, input);
    const text = (m: typeof log) => m.mock.calls.map((c) => c.map(String).join(' ')).join('\n');
    return { code, out: text(log), err: text(error) };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

const tablesIn = (url: string) =>
  withDb(url, (c) => c.query<{ t: string }>("SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1").map((r) => r.t));

const snapshot = (url: string) =>
  withDb(url, (c) => ({
    tables: tablesIn(url),
    users: c.query('SELECT * FROM desk_users ORDER BY user_id'),
    audit: c.query('SELECT seq, actor, operation FROM audit_log ORDER BY seq'),
  }));

const noSecrets = (text: string) => {
  for (const secret of [ADMIN_PW, NEW_PW, APP_PW]) expect(text).not.toContain(secret);
};

describe.skipIf(skipWithoutPostgres())('forge desk', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    server = await startTestPostgres();
    admin = PostgresConnection.open(server.url);
  }, 120_000);

  afterAll(async () => {
    admin?.close();
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  // If this failed, a desk admin could not set a desk up from the shell, or would see their password echoed.
  it('creates a desk on an empty database with its first admin, says what to run next, never prints the password', async () => {
    const url = emptyDatabase();
    // The password piped on stdin (as a script would), not in the environment.
    const r = await desk(['create', '--db', url, '--admin', 'ada', '--name', 'Ada Admin', '--role', 'risk'], secrets({}, [ADMIN_PW]));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('is now a desk (an empty workspace created)');
    expect(r.out).toContain('ada "Ada Admin", risk, desk admin, active');
    expect(r.out).toMatch(/forge serve --db postgres:\/\/forge_app@127\.0\.0\.1:\d+\/desk_cli_1/);
    noSecrets(r.out);
    const after = snapshot(url);
    expect(after.tables).toEqual(expect.arrayContaining(['desk_users', 'memory_records', 'audit_log', 'forge_schema']));
    expect(after.users).toMatchObject([{ user_id: 'ada', role: 'risk', admin: true, disabled_at: null }]);
    // The stored hash is a hash, not the password.
    withDb(url, (c) => expect(c.one<{ h: string }>('SELECT password_hash AS h FROM desk_credentials')?.h).toMatch(/^scrypt\$/));
  });

  // If this failed, a PM's migrated workspace (its Views, versions and audit trail) would be lost or refused when the desk is set up.
  it('creates a desk on a database forge migrate filled, keeping every row there', async () => {
    const dataDir = join(root, 'workspace');
    await seedDeskTestWorkspace(dataDir);
    const url = emptyDatabase();
    await migrateToPostgres(join(dataDir, 'forge.db'), url);
    const before = withDb(url, (c) => ({
      audit: c.query('SELECT seq, actor, operation, path FROM audit_log ORDER BY seq'),
      records: c.query('SELECT rid, id, content_hash FROM memory_records ORDER BY rid'),
    }));
    expect(before.records.length).toBeGreaterThan(0);
    const r = await desk(['create', '--db', url, '--admin', 'pat', '--name', 'Pat PM']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('the workspace already there kept');
    expect(r.out).toContain('pat "Pat PM", pm, desk admin');
    withDb(url, (c) => {
      expect(c.query('SELECT rid, id, content_hash FROM memory_records ORDER BY rid')).toEqual(before.records);
      const audit = c.query('SELECT seq, actor, operation, path FROM audit_log ORDER BY seq');
      expect(audit.slice(0, before.audit.length)).toEqual(before.audit);
      // The first admin's creation is audited after the migrated history.
      expect(audit.slice(before.audit.length)).toMatchObject([{ actor: 'pat', operation: 'desk.user.create_first_admin' }]);
      expect(c.one("SELECT 1 AS y FROM desk_books WHERE book_id = 'pat'")).toEqual({ y: 1 });
    });
  });

  // If this failed, running create twice could add a second "first" admin or reset a live desk.
  it('refuses a second create with exit code 1 and changes nothing', async () => {
    const url = emptyDatabase();
    expect((await desk(['create', '--db', url, '--admin', 'ada', '--name', 'Ada'])).code).toBe(0);
    const before = snapshot(url);
    const again = await desk(['create', '--db', url, '--admin', 'eve', '--name', 'Eve']);
    expect(again.code).toBe(1);
    expect(again.err).toContain('already a desk; nothing was changed');
    expect(snapshot(url)).toEqual(before);
  });

  // If this failed, a password refused by the policy would leave a desk with no admin that nobody could ever manage.
  it('refuses a too-short password with exit code 2 and leaves the database empty', async () => {
    const url = emptyDatabase();
    const r = await desk(['create', '--db', url, '--admin', 'ada', '--name', 'Ada'], secrets({ FORGE_DESK_PASSWORD: 'short' }));
    expect(r.code).toBe(2);
    expect(r.err).toContain('at least 12 characters');
    expect(tablesIn(url)).toEqual([]);
  });

  // If this failed, an admin could not add, re-role or disable people from the shell, or someone without the admin's password could.
  it('adds, lists, re-roles and disables people, acting as an admin who gives their password', async () => {
    const url = emptyDatabase();
    expect((await desk(['create', '--db', url, '--admin', 'ada', '--name', 'Ada'])).code).toBe(0);
    const add = await desk(
      ['user', 'add', 'nina', '--name', 'Nina Analyst', '--role', 'analyst', '--as', 'ada', '--db', url],
      secrets({ FORGE_DESK_PASSWORD: ADMIN_PW, FORGE_NEW_USER_PASSWORD: NEW_PW }),
    );
    expect(add.err).toBe('');
    expect(add.code).toBe(0);
    expect(add.out).toContain('added nina "Nina Analyst", analyst, active');
    // Both passwords on stdin, in the order asked: the admin's, then the new person's.
    const add2 = await desk(
      ['user', 'add', 'rick', '--name', 'Rick Risk', '--role', 'risk', '--admin', '--as', 'ada', '--db', url],
      secrets({}, [ADMIN_PW, NEW_PW]),
    );
    expect(add2.code).toBe(0);
    const list = await desk(['user', 'list', '--db', url]);
    expect(list.code).toBe(0);
    expect(list.out).toContain('3 people on the desk');
    expect(list.out).toContain('nina "Nina Analyst", analyst, active');
    expect(list.out).toContain('rick "Rick Risk", risk, desk admin, active');

    expect((await desk(['user', 'role', 'nina', 'pm', '--as', 'ada', '--db', url])).out).toContain('nina "Nina Analyst", pm');
    const off = await desk(['user', 'disable', 'nina', '--as', 'rick', '--db', url], secrets({ FORGE_DESK_PASSWORD: NEW_PW }));
    expect(off.code).toBe(0);
    expect((await desk(['user', 'list', '--db', url])).out).toMatch(/nina "Nina Analyst", pm, disabled since /);
    for (const r of [add, add2, list, off]) noSecrets(r.out + r.err);

    // A wrong admin password and a non-admin are refused, and nobody is added.
    const before = snapshot(url).users;
    const wrong = await desk(
      ['user', 'add', 'mal', '--name', 'Mal', '--role', 'pm', '--as', 'ada', '--db', url],
      secrets({ FORGE_DESK_PASSWORD: 'not the password at all', FORGE_NEW_USER_PASSWORD: NEW_PW }),
    );
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain('Wrong user id or password');
    expect(wrong.err).not.toContain('not the password at all');
    await desk(
      ['user', 'add', 'viv', '--name', 'Viv', '--role', 'viewer', '--as', 'ada', '--db', url],
      secrets({ FORGE_DESK_PASSWORD: ADMIN_PW, FORGE_NEW_USER_PASSWORD: NEW_PW }),
    );
    const notAdmin = await desk(
      ['user', 'add', 'mal', '--name', 'Mal', '--role', 'pm', '--as', 'viv', '--db', url],
      secrets({ FORGE_DESK_PASSWORD: NEW_PW, FORGE_NEW_USER_PASSWORD: NEW_PW }),
    );
    expect(notAdmin.code).toBe(1);
    expect(snapshot(url).users.map((u) => u.user_id)).toEqual([...before.map((u) => u.user_id), 'viv'].sort());
  });

  // If this failed, a mistyped command would do something, or fail without saying how to call it.
  it('answers a command given wrongly with exit code 2 and the usage, touching no database', async () => {
    const cases: [string[], RegExp][] = [
      [['create', '--admin', 'ada', '--name', 'Ada'], /give the desk database with --db/],
      [['create', '--db', 'postgres://x@127.0.0.1:1/d', '--name', 'Ada'], /give --admin/],
      [
        ['user', 'add', 'nina', '--name', 'N', '--role', 'boss', '--as', 'ada', '--db', 'postgres://x@127.0.0.1:1/d'],
        /a role is one of pm, risk, analyst, viewer/,
      ],
      [['user', 'frobnicate', '--db', 'postgres://x@127.0.0.1:1/d'], /takes add, disable, role or list/],
      [['create', '--db', 'postgres://x@127.0.0.1:1/d', '--colour'], /Unknown option '--colour'/],
      [['create', '--db', 'mysql://root:pw-xyz-123@h/d', '--admin', 'a', '--name', 'A'], /must be a PostgreSQL URL/],
    ];
    for (const [args, message] of cases) {
      const r = await desk(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err).not.toContain('pw-xyz-123');
    }
    const help = await desk(['user', 'add', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: forge desk <command>');
    // Through the forge command itself, with the database password in the URL: masked when it cannot connect.
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await main(['desk', 'user', 'list', '--db', 'postgres://postgres:s3cret-pw-9@127.0.0.1:1/d'])).toBe(1);
      const printed = err.mock.calls.map((c) => String(c[0])).join('\n');
      expect(printed).toContain('postgres://postgres:***@127.0.0.1:1/d');
      expect(printed).not.toContain('s3cret-pw-9');
    } finally {
      err.mockRestore();
    }
  });

  // If this failed, Forge's servers would connect as a superuser (every PM seeing every private note) or lack a right they need.
  it('grant-app-role makes an ordinary password role that, bound to a person, sees what row-level security allows', async () => {
    const url = emptyDatabase();
    expect((await desk(['create', '--db', url, '--admin', 'ada', '--name', 'Ada'])).code).toBe(0);
    for (const [id, role] of [
      ['alice', 'pm'],
      ['bob', 'pm'],
    ]) {
      await desk(
        ['user', 'add', id, '--name', id, '--role', role, '--as', 'ada', '--db', url],
        secrets({ FORGE_DESK_PASSWORD: ADMIN_PW, FORGE_NEW_USER_PASSWORD: NEW_PW }),
      );
    }
    // PASSWORD_ROLE is the one role the test server asks a password of (scram), so the password set is really checked.
    const r = await desk(['grant-app-role', PASSWORD_ROLE, '--db', url], secrets({ FORGE_APP_PASSWORD: APP_PW }));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`created the database role ${PASSWORD_ROLE}`);
    expect(r.out).toContain('Superusers');
    expect(r.out).toContain(SERVE_BINDS_EACH_CALL);
    noSecrets(r.out);
    // Run again, it updates rather than fails.
    expect((await desk(['grant-app-role', PASSWORD_ROLE, '--db', url], secrets({ FORGE_APP_PASSWORD: APP_PW }))).out).toContain('updated the database role');

    withDb(url, (c) => {
      expect(c.one('SELECT rolsuper, rolbypassrls, rolcanlogin FROM pg_roles WHERE rolname = $1', [PASSWORD_ROLE])).toEqual({
        rolsuper: false,
        rolbypassrls: false,
        rolcanlogin: true,
      });
      // The password is stored as a SCRAM verifier, computed before it left this process.
      const may = (table: string, privilege: string) =>
        c.one<{ y: boolean }>('SELECT has_table_privilege($1, $2, $3) AS y', [PASSWORD_ROLE, table, privilege])?.y;
      expect([may('memory_records', 'DELETE'), may('desk_record_shares', 'DELETE'), may('desk_users', 'UPDATE')]).toEqual([true, true, true]);
      expect([may('desk_users', 'DELETE'), may('audit_log', 'UPDATE'), may('audit_log', 'DELETE'), may('guardrail_checks', 'UPDATE')]).toEqual([
        false,
        false,
        false,
        false,
      ]);
      expect(may('audit_log', 'INSERT')).toBe(true);
    });

    // An existing superuser (someone's admin account) or the tables' owner is refused, not demoted.
    admin.run('CREATE ROLE dba_alice LOGIN SUPERUSER');
    const demote = await desk(['grant-app-role', 'dba_alice', '--db', url], secrets({ FORGE_APP_PASSWORD: APP_PW }));
    expect(demote.code).toBe(1);
    expect(demote.err).toContain('dba_alice is a superuser; Forge will not demote it');
    expect(admin.one("SELECT rolsuper FROM pg_roles WHERE rolname = 'dba_alice'")).toEqual({ rolsuper: true });

    const appUrl = url.replace('postgres@', `${PASSWORD_ROLE}:${encodeURIComponent(APP_PW)}@`);
    expect(() => PostgresConnection.open(url.replace('postgres@', `${PASSWORD_ROLE}:wrong-password-here@`))).toThrow(/refused the user or password/);
    withDb(appUrl, (app) => {
      expect(app.one('SELECT current_user AS who')).toEqual({ who: PASSWORD_ROLE });
      // Alice writes a private note through the app role (its rights: sequence, records; the desk's trigger adds her as owner).
      actingAs(app, 'alice', () =>
        app.run(
          `INSERT INTO memory_records (category, id, title, meta, created_at, updated_at, header, body, content_hash)
           VALUES ('research', 'alice-jgb', 'JGBs', '', 'now', 'now', '{}', 'Curve control ends.', 'x') RETURNING rid`,
        ),
      );
      const ids = (who?: string) => {
        const read = () => app.query<{ id: string }>("SELECT id FROM memory_records WHERE id = 'alice-jgb'").map((r) => r.id);
        return who ? actingAs(app, who, read) : read();
      };
      expect(ids('alice')).toEqual(['alice-jgb']);
      expect(ids('bob')).toEqual([]);
      expect(ids()).toEqual([]);
      // The audit trail stays append-only for the servers' role, by privilege and not only by trigger.
      expect(() => app.run("UPDATE audit_log SET actor = 'x'")).toThrow(/permission denied/);
    });
  });

  // If this failed, the real forge command would hang on its stdin or worker thread, or print the piped password.
  it('runs as the forge command in its own process, the password piped on stdin, and exits', async () => {
    const url = emptyDatabase();
    const run = (args: string[], stdinText: string) =>
      new Promise<{ code: number | null; text: string }>((done, failed) => {
        const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'cli.ts'), 'desk', ...args], {
          env: { ...process.env, FORGE_DESK_PASSWORD: '', PGPASSWORD: '' },
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let text = '';
        child.stdout.on('data', (d) => (text += d));
        child.stderr.on('data', (d) => (text += d));
        child.on('error', failed);
        child.on('exit', (code) => done({ code, text }));
        child.stdin.end(stdinText);
      });
    const made = await run(['create', '--db', url, '--admin', 'ada', '--name', 'Ada Admin'], `${ADMIN_PW}\n`);
    expect(made.text).toContain('is now a desk');
    expect(made.code).toBe(0);
    noSecrets(made.text);
    const list = await run(['user', 'list', '--db', url], '');
    expect(list.code).toBe(0);
    expect(list.text).toContain('ada "Ada Admin", pm, desk admin, active');
  });

  // If this failed, a code path deleting rows from a table the app role may not delete from would fail on a desk with "permission denied".
  it('grants DELETE on exactly the desk tables Forge deletes rows from (read from the source)', async () => {
    const url = emptyDatabase();
    expect((await desk(['create', '--db', url, '--admin', 'ada', '--name', 'Ada'])).code).toBe(0);
    const deskTables = new Set(
      withDb(url, (c) => c.query<{ t: string }>("SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public'")).map((r) => r.t),
    );
    const deleted = new Set<string>();
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        // Tests and test helpers delete what they like; the servers run the rest.
        else if (name.endsWith('.ts') && !/\.test\.ts$|\.contract\.ts$|^testing\.ts$|^test-/.test(name)) {
          for (const m of readFileSync(path, 'utf8').matchAll(/DELETE\s+FROM\s+"?(\w+)/gi)) if (m[1] && deskTables.has(m[1])) deleted.add(m[1]);
        }
      }
    };
    walk(join(__dirname, '..'));
    expect(deleted.size).toBeGreaterThan(5);
    expect([...deleted].sort()).toEqual([...DELETING_TABLES].sort());
    for (const table of APPEND_ONLY_TABLES) expect(deskTables.has(table), table).toBe(true);
  });
});
