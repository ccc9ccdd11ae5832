import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EventMessage } from '../api/events';
import { EnvSecretStore } from '../config/secrets';
import { createDesk } from '../desk/setup';
import { PostgresConnection } from '../store/postgres/connection';
import { PASSWORD_ROLE, skipWithoutPostgres } from '../store/postgres/test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from '../store/postgres/test-workspaces';
import type { CoreConfig } from './config';
import { createCore, type Core } from './core';
import { grantAppRole } from './desk-app-role';
import { DESK_DATABASE_FILE, saveDeskDatabaseSetting } from './desk-database-setting';
import { openChosenWorkspace } from './desk-database-start';
import { tempCore } from './testing';
import { ok } from './__tests__/answers';

const PASSWORD = 'right-pw-7c41e9';
const WRONG = 'wrong-pw-5d20aa';

/** A port nothing listens on: a desk server that is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Everything a data folder holds, as text: a password written anywhere in it would be found. */
function folderText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      try {
        return readFileSync(join(e.parentPath, e.name)).toString('latin1');
      } catch {
        return '';
      }
    })
    .join('\n');
}

/**
 * Settings → Desk database against a real PostgreSQL: a desk, a plain workspace, an empty
 * database, a wrong password (PASSWORD_ROLE is the one role the test server asks a password of),
 * a server that is down. A PM who pastes a desk's URL must learn whether it is a desk or why not,
 * and the password must never come back to the screen, into a file beside settings, or into a log.
 */
