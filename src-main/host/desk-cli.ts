import { parseArgs } from 'node:util';
import { AppError, InvalidInputError } from '../common/errors';
import type { DeskRole, DeskUser } from '../desk/people';
import type { PostgresConnection } from '../store/postgres/connection';
import { processSecretInput, type SecretInput, SecretReader } from './desk-secrets';

/**
 * `forge desk …`: sets up a desk on a PostgreSQL database and manages its people from a shell —
 * what a desk admin (or the DBA setting it up) does before and besides `forge serve --db`.
 * Exit codes as forge migrate: 2 for a command given wrongly, 1 for a refusal or a failure.
 */
export const DESK_USAGE = `Usage: forge desk <command> --db postgres://user@host:port/database [options]

Sets up a desk (PMs, analysts, viewers and risk on one PostgreSQL 15+ database) and manages its
people. The database password comes from $PGPASSWORD (a URL on a command line is visible to other
users of this machine); it is never printed. --db may be left out when $FORGE_DB is set.
People's passwords come from the environment variables named below, else from standard input,
one line each in the order asked (typed unseen at a terminal) — never from the command line.

  create --admin ID --name "NAME" [--role pm|risk|analyst|viewer]
        Make the database a desk (an empty database, or one \`forge migrate\` filled) and create
        its first admin, a PM unless --role says otherwise. Password: $FORGE_DESK_PASSWORD.
  user add ID --name "NAME" --role pm|risk|analyst|viewer [--admin] --as ADMIN
        A new person; ADMIN's password: $FORGE_DESK_PASSWORD, then the new person's first
        password: $FORGE_NEW_USER_PASSWORD (they can change it once signed in).
  user disable ID --as ADMIN      Disable someone; every sign-in and token of theirs ends now.
  user role ID ROLE --as ADMIN    Change someone's role.
  user list                       Everyone on the desk, disabled people included.
  grant-app-role ROLE
        Create or update the ordinary database role Forge's servers should connect as, with
        exactly the rights the desk needs. Its password: $FORGE_APP_PASSWORD. Run it again
        after upgrading Forge.
`;

const ROLES: readonly DeskRole[] = ['pm', 'risk', 'analyst', 'viewer'];

/** A command given wrongly: exit code 2 and the usage. */
class DeskUsageError extends InvalidInputError {
  constructor(message: string) {
    super(message, []);
    this.name = 'DeskUsageError';
  }
}

interface Context {
  connection: PostgresConnection;
  /** The database as it may be shown: password masked. */
  shown: string;
  /** The named secret (environment, else stdin); refused when absent or empty. */
  secrets: { read(env: string, label: string): Promise<string>; readNew(env: string, label: string): Promise<string> };
  out: (line: string) => void;
}

