import { ConflictError } from '../common/errors';
import { DESK_SCHEMA_VERSION } from '../desk/setup';
import type { Timers } from '../scheduler';
import type { Store } from '../store';
import { PostgresDb } from '../store/postgres/postgres-db';
import { parseTarget } from '../store/postgres/target';
import { DeskBooks } from '../desk/books';
import { DeskEvents } from '../desk/events';
import { actingPerson, DeskPeople, outsideAnyCall } from '../desk/people';
import { DeskSharing } from '../desk/sharing';
import type { EventBus } from './events';

/**
 * A desk's people, books and live events, for a server whose workspace is a desk's PostgreSQL
 * database made a desk (`createDesk`). They share the store's one synchronous connection: a call
 * runs whole before the next begins, so a desk change and a store write never interleave within a
 * server, and across servers PostgreSQL's locks order them.
 */
export interface DeskServices {
  /** The database, its password masked. */
  database: string;
  people: DeskPeople;
  /** Each method runs as the server's own work: a book sums every PM's Expressions (see openDeskServices). */
  books: DeskBooks;
  /** Who may read a research note or View: its owner shares it, with named people or desk-wide. */
  sharing: DeskSharing;
  /** The desk's PMs who can trade (not disabled), by id: whose books risk reads. */
  pms(): string[];
  /** Expressions waiting for a decision, with their owner: one PM's, or everyone's (ownerId undefined). */
  proposals(ownerId?: string): { id: string; title: string; status: string; ownerId: string; notional: number | null; updatedAt: string }[];
  /** Runs a desk change inside the workspace's write lock, as every store write (approve.ts takes the desk lock inside it). */
  write<T>(fn: () => T): T;
  close(): Promise<void>;
}

/** The desk services, or undefined when the workspace is not on a desk's database (or the database is not a desk yet). */
export function openDeskServices(store: Store, url: string | undefined, bus: EventBus): DeskServices | undefined {
  const handle: unknown = store.db;
  if (!url || !(handle instanceof PostgresDb)) return undefined;
  const connection = handle.connection;
  const isDesk = connection.one("SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'desk_users'");
  if (!isDesk) return undefined;
  refuseOlderDeskUnderRls(connection);
  // Row-level security: from here on every statement on the store's connection is bound to the
  // person of the call it serves (asPerson in the dispatch), or to the server's own work when
  // there is none. The desk's books and limits run as the server's work, inside a person's call
  // too: a desk-wide limit sums every PM's Expressions, which no PM may read one by one. They
  // check the person's permissions in code and hand back only totals and the person's own rows.
  const asServer = <T>(fn: () => T): T => handle.asServerWork(fn);
  handle.bindActingPerson(() => actingPerson()?.userId);
  const books = new DeskBooks(connection);
  const booksAsServer = new Proxy(books, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (...args: unknown[]) => asServer(() => value.apply(target, args)) : value;
    },
  });
  // Every server's commits reach this one's pages: a risk manager sees a PM's approval on another server.
  const events = new DeskEvents(url, { applicationName: 'forge desk events' });
  const off = events.subscribe((e) => {
    const { kind, ...rest } = e as { kind: string } & Record<string, unknown>;
    bus.emit('desk/changed', { kind, ...idsOnly(rest) });
    if (kind === 'expression.approved' || kind === 'book.limits_changed') bus.emit('portfolio/changed', {});
  });
  const started = events.start().catch(() => {
    // Not listening: pages still work and refetch on their own; the reconnect loop is not running.
  });
  return {
    database: parseTarget(url).masked,
    people: new DeskPeople(connection),
    books: booksAsServer,
    sharing: new DeskSharing(connection),
    pms: () =>
      connection.query<{ user_id: string }>("SELECT user_id FROM desk_users WHERE role = 'pm' AND disabled_at IS NULL ORDER BY user_id").map((r) => r.user_id),
    proposals: (ownerId) =>
      asServer(() =>
        connection
          .query<{ id: string; title: string; status: string; owner_id: string | null; notional: string | null; updated_at: string }>(
            `SELECT r.id, r.title, r.status, a.owner_id, json_extract(r.header, '$.notional') AS notional, r.updated_at
           FROM memory_records r JOIN desk_record_access a ON a.rid = r.rid
           WHERE r.category = 'expressions' AND r.status IN ('proposed', 'review_required') AND ($1::text IS NULL OR a.owner_id = $1::text)
           ORDER BY r.updated_at DESC, r.id LIMIT 200`,
            [ownerId ?? null],
          )
          .map((r) => ({
            id: r.id,
            title: r.title,
            status: r.status,
            // No owner: the server's own work proposed it (a scheduled run); it is the desk's, as its book is.
            ownerId: r.owner_id ?? 'desk',
            notional: r.notional === null || Number.isNaN(Number(r.notional)) ? null : Number(r.notional),
            updatedAt: r.updated_at,
          })),
      ),
    write: (fn) => asServer(() => store.writeTransaction(fn)),
    close: async () => {
      off();
      await started;
      await events.stop();
    },
  };
}

/**
 * A desk made by an older Forge lacks what the app role needs (desk schema 2: the server's own
 * work, owners by trigger): served by a role that row-level security binds, its scheduled jobs and
 * search would see nothing and every new note would be refused. Said at start, not as odd failures.
 * A superuser or BYPASSRLS connection is not bound, and keeps working as before.
 */
function refuseOlderDeskUnderRls(connection: PostgresDb['connection']): void {
  const version = Number(connection.one<{ value: string }>("SELECT value FROM workspace_meta WHERE key = 'desk_schema_version'")?.value ?? 0);
  if (version >= DESK_SCHEMA_VERSION) return;
  const bypass = connection.one<{ bypass: boolean }>('SELECT rolsuper OR rolbypassrls AS bypass FROM pg_roles WHERE rolname = current_user')?.bypass;
  if (bypass) return;
  throw new ConflictError(
    `This desk was made by an older Forge (desk schema ${version}; this Forge needs ${DESK_SCHEMA_VERSION}) and cannot be served under row-level security: create a new desk (forge desk create) and move the workspaces there (forge migrate --to). Nothing was changed.`,
  );
}

/**
 * Timers whose callbacks run as the server's own work, whichever call armed them: a scheduled job
 * re-armed during an admin's call would otherwise run as that admin (their reach, their ownership).
 */
export function timersOutsideCalls(timers: Timers): Timers {
  return { set: (fn, ms) => timers.set(() => outsideAnyCall(fn), ms), clear: (handle) => timers.clear(handle) };
}

/**
 * The fields of a desk event every page may hear: ids, kinds, who, and why this server's listener
 * is reconnecting (short text). Anything else a
 * publisher adds — a title, a note's text — stops here, so a desk-wide event never carries a
 * private record's content, whatever is published later.
 */
const DESK_EVENT_FIELDS = ['id', 'by', 'owner', 'book', 'pm', 'category', 'visibility', 'reason'] as const;
export function idsOnly(fields: Record<string, unknown>): Partial<Record<(typeof DESK_EVENT_FIELDS)[number], string>> {
  const out: Partial<Record<(typeof DESK_EVENT_FIELDS)[number], string>> = {};
  for (const key of DESK_EVENT_FIELDS) {
    const v = fields[key];
    if (typeof v === 'string' && v.length <= 300) out[key] = v;
  }
  return out;
}