describe.skipIf(skipWithoutPostgres())('Settings → Desk database', { timeout: 180_000 }, () => {
  let workspaces: PostgresWorkspaces;
  let deskUrl: string; // the desk, as the trusted superuser
  let deskWithPassword: string; // the same desk as PASSWORD_ROLE with its password
  let workspaceUrl: string;
  let emptyUrl: string;
  let app: ReturnType<typeof tempCore>;
  const said: string[] = [];
  const events: EventMessage[] = [];

  beforeAll(async () => {
    workspaces = await startPostgresWorkspaces();
    deskUrl = workspaces.freshUrl();
    const setup = PostgresConnection.open(deskUrl);
    try {
      createDesk(setup);
      // The role a desk's servers connect as, with its grants and the password the server asks of it.
      grantAppRole(setup, PASSWORD_ROLE, PASSWORD);
    } finally {
      setup.close();
    }
    workspaceUrl = workspaces.freshUrl();
    const admin = new pg.Client({ connectionString: workspaces.server.url });
    await admin.connect();
    await admin.query('CREATE DATABASE forge_empty');
    await admin.end();
    emptyUrl = workspaces.server.url.replace(/\/[^/]*$/, '/forge_empty');
    deskWithPassword = deskUrl.replace('postgres@', `${PASSWORD_ROLE}:${PASSWORD}@`);
    app = tempCore({});
    app.core.context.events.subscribe((m) => events.push(m));
    // Every line the process prints while these tests run; none may hold the password.
    for (const stream of [process.stdout, process.stderr]) {
      const write = stream.write.bind(stream);
      vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
        said.push(String(chunk));
        return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof stream.write);
    }
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      const original = console[level].bind(console);
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        said.push(args.map(String).join(' '));
        original(...args);
      });
    }
  });

  afterEach(() => {
    // Nothing said on stdout, stderr or the console, and no event sent to the pages, holds a password.
    const everything = [...said, JSON.stringify(events)].join('\n');
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain(WRONG);
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await app?.dispose();
    await workspaces?.stop();
  });

  const probe = async (url?: string) => ok(await app.core.invoke('settings/test-desk-database', url === undefined ? {} : { url }));

  it('says a desk is a desk, and closes its connection before answering', async () => {
    const answer = await probe(deskWithPassword);
    expect(answer).toMatchObject({ result: 'desk', isDesk: true });
    expect(answer.masked).toContain(':***@');
    expect(JSON.stringify(answer)).not.toContain(PASSWORD);
    // "without keeping the connection": the role has no session left on the server.
    const admin = new pg.Client({ connectionString: workspaces.server.url });
    await admin.connect();
    const { rows } = await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = $1', [PASSWORD_ROLE]);
    await admin.end();
    expect(rows[0].n).toBe(0);
  });

  it('tells a workspace without a desk and an empty database from a desk', async () => {
    const workspace = await probe(workspaceUrl);
    expect(workspace).toMatchObject({ result: 'workspace', isDesk: false });
    expect(workspace.message).toContain('forge desk create');
    expect(await probe(emptyUrl)).toMatchObject({ result: 'empty', isDesk: false });
  });

  it('says the sign-in was refused on a wrong password, without repeating it', async () => {
    const answer = await probe(deskUrl.replace('postgres@', `${PASSWORD_ROLE}:${WRONG}@`));
    expect(answer).toMatchObject({ result: 'sign-in-refused', isDesk: false });
    expect(answer.message).toMatch(/refused the sign-in/);
    expect(JSON.stringify(answer)).not.toContain(WRONG);
  });

  it('says a server that is down is unreachable, and a database that does not exist is missing', async () => {
    const down = await probe(`postgres://forge:${WRONG}@127.0.0.1:${await closedPort()}/desk`);
    expect(down).toMatchObject({ result: 'unreachable', isDesk: false });
    expect(down.message).toMatch(/Could not connect/);
    expect(JSON.stringify(down)).not.toContain(WRONG);
    const missing = await probe(workspaces.server.url.replace(/\/[^/]*$/, '/no_such_desk'));
    expect(missing).toMatchObject({ result: 'no-database', isDesk: false });
  });

  it('refuses a URL that is not PostgreSQL before anything is tried', async () => {
    const r = await app.core.invoke('settings/test-desk-database', { url: `mysql://u:${WRONG}@127.0.0.1/desk` });
    expect(r.ok ? 'ok' : r.error.code).toBe('invalid_input');
    expect(JSON.stringify(r)).not.toContain(WRONG);
  });

  it('saves the URL with the password masked, keeps the password out of the data folder, and clears it again', async () => {
    const view = ok(await app.core.invoke('settings/set-desk-database', { url: deskWithPassword }));
    expect(view.saved).toBe(deskWithPassword.replace(PASSWORD, '***'));
    expect(view).toMatchObject({ passwordSaved: true, running: null, runningFrom: 'none', restartNeeded: true, startProblem: null });
    expect(JSON.stringify(ok(await app.core.invoke('settings/get', {})))).not.toContain(PASSWORD);
    expect(existsSync(join(app.dataDir, DESK_DATABASE_FILE))).toBe(true);
    expect(folderText(app.dataDir)).not.toContain(PASSWORD);
    // The masked URL the screen shows, tested or saved back, means the saved password.
    expect(await probe(view.saved!)).toMatchObject({ result: 'desk' });
    expect(await probe()).toMatchObject({ result: 'desk' });
    expect(ok(await app.core.invoke('settings/set-desk-database', { url: view.saved! })).passwordSaved).toBe(true);
    expect(await probe()).toMatchObject({ result: 'desk' });

    const cleared = ok(await app.core.invoke('settings/set-desk-database', { url: '' }));
    expect(cleared).toMatchObject({ saved: null, passwordSaved: false, restartNeeded: false });
    expect(existsSync(join(app.dataDir, DESK_DATABASE_FILE))).toBe(false);
    const none = await app.core.invoke('settings/test-desk-database', {});
    expect(none.ok ? 'ok' : none.error.code).toBe('invalid_input');
  });

  describe('at the next start', () => {
    const dirs: string[] = [];
    const cores: Core[] = [];
    afterAll(async () => {
      for (const c of cores) await c.close();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    });
    /** A data folder whose Settings saved `url`; the same secret store stands for the keychain across the restart. */
    const savedFolder = (url: string) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'forge-desk-setting-'));
      dirs.push(dataDir);
      const secrets = new EnvSecretStore({});
      saveDeskDatabaseSetting(dataDir, secrets, url);
      return { dataDir, secrets };
    };
    const start = (folder: { dataDir: string; secrets: EnvSecretStore }, options: { flag?: string; env?: NodeJS.ProcessEnv } = {}) => {
      const configs: CoreConfig[] = [];
      const chosen = openChosenWorkspace(
        { dataDir: folder.dataDir, mode: 'test', secrets: folder.secrets },
        {
          ...options,
          env: options.env ?? {},
          create: (config) => {
            configs.push(config);
            return createCore(config);
          },
        },
      );
      cores.push(chosen.core);
      return { ...chosen, config: configs.at(-1)! };
    };

    it('opens the desk saved in Settings, with the saved password', async () => {
      const started = start(savedFolder(deskWithPassword));
      expect(started.config).toMatchObject({ database: deskWithPassword, databaseChoice: { from: 'setting' } });
      expect(started.shown).toBe(deskWithPassword.replace(PASSWORD, '***'));
      // The core really is on the desk's PostgreSQL (desk/status is answered without a session).
      expect(ok(await started.core.invoke('desk/status', {}))).toMatchObject({ desk: true });
    });

    it('lets --db and FORGE_DB override the saved desk', async () => {
      const folder = savedFolder(deskWithPassword);
      expect(start(folder, { flag: workspaceUrl }).config).toMatchObject({ database: workspaceUrl, databaseChoice: { from: 'flag' } });
      expect(start(folder, { env: { FORGE_DB: workspaceUrl } }).config).toMatchObject({ database: workspaceUrl, databaseChoice: { from: 'environment' } });
    });

    it('opens the PM’s own workspace when the setting is cleared', async () => {
      const folder = savedFolder(deskWithPassword);
      saveDeskDatabaseSetting(folder.dataDir, folder.secrets, '');
      const started = start(folder);
      expect(started.config.database).toBeUndefined();
      expect(ok(await started.core.invoke('settings/desk-database', {}))).toMatchObject({ running: null, runningFrom: 'none', restartNeeded: false });
    });

    it('opens the PM’s own workspace when the saved file was damaged by hand', async () => {
      const folder = savedFolder(deskWithPassword);
      writeFileSync(join(folder.dataDir, DESK_DATABASE_FILE), JSON.stringify({ url: 'not a url' }));
      const started = start(folder);
      expect(started.config.database).toBeUndefined();
      expect(ok(await started.core.invoke('settings/desk-database', {}))).toMatchObject({ saved: null, running: null });
    });

    it('falls back to the PM’s own workspace, saying why, when the saved desk cannot be opened', async () => {
      const down = `postgres://${PASSWORD_ROLE}:${PASSWORD}@127.0.0.1:${await closedPort()}/desk`;
      const started = start(savedFolder(down));
      expect(started.config.database).toBeUndefined();
      const view = ok(await started.core.invoke('settings/desk-database', {}));
      expect(view).toMatchObject({ running: null, runningFrom: 'none', restartNeeded: true, passwordSaved: true });
      expect(view.startProblem).toMatch(/could not be opened/);
      expect(JSON.stringify(view)).not.toContain(PASSWORD);
      // A desk named on the command line that cannot be opened still stops the start, as before.
      expect(() => start(savedFolder(deskWithPassword), { flag: down })).toThrow(/Could not connect|connect/);
    });
  });
});
