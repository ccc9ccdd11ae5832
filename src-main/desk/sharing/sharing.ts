import { ForbiddenError, InvalidInputError, NotFoundError } from '../../common/errors';
import type { PostgresConnection } from '../../store/postgres/connection';
import { publish } from '../events/publish';

export type Visibility = 'private' | 'shared' | 'desk';

/** A research note or View, as its owner names it. */
export interface RecordRef {
  category: string;
  id: string;
}

export interface RecordAccess {
  rid: string;
  /** null: the desk's own record (the server wrote it on its own), desk-wide, shared by nobody. */
  ownerId: string | null;
  visibility: Visibility;
  /** The named people it is shared with (empty unless `shared`), sorted. */
  sharedWith: string[];
}

/** What can be shared: research notes and Views (an Expression's visibility follows its book). */
export const SHAREABLE_CATEGORIES: readonly string[] = ['research', 'views', 'thematic', 'macro_regime', 'observations'];
const USER_ID = /^[a-z][a-z0-9._-]{1,39}$/;
const RECORD_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * Sharing a record on the desk: with named people, desk-wide, or back to private. Only the owner
 * decides (not risk, who sees everything anyway). Each change commits with a `record.visibility`
 * desk event, so open screens on every server re-read what they show.
 *
 * Row-level security (schema.ts) is what makes the choice hold for every query; these functions
 * only change the rows it reads.
 */
export class DeskSharing {
  constructor(private readonly connection: PostgresConnection) {}

  /** Shares with the named people (the record becomes `shared` unless it is already desk-wide). */
  shareWith(actor: string, ref: RecordRef, userIds: readonly string[]): RecordAccess {
    if (userIds.length === 0 || userIds.length > 100) throw new InvalidInputError('Share with 1 to 100 people, each named by their user id.');
    for (const u of userIds) if (typeof u !== 'string' || !USER_ID.test(u)) throw new InvalidInputError(`Not a user id: ${JSON.stringify(u)}.`);
    return this.change(actor, ref, (access) => {
      const people = [...new Set(userIds)].filter((u) => u !== access.ownerId);
      const known = new Set(
        this.connection
          .query<{ user_id: string }>('SELECT user_id FROM desk_users WHERE user_id = ANY($1::text[]) AND disabled_at IS NULL', [people])
          .map((r) => r.user_id),
      );
      const unknown = people.filter((u) => !known.has(u));
      if (unknown.length > 0) throw new NotFoundError(`No active person on the desk is called ${unknown.join(', ')}; nothing was shared.`);
      for (const u of people) {
        this.connection.run('INSERT INTO desk_record_shares (rid, user_id, shared_by) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [access.rid, u, actor]);
      }
      if (access.visibility === 'private') this.setVisibility(access.rid, 'shared');
    });
  }

  /** Stops sharing with one person; a `shared` record left with nobody becomes private again. */
  unshare(actor: string, ref: RecordRef, userId: string): RecordAccess {
    return this.change(actor, ref, (access) => {
      this.connection.run('DELETE FROM desk_record_shares WHERE rid = $1 AND user_id = $2', [access.rid, userId]);
      const left = this.connection.one('SELECT 1 FROM desk_record_shares WHERE rid = $1 LIMIT 1', [access.rid]);
      if (!left && access.visibility === 'shared') this.setVisibility(access.rid, 'private');
    });
  }

  /** Everyone on the desk may read it. */
  makeDeskWide(actor: string, ref: RecordRef): RecordAccess {
    return this.change(actor, ref, (access) => this.setVisibility(access.rid, 'desk'));
  }

  /** Back to the owner alone: desk-wide reading ends and every named share is removed. */
  makePrivate(actor: string, ref: RecordRef): RecordAccess {
    return this.change(actor, ref, (access) => {
      this.connection.run('DELETE FROM desk_record_shares WHERE rid = $1', [access.rid]);
      this.setVisibility(access.rid, 'private');
    });
  }

  /** Who owns the record and who may read it. */
  accessOf(ref: RecordRef): RecordAccess {
    return this.read(ref, false);
  }

  private change(actor: string, ref: RecordRef, fn: (access: RecordAccess) => void): RecordAccess {
    if (typeof actor !== 'string' || !USER_ID.test(actor)) throw new InvalidInputError(`Not a user id: ${JSON.stringify(actor)}.`);
    if (!SHAREABLE_CATEGORIES.includes(ref.category)) {
      throw new InvalidInputError(`Only research notes and Views are shared (${SHAREABLE_CATEGORIES.join(', ')}); not ${JSON.stringify(ref.category)}.`);
    }
    return this.connection.transaction(() => {
      // Locked, so two changes to one record's sharing apply one after the other.
      const access = this.read(ref, true);
      if (access.ownerId !== actor) {
        const owner = access.ownerId ?? 'the desk (Forge wrote it)';
        throw new ForbiddenError(`${ref.category}/${ref.id} belongs to ${owner}; only its owner changes who may read it.`);
      }
      fn(access);
      const after = this.read(ref, false);
      publish(this.connection, { kind: 'record.visibility', category: ref.category, id: ref.id, visibility: after.visibility });
      return after;
    });
  }

  private read(ref: RecordRef, lock: boolean): RecordAccess {
    if (typeof ref?.id !== 'string' || !RECORD_ID.test(ref.id)) throw new InvalidInputError(`Not a record id: ${JSON.stringify(ref?.id)}.`);
    const row = this.connection.one<{ rid: string; owner_id: string | null; visibility: Visibility }>(
      `SELECT a.rid, a.owner_id, a.visibility FROM desk_record_access a JOIN memory_records m ON m.rid = a.rid
       WHERE m.category = $1 AND m.id = $2${lock ? ' FOR UPDATE OF a' : ''}`,
      [ref.category, ref.id],
    );
    if (!row) throw new NotFoundError(`${ref.category}/${ref.id} is not a record on this desk (or not one you may read).`);
    const sharedWith =
      row.visibility === 'shared'
        ? this.connection.query<{ user_id: string }>('SELECT user_id FROM desk_record_shares WHERE rid = $1 ORDER BY user_id', [row.rid]).map((r) => r.user_id)
        : [];
    return { rid: String(row.rid), ownerId: row.owner_id, visibility: row.visibility, sharedWith };
  }

  private setVisibility(rid: string, visibility: Visibility): void {
    this.connection.run('UPDATE desk_record_access SET visibility = $2 WHERE rid = $1', [rid, visibility]);
  }
}
