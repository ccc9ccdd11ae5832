import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvSecretStore } from '../../config/secrets';
import { PostgresConnection } from '../../store/postgres/connection';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from '../../store/postgres/test-workspaces';
import { type Core, createCore } from '../core';
import { code, ok, type Result } from './answers';
import { seedDesk, TWO_PMS } from './desk-seed';

const PASSWORD = 'correct-horse-battery-staple';
const APP_ROLE = 'forge_desk_reindex_app';
const view = (title: string, body: string) => `# new — ${title}\nstatus: active\nconfidence: 0.6\nscope: global rates\n---\n## SUMMARY\n${body}\n`;

/**
 * Settings → Search → Rebuild on a desk with people (row-level security on, served as the app
 * role): the admin's rebuild re-embeds every person's notes, not only those the admin may read,
 * and what each person then sees (status, search by meaning) is their own share of a whole index.
 */
describe.skipIf(skipWithoutPostgres())('search rebuild on a desk with people', { timeout: 180_000 }, () => {
  let workspaces: PostgresWorkspaces;
  let admin: PostgresConnection;
  let core: Core;
  let dataDir: string;
  const sessions: Record<string, string> = {};
  const call = <T>(who: string, name: string, input: unknown) => core.invokeUnknown(name, input, { session: sessions[who] }) as Promise<Result<T>>;

  beforeAll(async () => {
    workspaces = await startPostgresWorkspaces();
    const url = workspaces.freshUrl();
    const { serverUrl } = seedDesk(url, TWO_PMS, PASSWORD, APP_ROLE);
    admin = PostgresConnection.open(url);
    dataDir = mkdtempSync(join(tmpdir(), 'forge-desk-reindex-people-'));
    core = createCore({ dataDir, mode: 'test', secrets: new EnvSecretStore({}), database: serverUrl });
    await core.context.memory.ready;
    for (const who of ['pm01', 'pm02']) sessions[who] = ok(await core.invoke('desk/sign-in', { userId: who, password: PASSWORD })).session;
  }, 120_000);
  afterAll(async () => {
    await core?.close();
    admin?.close();
    await workspaces?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("the admin's rebuild re-embeds every PM's notes; each PM's status and search read their own notes, fully indexed", async () => {
    ok(
      await call('pm01', 'memory/write', {
        path: '/memory/views/new.md',
        content: view('Long copper on China stimulus', 'LME inventories falling while Chinese credit turns up.'),
      }),
    );
    ok(
      await call('pm02', 'memory/write', {
        path: '/memory/views/new.md',
        content: view('Yen carry unwind', 'BoJ hikes; crowded yen carry positioning unwinds.'),
      }),
    );
    const total = Number(admin.query('SELECT count(*) AS n FROM memory_records')[0]?.n);

    expect(code(await call('pm02', 'search/reindex', {}))).toBe('forbidden');
    const rebuilt = ok(await call<{ done: number; total: number }>('pm01', 'search/reindex', {}));
    expect(rebuilt).toMatchObject({ done: total, total });
    expect(Number(admin.query('SELECT count(*) AS n FROM search_entries')[0]?.n)).toBe(total);

    for (const who of ['pm01', 'pm02']) {
      const status = ok(await call<{ stale: boolean; queued: number; parked: number }>(who, 'search/status', {}));
      expect({ who, ...status }).toMatchObject({ who, stale: false, queued: 0, parked: 0 });
    }
    const pm02 = ok(await call<{ results: { title: string }[] }>('pm02', 'memory/search', { query: 'crowded yen carry BoJ', scope: '/memory/' })).results;
    expect(pm02[0]?.title).toBe('Yen carry unwind');
    expect(pm02.map((h) => h.title)).not.toContain('Long copper on China stimulus');
  });
});
