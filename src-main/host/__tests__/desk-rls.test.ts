import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ActingPerson, asPerson, DeskPeople } from '../../desk/people';
import { DeskSharing } from '../../desk/sharing';
import { createDesk, DESK_SCHEMA_VERSION } from '../../desk/setup';
import { PostgresConnection } from '../../store/postgres/connection';
import { connectionOf } from '../../store/postgres/postgres-db';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from '../../store/postgres/test-workspaces';
import type { Core } from '../core';
import { grantAppRole } from '../desk-app-role';
import { tempCore } from '../testing';
import { code, ok } from './answers';

const PASSWORD = 'correct-horse-battery-staple';
const APP_ROLE = 'forge_rls_app';

const view = (id: string, title: string, body: string) => `# ${id} — ${title}\nstatus: active\nconfidence: 0.6\nscope: US rates\n---\n## SUMMARY\n${body}\n`;

const PEOPLE: Record<string, ActingPerson> = {
  alice: { userId: 'alice', displayName: 'Alice', role: 'pm', admin: true },
  bob: { userId: 'bob', displayName: 'Bob', role: 'pm', admin: false },
  rita: { userId: 'rita', displayName: 'Rita', role: 'risk', admin: false },
};

/**
 * `forge serve --db` connected as the role `forge desk grant-app-role` makes (no superuser, no
 * BYPASSRLS): every statement is bound to the person of the call, so row-level security decides
 * what each PM lists, reads and finds — and what a PM writes through the app is theirs, private.
 */