export async function forgeDeskCli(args: string[], input: SecretInput = processSecretInput()): Promise<number> {
  const secrets = new SecretReader(input);
  // Every line printed passes through here: no secret we were given can reach the terminal.
  const known: string[] = [];
  const scrub = (text: string) => known.filter((s) => s.length > 0).reduce((t, s) => t.split(s).join('***'), text);
  const out = (line: string) => console.log(scrub(line));
  const fail = (line: string) => console.error(scrub(line));
  let connection: PostgresConnection | undefined;
  try {
    const [verb, ...rest] = args;
    if (verb === undefined || verb === 'help' || args.includes('--help') || args.includes('-h')) {
      console.log(DESK_USAGE);
      return 0;
    }
    const command = commandFor(verb, rest);
    const parsed = parseArgs({ args: command.args, options: { ...command.options, db: { type: 'string' } }, allowPositionals: true, strict: true });
    const url = (parsed.values.db as string | undefined) ?? (input.env.FORGE_DB || undefined);
    if (!url) throw new DeskUsageError('give the desk database with --db postgres://user@host:port/database (or set FORGE_DB).');
    const { parseTarget } = await import('../store/postgres/target');
    const target = parseTarget(url);
    known.push(target.password, input.env.PGPASSWORD ?? '');
    const values = parsed.values as Record<string, string | boolean | undefined>;
    command.check(values, parsed.positionals);
    const { PostgresConnection } = await import('../store/postgres/connection');
    connection = PostgresConnection.open(url, { applicationName: 'forge desk' });
    const checked = (env: string, label: string, secret: string | undefined) => {
      if (secret === undefined || secret === '') throw new DeskUsageError(`no ${label}: set ${env} or give it on standard input.`);
      known.push(secret);
      return secret;
    };
    const reader = {
      read: async (env: string, label: string) => checked(env, label, await secrets.read(env, label)),
      readNew: async (env: string, label: string) => checked(env, label, await secrets.readNew(env, label)),
    };
    await command.run({ connection, shown: target.masked, secrets: reader, out }, values, parsed.positionals);
    return 0;
  } catch (e) {
    // parseArgs' own errors (unknown option, missing value) are usage errors too.
    const usage = e instanceof DeskUsageError || String((e as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS');
    if (usage) {
      fail(`forge desk: ${(e as Error).message}\n\n${DESK_USAGE}`);
      return 2;
    }
    fail(`forge desk: ${(e as Error).message}`);
    return e instanceof AppError && e.code === 'invalid_input' ? 2 : 1;
  } finally {
    connection?.close();
    secrets.done();
  }
}

interface Command {
  args: string[];
  options: Record<string, { type: 'string' | 'boolean' }>;
  check: (values: Record<string, string | boolean | undefined>, positionals: string[]) => void;
  run: (ctx: Context, values: Record<string, string | boolean | undefined>, positionals: string[]) => Promise<void>;
}

function commandFor(verb: string, rest: string[]): Command {
  if (verb === 'create') return createCommand(rest);
  if (verb === 'grant-app-role') return appRoleCommand(rest);
  if (verb === 'user') {
    const [sub, ...more] = rest;
    if (sub === 'add' || sub === 'disable' || sub === 'role' || sub === 'list') return userCommand(sub, more);
    throw new DeskUsageError(`forge desk user takes add, disable, role or list${sub ? `, not "${sub.slice(0, 40)}"` : ''}.`);
  }
  throw new DeskUsageError(`unknown command "${verb.slice(0, 40)}".`);
}

function need(values: Record<string, string | boolean | undefined>, name: string, example: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v.trim() === '') throw new DeskUsageError(`give --${name} ${example}.`);
  return v;
}

function role(value: string | undefined): DeskRole {
  if (!ROLES.includes(value as DeskRole)) throw new DeskUsageError(`a role is one of ${ROLES.join(', ')}, not "${String(value).slice(0, 40)}".`);
  return value as DeskRole;
}

function positionals(list: string[], count: number, shape: string): void {
  if (list.length !== count) throw new DeskUsageError(`expected ${shape}.`);
}

function createCommand(args: string[]): Command {
  return {
    args,
    options: { admin: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' } },
    check: (values, list) => {
      positionals(list, 0, 'forge desk create --admin ID --name "NAME"');
      need(values, 'admin', 'ID (the first admin\'s user id, e.g. "alice")');
      need(values, 'name', '"Display Name"');
      role((values.role as string | undefined) ?? 'pm');
    },
    run: async ({ connection, shown, secrets, out }, values) => {
      const [{ createDesk }, { DeskPeople }] = await Promise.all([import('../desk/setup'), import('../desk/people')]);
      const admin = values.admin as string;
      const password = await secrets.readNew('FORGE_DESK_PASSWORD', `password for ${admin}`);
      const people = new DeskPeople(connection);
      // One transaction: a desk is never left without its first admin (a refused password or id undoes the schema too).
      const { createdWorkspace, user } = connection.transaction(() => {
        const made = createDesk(connection);
        const first = people.createFirstAdmin({
          userId: admin,
          displayName: values.name as string,
          role: role((values.role as string | undefined) ?? 'pm'),
          password,
        });
        return { ...made, user: first };
      });
      out(
        `forge desk: ${shown} is now a desk (${createdWorkspace ? 'an empty workspace created' : 'the workspace already there kept, with its history'}); first admin: ${describe(user)}.`,
      );
      out('Next: create the role the servers connect as, then start a server on it:');
      out(`  forge desk grant-app-role forge_app --db ${shown}`);
      out(`  forge serve --db ${withUser(shown, 'forge_app')}    (its password in PGPASSWORD)`);
      out(`Then add people: forge desk user add <id> --name "…" --role pm|risk|analyst|viewer --as ${user.userId} --db ${shown}`);
    },
  };
}

function userCommand(sub: 'add' | 'disable' | 'role' | 'list', args: string[]): Command {
  const shapes = {
    add: 'forge desk user add ID --name "NAME" --role ROLE --as ADMIN',
    disable: 'forge desk user disable ID --as ADMIN',
    role: 'forge desk user role ID ROLE --as ADMIN',
    list: 'forge desk user list',
  };
  const options: Command['options'] =
    sub === 'add'
      ? { name: { type: 'string' }, role: { type: 'string' }, admin: { type: 'boolean' }, as: { type: 'string' } }
      : sub === 'list'
        ? {}
        : { as: { type: 'string' } };
  return {
    args,
    options,
    check: (values, list) => {
      positionals(list, { add: 1, disable: 1, role: 2, list: 0 }[sub], shapes[sub]);
      if (sub === 'list') return;
      need(values, 'as', 'ADMIN (the desk admin doing this, who gives their password)');
      if (sub === 'add') {
        need(values, 'name', '"Display Name"');
        role(values.role as string | undefined);
      }
      if (sub === 'role') role(list[1]);
    },
    run: async ({ connection, shown, secrets, out }, values, list) => {
      const { DeskPeople } = await import('../desk/people');
      const people = new DeskPeople(connection);
      if (sub === 'list') {
        const { toUser } = await import('../desk/people/rows');
        const users = connection.query<Parameters<typeof toUser>[0]>('SELECT * FROM desk_users ORDER BY user_id').map(toUser);
        out(`${users.length} ${users.length === 1 ? 'person' : 'people'} on the desk ${shown}:`);
        for (const u of users) out(`  ${describe(u)}`);
        return;
      }
      const actor = values.as as string;
      const id = list[0] as string;
      const password = await secrets.read('FORGE_DESK_PASSWORD', `password for ${actor}`);
      // Signing in checks the password (with the desk's lock-out after repeated failures) and that
      // the account is active; the session is ended as soon as the change is made.
      const session = people.signIn(actor, password);
      try {
        if (sub === 'add') {
          const first = await secrets.readNew('FORGE_NEW_USER_PASSWORD', `first password for ${id}`);
          const user = people.createUser(actor, {
            userId: id,
            displayName: values.name as string,
            role: role(values.role as string | undefined),
            admin: values.admin === true,
            password: first,
          });
          out(`forge desk: added ${describe(user)}. They sign in with the password given and can change it.`);
        } else if (sub === 'disable') {
          out(`forge desk: disabled ${describe(people.disableUser(actor, id))}; their sign-ins and tokens have ended.`);
        } else {
          out(`forge desk: ${describe(people.setRole(actor, id, role(list[1])))}.`);
        }
      } finally {
        people.signOut(session.token);
      }
    },
  };
}

function appRoleCommand(args: string[]): Command {
  return {
    args,
    options: {},
    check: (_values, list) => positionals(list, 1, 'forge desk grant-app-role ROLE (e.g. forge_app)'),
    run: async ({ connection, shown, secrets, out }, _values, list) => {
      const { grantAppRole } = await import('./desk-app-role');
      const name = list[0] as string;
      const password = await secrets.readNew('FORGE_APP_PASSWORD', `password for the database role ${name}`);
      const s = grantAppRole(connection, name, password);
      out(`forge desk: ${s.created ? 'created' : 'updated'} the database role ${s.role} (login, not a superuser, no BYPASSRLS) on ${s.database}:`);
      out(`  SELECT, INSERT, UPDATE on ${s.tables - s.appendOnly.length} tables; DELETE only on ${s.deletable.join(', ')}`);
      out(`  SELECT, INSERT only on the append-only ${s.appendOnly.join(', ')}; USAGE on ${s.sequences} sequences`);
      out('Row-level security binds this role: each request sees only what its signed-in person may. Superusers');
      out('(and BYPASSRLS roles) bypass row-level security: never run forge serve as one.');
      out(`Next: PGPASSWORD=… forge serve --db ${withUser(shown, s.role)}`);
      out(SERVE_BINDS_EACH_CALL);
    },
  };
}

/**
 * What a server on this role does: each statement it sends is bound to the signed-in person of the
 * call it serves, or to the server's own work (host/desk.ts, desk/sharing/schema.ts).
 */
export const SERVE_BINDS_EACH_CALL =
  "forge serve --db on this role binds each call to its signed-in person: a PM lists, reads and finds only their own, shared and desk-wide notes, risk sees every one, and what a person writes is theirs and private until they share it. The server's own work (scheduled jobs, the search index, the desk's limit checks) reads every record.";

function describe(u: DeskUser): string {
  const state = u.disabledAt ? `disabled since ${u.disabledAt}` : 'active';
  return `${u.userId} "${u.displayName}", ${u.role}${u.admin ? ', desk admin' : ''}, ${state}`;
}

/** The same URL for another database user, without any password. */
function withUser(masked: string, user: string): string {
  const u = new URL(masked);
  u.username = user;
  u.password = '';
  return u.toString();
}
