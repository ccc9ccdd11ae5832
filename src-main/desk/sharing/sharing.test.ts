import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForbiddenError, InvalidInputError, NotFoundError } from '../../common/errors';
import type { PostgresConnection } from '../../store/postgres/connection';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { actingAs } from '../people/acting-as';
import { connectAsApp, TEST_APP_ROLE } from '../people/testing';
import { startTestDesk, type TestDesk } from '../testing';
import { DeskSharing } from './sharing';

const AT = '2026-11-01T08:00:00.000Z';

/** A note written by the superuser (as `forge migrate` would), with an owner unless `owner` is null. */
function addNote(admin: PostgresConnection, id: string, body: string, owner: string | null): void {
  admin.transaction(() => {
    const row = admin.one<{ rid: string }>(
      `INSERT INTO memory_records (category, id, title, meta, created_at, updated_at, header, body, content_hash)
       VALUES ('research', $1, $2, '', $3, $3, '{}', $4, $5) RETURNING rid`,
      [id, `Note ${id}`, AT, body, createHash('sha256').update(body).digest('hex')],
    );
    if (owner) admin.run('INSERT INTO desk_record_access (rid, owner_id) VALUES ($1, $2)', [row!.rid, owner]);
  });
}

/**
 * Sharing as a desk's server meets it: connected as an ordinary role (superusers bypass row-level
 * security), each transaction bound to one person with actingAs.
 */
