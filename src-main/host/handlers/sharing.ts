import { InvalidInputError, NotFoundError } from '../../common/errors';
import type { RecordAccessView } from '../../api/sharing';
import { actingPerson } from '../../desk/people';
import { type RecordAccess, type RecordRef, SHAREABLE_CATEGORIES } from '../../desk/sharing';
import { connectionOf } from '../../store/postgres/postgres-db';
import type { PostgresConnection } from '../../store/postgres/connection';
import type { CoreContext } from '../context';
import type { DeskServices } from '../desk';
import type { PartialHandlerMap } from './types';

const NOT_A_DESK =
  'Sharing is for desks: this Forge is one PM’s own workspace, where every note is yours alone. Serve a desk (forge serve --db postgres://… on a database made a desk) to share notes and Views with colleagues.';

/** /memory/views/V-001.md → views, V-001 (the API's pattern has already checked the shape). */
function refOf(path: string): RecordRef {
  const m = /^\/memory\/([a-z_]+)\/(.+)\.md$/.exec(path);
  if (!m) throw new InvalidInputError(`${path} is not a record path such as /memory/views/V-001.md.`);
  return { category: m[1], id: m[2] };
}

/** Display names of the desk's people (disabled ones too: a note stays shared with whom it was). */
function namesOf(connection: PostgresConnection, ids: (string | null)[]): Map<string, string> {
  const wanted = [...new Set(ids.filter((u): u is string => !!u))];
  if (wanted.length === 0) return new Map();
  const rows = connection.query<{ user_id: string; display_name: string }>('SELECT user_id, display_name FROM desk_users WHERE user_id = ANY($1::text[])', [
    wanted,
  ]);
  return new Map(rows.map((r) => [r.user_id, r.display_name]));
}

/**
 * memory/access, memory/share and desk/people: a desk's sharing of research notes and Views
 * (DeskSharing) made reachable from the app. Each runs as the person of the call, so a record
 * they may not read is not_found (row-level security), and only its owner may change it.
 */
export function sharingHandlers(desk: () => DeskServices | undefined): PartialHandlerMap {
  /** The desk, its connection (the store's: every statement is bound to the person) and who is asking. */
  const need = (ctx: CoreContext): { d: DeskServices; c: PostgresConnection; me: string } => {
    const d = desk();
    const me = actingPerson();
    const c = connectionOf(ctx.memory.store.db);
    if (!d || !me || !c) throw new NotFoundError(NOT_A_DESK);
    return { d, c, me: me.userId };
  };
  const view = (c: PostgresConnection, me: string, path: string, category: string, a: RecordAccess): RecordAccessView => {
    const names = namesOf(c, [a.ownerId, ...a.sharedWith]);
    const who = (u: string) => ({ userId: u, displayName: names.get(u) ?? u });
    return {
      path,
      owner: a.ownerId ? who(a.ownerId) : null,
      visibility: a.visibility,
      sharedWith: a.sharedWith.map(who),
      mayChange: a.ownerId === me && SHAREABLE_CATEGORIES.includes(category),
    };
  };
  return {
    'memory/access': async (input, ctx) => {
      await ctx.memory.ready;
      const { d, c, me } = need(ctx);
      const ref = refOf(input.path);
      return view(c, me, input.path, ref.category, d.sharing.accessOf(ref));
    },
    'memory/share': async (input, ctx) => {
      await ctx.memory.ready;
      const { d, c, me } = need(ctx);
      const ref = refOf(input.path);
      // The owner always reads their own record: naming themselves shares with nobody.
      const people = [...new Set(input.people ?? [])].filter((u) => u !== me);
      if (input.visibility !== 'shared' && people.length > 0) {
        throw new InvalidInputError(`people names whom a shared record is shared with; a ${input.visibility} record takes none. Nothing was changed.`);
      }
      if (input.visibility === 'shared' && people.length === 0) {
        throw new InvalidInputError('Name at least one person to share with, or make it private. Nothing was changed.');
      }
      // One transaction: the record is never left half-way (desk-wide while its list is being set).
      const after = c.transaction(() => {
        if (input.visibility === 'private') return d.sharing.makePrivate(me, ref);
        if (input.visibility === 'desk') return d.sharing.makeDeskWide(me, ref);
        // Shared with exactly these people: a desk-wide record narrows to them; anyone not named loses access.
        const before = d.sharing.accessOf(ref);
        if (before.visibility === 'desk') d.sharing.makePrivate(me, ref);
        let access = d.sharing.shareWith(me, ref, people);
        for (const u of before.sharedWith) if (!people.includes(u)) access = d.sharing.unshare(me, ref, u);
        return access;
      });
      return view(c, me, input.path, ref.category, after);
    },
    'desk/people': async (_input, ctx) => {
      await ctx.memory.ready;
      const { c } = need(ctx);
      const rows = c.query<{ user_id: string; display_name: string; role: 'pm' | 'risk' | 'analyst' | 'viewer' }>(
        'SELECT user_id, display_name, role FROM desk_users WHERE disabled_at IS NULL ORDER BY display_name, user_id',
      );
      return { people: rows.map((r) => ({ userId: r.user_id, displayName: r.display_name, role: r.role })) };
    },
  };
}