describe.skipIf(skipWithoutPostgres())('row-level security under forge serve --db as the app role', { timeout: 180_000 }, () => {
  let workspaces: PostgresWorkspaces;
  let admin: PostgresConnection;
  let server: ReturnType<typeof tempCore>;
  let core: Core;
  let appUrl: string;
  const sessions: Record<string, string> = {};

  /** A call made by `who`: their session, and the person set as the dispatch sets it. */
  const as = <T>(who: string, fn: (session: string) => Promise<T>) => asPerson(PEOPLE[who], () => fn(sessions[who]));
  const list = (who: string) =>
    as(who, async (session) => ok(await core.invoke('memory/list', { path: '/memory/views/' }, { session })).entries.map((e) => e.path));
  const read = (who: string, path: string) => as(who, async (session) => code(await core.invoke('memory/read', { path }, { session })));
  const search = (who: string, query: string) =>
    as(who, async (session) =>
      ok(await core.invoke('memory/search', { query, scope: '/memory/' }, { session }))
        .results.filter((h) => h.keyword > 0)
        .map((h) => h.path),
    );
  /** Every hit, by keyword or by meaning alone. */
  const searchAll = (who: string, query: string) =>
    as(who, async (session) => ok(await core.invoke('memory/search', { query, scope: '/memory/' }, { session })).results.map((h) => h.path));
  const write = (who: string, content: string) =>
    as(who, async (session) => ok(await core.invoke('memory/write', { path: '/memory/views/new.md', content }, { session })).path);

  beforeAll(async () => {
    workspaces = await startPostgresWorkspaces();
    const url = workspaces.freshUrl();
    admin = PostgresConnection.open(url);
    createDesk(admin);
    const people = new DeskPeople(admin);
    people.createFirstAdmin({ userId: 'alice', displayName: 'Alice', role: 'pm', password: PASSWORD });
    people.createUser('alice', { userId: 'bob', displayName: 'Bob', role: 'pm', password: PASSWORD });
    people.createUser('alice', { userId: 'rita', displayName: 'Rita', role: 'risk', password: PASSWORD });
    grantAppRole(admin, APP_ROLE, PASSWORD);
    appUrl = url.replace('//postgres@', `//${APP_ROLE}:${PASSWORD}@`);
    server = tempCore({}, { database: appUrl });
    core = server.core;
    await core.context.memory.ready;
    for (const who of Object.keys(PEOPLE)) sessions[who] = ok(await core.invoke('desk/sign-in', { userId: who, password: PASSWORD })).session;
  }, 120_000);
  afterAll(async () => {
    await server?.dispose();
    admin?.close();
    await workspaces?.stop();
  });

  it('the server is connected as an ordinary role, so the policies bind it', () => {
    // If this failed, every check below would pass vacuously: a superuser sees every row.
    const connection = connectionOf(core.context.memory.store.db);
    expect(connection?.one("SELECT current_user AS who, current_setting('is_superuser') AS su")).toEqual({ who: APP_ROLE, su: 'off' });
  });

  it("a PM's View written through the app is theirs and private: bob cannot list, read or find it; risk and its owner can", async () => {
    // If this failed, one PM would read another's private View on the desk, or lose their own.
    const path = await write('alice', view('new', 'Zanzibar front end', 'Alice expects the Zanzibar committee to cut twice.'));
    const owner = admin.one('SELECT a.owner_id, a.visibility FROM desk_record_access a JOIN memory_records m USING (rid) WHERE m.title = $1', [
      'Zanzibar front end',
    ]);
    expect(owner).toEqual({ owner_id: 'alice', visibility: 'private' });

    expect(await list('alice')).toContain(path);
    expect(await read('alice', path)).toBe('ok');
    expect(await search('alice', 'Zanzibar committee')).toEqual([path]);

    expect(await list('bob')).not.toContain(path);
    expect(await read('bob', path)).toBe('not_found');
    expect(await search('bob', 'Zanzibar committee')).toEqual([]);
    expect(await searchAll('bob', 'Zanzibar committee cut twice')).not.toContain(path);

    expect(await list('rita')).toContain(path);
    expect(await read('rita', path)).toBe('ok');
    expect(await search('rita', 'Zanzibar committee')).toEqual([path]);
  });

  it('a note made desk-wide by its owner is listed, read and found by everyone', async () => {
    // If this failed, sharing a View with the desk would not reach the other PMs.
    const path = await write('bob', view('new', 'Oil supply', 'Bob sees Kalahari crude supply tightening.'));
    expect(await read('alice', path)).toBe('not_found');
    const id = path.replace(/^.*\/(.*)\.md$/, '$1');
    const connection = connectionOf(core.context.memory.store.db);
    if (!connection) throw new Error('the desk server has no PostgreSQL connection');
    asPerson(PEOPLE.bob, () => new DeskSharing(connection).makeDeskWide('bob', { category: 'views', id }));
    for (const who of ['alice', 'bob', 'rita']) {
      expect(await list(who)).toContain(path);
      expect(await read(who, path)).toBe('ok');
      expect(await search(who, 'Kalahari crude')).toEqual([path]);
    }
  });

  it("the search index holds every note whoever's search catches it up: bob searching first does not lose alice's View for risk or alice", async () => {
    // If this failed, a note would vanish from search for everyone once another PM's search had
    // applied its change to the server's index (the index reads as that PM, who cannot see it).
    const path = await write('alice', view('new', 'Quokka carry', 'Alice on the quokka carry trade.'));
    expect(await search('bob', 'quokka carry')).toEqual([]);
    expect(await search('rita', 'quokka carry')).toEqual([path]);
    expect(await search('alice', 'quokka carry')).toEqual([path]);
  });

  it("a PM cannot overwrite a colleague's note, private or desk-wide: refused, and the note keeps its text", async () => {
    // If this failed, bob could replace alice's View (or be told his edit was saved when it was not).
    const mine = await write('alice', view('new', 'Alice keeps this', 'Wombat spread widens.'));
    const deskWide = await write('alice', view('new', 'Alice shares this', 'Numbat curve flattens.'));
    const connection = connectionOf(core.context.memory.store.db);
    if (!connection) throw new Error('the desk server has no PostgreSQL connection');
    const id = deskWide.replace(/^.*\/(.*)\.md$/, '$1');
    asPerson(PEOPLE.alice, () => new DeskSharing(connection).makeDeskWide('alice', { category: 'views', id }));
    // Private: bob cannot even tell it exists. Desk-wide: he reads it, and his edit is refused.
    for (const [path, refused] of [
      [mine, 'not_found'],
      [deskWide, 'forbidden'],
    ]) {
      const id2 = path.replace(/^.*\/(.*)\.md$/, '$1');
      const r = await as('bob', async (session) =>
        core.invoke('memory/write', { path, content: view(id2, 'Bob was here', 'Overwritten by bob.'), expectedVersion: 1 }, { session }),
      );
      expect(code(r)).toBe(refused);
      const text = await as('alice', async (session) => ok(await core.invoke('memory/read', { path }, { session })).content);
      expect(text).not.toContain('Overwritten by bob');
    }
  });

  it('calls interleaving between their awaits each keep their own person', async () => {
    // If this failed, one PM's listing could run under the binding another call had just made.
    const private1 = await write('alice', view('new', 'Alice only', 'Tamarind basis trade.'));
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? list('bob') : list('alice'))));
    results.forEach((paths, i) => {
      expect(paths.includes(private1)).toBe(i % 2 === 0);
    });
  });

  it('refuses at start, saying why, a desk made by an older Forge when served by the app role', () => {
    // If this failed, such a server would start and then show nothing and refuse every new note.
    admin.run("UPDATE workspace_meta SET value = '1' WHERE key = 'desk_schema_version'");
    try {
      expect(() => tempCore({}, { database: appUrl })).toThrow(/made by an older Forge \(desk schema 1/);
    } finally {
      admin.run("UPDATE workspace_meta SET value = $1 WHERE key = 'desk_schema_version'", [String(DESK_SCHEMA_VERSION)]);
    }
  });
});
