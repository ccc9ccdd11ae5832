import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * A real PostgreSQL for tests: Debian's `postgresql` package's own `initdb` and `pg_ctl` on a
 * temporary folder, listening on 127.0.0.1 only at a free port. No stand-in: the migration's
 * verification, the audit trigger and the error paths are only worth testing against the server a
 * desk will run.
 *
 * `initdb` refuses to run as root, so as root (CI, these machines) the server runs as the
 * `postgres` user the Debian package creates, via `runuser`, in a folder chowned to it.
 *
 * Authentication: trust on 127.0.0.1 and the folder's own socket, except for the role
 * PASSWORD_ROLE, which must give its password (scram) — so a test can check what a wrong password
 * does without a second server.
 */

const run = promisify(execFile);

/** Where Debian installs each major version: /usr/lib/postgresql/<ver>/bin. */
export const DEBIAN_POSTGRES_ROOT = '/usr/lib/postgresql';
/** The one role the server asks a password of (see pg_hba.conf below). */
export const PASSWORD_ROLE = 'forge_password_user';
/** The environment variable that turns "no PostgreSQL here" from a skip into a failure (CI sets it). */
export const REQUIRE_ENV = 'FORGE_REQUIRE_POSTGRES';
/** Starting a cluster on a machine at load 10 can take tens of seconds. */
const START_DEADLINE_MS = 60_000;

export interface TestPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust: no password). */
  url: string;
  port: number;
  /** Stops the server at once (-m immediate: nothing to keep) and removes its folder. */
  stop(): Promise<void>;
  /**
   * Restarts the server as a crash would (-m immediate: every connection is cut mid-session), and
   * resolves once it accepts connections again — for tests of what clients see while it is away.
   */
  restart(): Promise<void>;
}

/** The bin folder of the highest installed major version, or undefined. */
export function postgresBinDir(root = DEBIAN_POSTGRES_ROOT): string | undefined {
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+(\.\d+)?$/.test(v) && existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

const asRoot = () => process.getuid?.() === 0;

/** Whether a test server can be started here: the binaries, and as root a `postgres` user to run them. */
export function postgresAvailable(root = DEBIAN_POSTGRES_ROOT): boolean {
  if (!postgresBinDir(root)) return false;
  return !asRoot() || postgresUser() !== undefined;
}

/**
 * For `describe.skipIf(skipWithoutPostgres())`: skip where no server can start, unless the
 * environment requires PostgreSQL (FORGE_REQUIRE_POSTGRES=1, set by .ci/run), where the suite runs
 * and startTestPostgres fails it with the reason — a CI that silently skipped every PostgreSQL test
 * would report green on a desk nobody tested.
 */
export function skipWithoutPostgres(root = DEBIAN_POSTGRES_ROOT): boolean {
  return !postgresAvailable(root) && process.env[REQUIRE_ENV] !== '1';
}

function postgresUser(): { uid: number; gid: number } | undefined {
  try {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('postgres:'));
    if (!line) return undefined;
    const [, , uid, gid] = line.split(':');
    return { uid: Number(uid), gid: Number(gid) };
  } catch {
    return undefined;
  }
}

/** A port nothing listens on right now (the kernel's choice for port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startTestPostgres(options: { root?: string } = {}): Promise<TestPostgres> {
  const bin = postgresBinDir(options.root);
  const user = asRoot() ? postgresUser() : undefined;
  if (!bin || (asRoot() && !user)) {
    throw new Error(
      `No PostgreSQL server to test against: ${bin ? 'running as root and no "postgres" user to run it as' : `no initdb under ${options.root ?? DEBIAN_POSTGRES_ROOT}/<version>/bin`}. Install Debian's package: apt-get install -y postgresql`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'forge-pg-'));
  const data = join(dir, 'data');
  // As root, everything runs as `postgres`, which must own the folder (initdb refuses root).
  const exec = (file: string, args: string[]) =>
    user ? run('runuser', ['-u', 'postgres', '--', join(bin, file), ...args], { cwd: dir }) : run(join(bin, file), args, { cwd: dir });
  try {
    if (user) chownSync(dir, user.uid, user.gid);
    // C locale: text sorts by bytes, as SQLite's default BINARY collation does.
    await exec('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions']);
    writeFileSync(
      join(data, 'pg_hba.conf'),
      ['local all all trust', `host all ${PASSWORD_ROLE} 127.0.0.1/32 scram-sha-256`, 'host all all 127.0.0.1/32 trust', ''].join('\n'),
    );
    // Attempts: the free port can be taken between finding it and the server binding it.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      writeFileSync(
        join(data, 'postgresql.auto.conf'),
        [
          `port = ${port}`,
          "listen_addresses = '127.0.0.1'",
          `unix_socket_directories = '${dir}'`,
          // A throwaway test cluster: durability buys nothing and costs seconds on a busy disk.
          'fsync = off',
          'synchronous_commit = off',
          'full_page_writes = off',
          "password_encryption = 'scram-sha-256'",
          '',
        ].join('\n'),
      );
      try {
        await exec('pg_ctl', ['start', '-D', data, '-l', join(dir, 'server.log'), '-w', '-t', String(START_DEADLINE_MS / 1000)]);
        const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
        await waitUntilAccepting(url);
        const restart = async () => {
          await exec('pg_ctl', ['restart', '-D', data, '-m', 'immediate', '-l', join(dir, 'server.log'), '-w', '-t', String(START_DEADLINE_MS / 1000)]);
          await waitUntilAccepting(url);
        };
        return { url, port, stop: () => stopServer(exec, data, dir), restart };
      } catch (e) {
        const log = readLog(dir);
        await exec('pg_ctl', ['stop', '-D', data, '-m', 'immediate']).catch(() => undefined);
        if (attempt < 3 && /could not bind|address already in use/i.test(log)) continue;
        throw new Error(`PostgreSQL did not start: ${(e as Error).message}\n${log}`);
      }
    }
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

async function waitUntilAccepting(url: string): Promise<void> {
  const deadline = Date.now() + START_DEADLINE_MS;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return;
    } catch (e) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

async function stopServer(exec: (file: string, args: string[]) => Promise<unknown>, data: string, dir: string): Promise<void> {
  try {
    if (existsSync(data) && statSync(data).isDirectory()) await exec('pg_ctl', ['stop', '-D', data, '-m', 'immediate']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readLog(dir: string): string {
  try {
    return readFileSync(join(dir, 'server.log'), 'utf8').slice(-2000);
  } catch {
    return '';
  }
}