describe.skipIf(skipWithoutPostgres())('sharing research on a desk: row-level security on memory records', { timeout: 120_000 }, () => {
  let desk: TestDesk;
  let app: PostgresConnection;
  let sharing: DeskSharing;

  /** The research ids `who` can list. */
  const visibleTo = (who: string) =>
    actingAs(app, who, () => app.query<{ id: string }>("SELECT id FROM memory_records WHERE category = 'research' ORDER BY id").map((r) => r.id));
  /** What `who` finds searching the desk's full text. */
  const searchAs = (who: string, words: string) =>
    actingAs(app, who, () =>
      app.query<{ id: string }>("SELECT id FROM memory_records WHERE search_vector @@ plainto_tsquery('english', $1) ORDER BY id", [words]).map((r) => r.id),
    );
  const asAlice = <T>(fn: () => T) => actingAs(app, 'alice', fn);

  beforeAll(async () => {
    desk = await startTestDesk();
    const admin = desk.connection;
    for (const [id, role] of [
      ['alice', 'pm'],
      ['bob', 'pm'],
      ['carol', 'analyst'],
      ['rita', 'risk'],
    ]) {
      admin.run('INSERT INTO desk_users (user_id, display_name, role) VALUES ($1, $2, $3)', [id, id, role]);
    }
    addNote(admin, 'alice-fed', 'Alice thinks the Zanzibar committee cuts twice by March.', 'alice');
    addNote(admin, 'bob-oil', 'Bob on oil supply and the Zanzibar shipping lanes.', 'bob');
    addNote(admin, 'orphan', 'A Zanzibar note nobody was named owner of.', null);
    // An earlier version of alice's note, as the store archives it before each change.
    admin.run(
      `INSERT INTO memory_archive (category, id, name, archived_at, title, content, content_hash)
       VALUES ('research', 'alice-fed', 'alice-fed.v1.md', $1, 'Note alice-fed', 'First draft: Zanzibar cuts once.', 'h1')`,
      [AT],
    );
    app = connectAsApp(desk);
    // Beyond the sign-in tests' grants: unsharing deletes share rows, and every memory write's
    // trigger trims memory_changes. A desk's app role needs both (reported with this change).
    admin.run(`GRANT DELETE ON desk_record_shares, memory_changes, memory_records TO ${TEST_APP_ROLE}`);
    sharing = new DeskSharing(app);
  }, 120_000);
  afterAll(async () => {
    app?.close();
    await desk?.stop();
  });

  it('the app connects as an ordinary role, so the policies apply to it', () => {
    expect(app.one<{ s: boolean }>('SELECT rolsuper AS s FROM pg_roles WHERE rolname = current_user')?.s).toBe(false);
  });

  it("alice's private note is invisible to bob and carol, in listings and in full-text search; risk sees everything", () => {
    expect(visibleTo('alice')).toEqual(['alice-fed']);
    expect(visibleTo('bob')).toEqual(['bob-oil']);
    expect(visibleTo('carol')).toEqual([]);
    expect(searchAs('bob', 'zanzibar committee')).toEqual([]);
    expect(searchAs('bob', 'zanzibar')).toEqual(['bob-oil']);
    expect(visibleTo('rita')).toEqual(['alice-fed', 'bob-oil', 'orphan']);
    expect(searchAs('rita', 'zanzibar')).toEqual(['alice-fed', 'bob-oil', 'orphan']);
  });

  it("an earlier version of alice's private note is as hidden as the note, and shows once the note is shared", () => {
    const versionsFor = (who: string) =>
      actingAs(app, who, () => app.query<{ name: string }>('SELECT name FROM memory_archive ORDER BY name').map((r) => r.name));
    expect(versionsFor('alice')).toEqual(['alice-fed.v1.md']);
    expect(versionsFor('bob')).toEqual([]);
    expect(versionsFor('rita')).toEqual(['alice-fed.v1.md']);
    asAlice(() => sharing.shareWith('alice', { category: 'research', id: 'alice-fed' }, ['bob']));
    expect(versionsFor('bob')).toEqual(['alice-fed.v1.md']);
    asAlice(() => sharing.makePrivate('alice', { category: 'research', id: 'alice-fed' }));
    expect(versionsFor('bob')).toEqual([]);
  });

  it('a note with no owner row is seen by risk only, and a transaction bound to nobody sees nothing (fail closed)', () => {
    expect(visibleTo('alice')).not.toContain('orphan');
    expect(visibleTo('rita')).toContain('orphan');
    expect(app.query("SELECT id FROM memory_records WHERE category = 'research'")).toEqual([]);
  });

  it('shared with bob, the note shows up for bob (listing and search) and still not for carol; unshared, it is gone again', () => {
    const access = asAlice(() => sharing.shareWith('alice', { category: 'research', id: 'alice-fed' }, ['bob']));
    expect(access).toMatchObject({ ownerId: 'alice', visibility: 'shared', sharedWith: ['bob'] });
    expect(visibleTo('bob')).toEqual(['alice-fed', 'bob-oil']);
    expect(searchAs('bob', 'zanzibar committee')).toEqual(['alice-fed']);
    expect(visibleTo('carol')).toEqual([]);
    expect(asAlice(() => sharing.unshare('alice', { category: 'research', id: 'alice-fed' }, 'bob'))).toMatchObject({ visibility: 'private', sharedWith: [] });
    expect(visibleTo('bob')).toEqual(['bob-oil']);
  });

  it('desk-wide, carol sees it too; made private again, bob and carol lose it and search as bob stops finding it', () => {
    const ref = { category: 'research', id: 'alice-fed' };
    asAlice(() => sharing.shareWith('alice', ref, ['bob']));
    expect(asAlice(() => sharing.makeDeskWide('alice', ref)).visibility).toBe('desk');
    expect(visibleTo('carol')).toEqual(['alice-fed']);
    expect(asAlice(() => sharing.makePrivate('alice', ref))).toMatchObject({ visibility: 'private', sharedWith: [] });
    expect(visibleTo('carol')).toEqual([]);
    expect(visibleTo('bob')).toEqual(['bob-oil']);
    expect(searchAs('bob', 'zanzibar committee')).toEqual([]);
  });

  it('only the owner changes who may read a note; readers of a desk-wide note cannot edit it', () => {
    const ref = { category: 'research', id: 'bob-oil' };
    expect(() => actingAs(app, 'bob', () => sharing.makeDeskWide('bob', ref))).not.toThrow();
    // alice can read bob's desk-wide note but neither re-share it nor change it.
    expect(() => asAlice(() => sharing.makePrivate('alice', ref))).toThrow(ForbiddenError);
    // Refused out loud (forbidden), not skipped: a skipped edit would be reported as saved.
    expect(() => asAlice(() => app.run("UPDATE memory_records SET title = 'edited by alice' WHERE id = 'bob-oil'"))).toThrow(/row-level security/);
    expect(() => asAlice(() => app.run("DELETE FROM memory_records WHERE id = 'bob-oil'"))).toThrow(/only its owner or risk may delete/);
    // A note she cannot read at all is simply not matched.
    expect(asAlice(() => app.run("UPDATE memory_records SET title = 'x' WHERE id = 'orphan'")).rowCount).toBe(0);
    expect(actingAs(app, 'bob', () => app.run("UPDATE memory_records SET title = 'edited by bob' WHERE id = 'bob-oil'")).rowCount).toBe(1);
    // A note alice cannot read at all is "not found" to her, not "forbidden": its existence is not told.
    expect(() => asAlice(() => sharing.shareWith('alice', { category: 'research', id: 'orphan' }, ['bob']))).toThrow(NotFoundError);
  });

  it('a note a person writes as the app role is theirs and private at once, INSERT … RETURNING included; bound to nobody, the write is refused', () => {
    // If this failed, a PM's new note would have no owner (seen by risk only, lost to its writer),
    // or the store's INSERT … RETURNING rid would be refused by the read policy.
    const rid = actingAs(app, 'carol', () =>
      app.one<{ rid: string }>(
        `INSERT INTO memory_records (category, id, title, meta, created_at, updated_at, header, body, content_hash)
         VALUES ('research', 'carol-fx', 'FX', '', $1, $1, '{}', 'Yen carry.', 'x') RETURNING rid`,
        [AT],
      ),
    )?.rid;
    expect(rid).toBeDefined();
    expect(desk.connection.one('SELECT owner_id, visibility FROM desk_record_access WHERE rid = $1', [rid])).toEqual({
      owner_id: 'carol',
      visibility: 'private',
    });
    expect(visibleTo('carol')).toContain('carol-fx');
    expect(visibleTo('alice')).not.toContain('carol-fx');
    // The statement's own grace ends with it: alice, in the same session next, still cannot read it.
    expect(actingAs(app, 'alice', () => app.one("SELECT current_setting('forge.inserting_rid', true) AS v"))).toEqual({ v: '' });
    // Nobody bound: the write is refused, not stored ownerless.
    expect(() =>
      app.run(
        "INSERT INTO memory_records (category, id, meta, created_at, updated_at, header, content_hash) VALUES ('research', 'anon', '', 'x', 'x', '{}', 'x')",
      ),
    ).toThrow(/row-level security/);
  });

  it("the server's own work reads every note and its notes belong to the desk, desk-wide; a person bound beside it gets nothing more", () => {
    // If this failed, the search index or the tracker would miss private notes (server work), or a
    // PM's call would inherit the server's reach.
    const serverWork = <T>(fn: () => T) =>
      app.transaction(() => {
        app.query("SELECT set_config('forge.server_work', 'on', true)");
        return fn();
      });
    const ids = () => app.query<{ id: string }>("SELECT id FROM memory_records WHERE category = 'research' ORDER BY id").map((r) => r.id);
    expect(serverWork(ids)).toEqual(expect.arrayContaining(['alice-fed', 'bob-oil', 'orphan']));
    const rid = serverWork(
      () =>
        app.one<{ rid: string }>(
          `INSERT INTO memory_records (category, id, title, meta, created_at, updated_at, header, body, content_hash)
           VALUES ('research', 'desk-calendar', 'Calendar', '', $1, $1, '{}', 'CPI on Tuesday.', 'y') RETURNING rid`,
          [AT],
        )?.rid,
    );
    expect(desk.connection.one('SELECT owner_id, visibility FROM desk_record_access WHERE rid = $1', [rid])).toEqual({ owner_id: null, visibility: 'desk' });
    expect(visibleTo('carol')).toContain('desk-calendar');
    expect(() => asAlice(() => sharing.makePrivate('alice', { category: 'research', id: 'desk-calendar' }))).toThrow(ForbiddenError);
    // forge.server_work set, but bob bound: bob's reach, not the server's.
    expect(serverWork(() => actingAs(app, 'bob', ids))).not.toContain('alice-fed');
  });

  it('refuses bad input with typed errors and changes nothing', () => {
    const ref = { category: 'research', id: 'alice-fed' };
    expect(() => asAlice(() => sharing.shareWith('alice', ref, ['nobody-here']))).toThrow(NotFoundError);
    expect(() => asAlice(() => sharing.shareWith('alice', ref, []))).toThrow(InvalidInputError);
    expect(() => asAlice(() => sharing.shareWith('alice', ref, ['Bob Smith']))).toThrow(InvalidInputError);
    expect(() => asAlice(() => sharing.makeDeskWide('alice', { category: 'expressions', id: 'E-1' }))).toThrow(InvalidInputError);
    expect(asAlice(() => sharing.accessOf(ref))).toMatchObject({ visibility: 'private', sharedWith: [] });
    // Bound to nobody, even the record's existence is hidden.
    expect(() => sharing.accessOf(ref)).toThrow(NotFoundError);
  });
});
