import { AsyncLocalStorage } from 'node:async_hooks';
import { AppError } from '../../common/errors';
import type { Db } from '../open';
import type { PostgresConnection } from './connection';
import { postgresSchema } from './schema';
import { type TranslatedSql, translateSql } from './sqlite-dialect';

/**
 * The store's database handle on a desk: the part of better-sqlite3's API Forge's repositories use
 * (prepare → run/get/all/iterate/pluck, exec, transaction, inTransaction, pragma, close), answered
 * by PostgreSQL through one synchronous connection. This is the driver seam: MemoryRecords,
 * AuditLog, Sessions and the rest run unchanged on either engine, because their SQL is written in
 * the common ground of both and sqlite-dialect.ts translates the few spellings that differ.
 *
 * What a desk cannot do is refused by name, never emulated: user-defined SQL functions, SQLite
 * pragmas with an effect, and FTS5 (PostgreSQL's own full text replaces it; see schema.ts).
 */
export class PostgresDb {
  readonly engine = 'postgres' as const;
  readonly name: string;
  private readonly cache = new Map<string, TranslatedSql>();
  private open = true;
  /** Set inside asServerWork: the server's own work, whichever call started it. */
  private readonly serverWork = new AsyncLocalStorage<true>();

  constructor(
    readonly connection: PostgresConnection,
    name = 'postgres',
  ) {
    this.name = name;
  }

  get inTransaction(): boolean {
    return this.connection.inTransaction;
  }

  /**
   * Row-level security on a desk: every statement runs bound to `person()` — the person of the
   * call it serves (`forge.user_id`), or, when it names nobody, the server's own work
   * (`forge.server_work`, which the desk's policies honour only while no person is bound). The
   * store does not know who calls; the host injects the function (it reads the call's person).
   */
  bindActingPerson(person: () => string | undefined): void {
    this.connection.bindSession(() => {
      const who = this.serverWork.getStore() ? undefined : person();
      return who ? { 'forge.user_id': who, 'forge.server_work': '' } : SERVER_WORK;
    });
  }

  /**
   * Runs `fn` — and everything it awaits or schedules — as the server's own work, even inside a
   * person's call: an index or queue that serves every person must hold every record (what each
   * person sees is decided when results are read). Inside an open transaction the binding cannot
   * change, so `fn` runs as the transaction's person.
   */
  asServerWork<T>(fn: () => T): T {
    return this.connection.inTransaction ? fn() : this.serverWork.run(true, fn);
  }

  prepare(sql: string): PostgresStatement {
    return new PostgresStatement(this, sql);
  }

  /** Runs statements for their effect. Split on top-level semicolons only when given several. */
  exec(sql: string): this {
    this.connection.run(sql);
    return this;
  }

  /**
   * better-sqlite3's `db.transaction(fn)`: a function that runs fn in a transaction (a savepoint
   * when nested). SQLite lets one writer at a time into a workspace, and the store's
   * read-modify-writes (a version check, then the edit) rely on it; PostgreSQL would let two
   * servers interleave them. So every outermost transaction first takes the workspace's write lock
   * — a transaction-scoped advisory lock, released by the commit or rollback, also when a server
   * dies — and the store keeps SQLite's guarantee across every server on the desk.
   */
  transaction<A extends unknown[], R>(
    fn: (...args: A) => R,
  ): ((...args: A) => R) & Record<'immediate' | 'deferred' | 'exclusive' | 'default', (...args: A) => R> {
    const run = (...args: A) => {
      if (this.connection.inTransaction) return this.connection.transaction(() => fn(...args));
      return this.connection.transaction(() => fn(...args), { lock: WORKSPACE_WRITE_LOCK });
    };
    return Object.assign(run, { immediate: run, deferred: run, exclusive: run, default: run });
  }

  /** SQLite pragmas: the harmless ones answer as a desk would; the rest are refused by name. */
  pragma(source: string, options?: { simple?: boolean }): unknown {
    const name = source
      .trim()
      .split(/[\s=(]/)[0]
      .toLowerCase();
    if (name === 'optimize' || name === 'wal_checkpoint') return options?.simple ? undefined : [];
    if (name === 'foreign_keys') return options?.simple ? 1 : [{ foreign_keys: 1 }];
    if (name === 'data_version') {
      // Caches key on it to notice other connections' commits. Any commit on the desk moves the
      // write-ahead log, so its position is a version that can only move on (never a stale cache;
      // at worst a reload after an unrelated write). The insert position: the write position lags a
      // commit by up to wal_writer_delay under synchronous_commit = off, and a cache would miss it.
      const v = this.connection.one<{ v: number }>("SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint AS v")?.v ?? 0;
      return options?.simple ? v : [{ data_version: v }];
    }
    throw new AppError('internal', `PRAGMA ${name} is SQLite's; a desk's PostgreSQL database has no equivalent this code may rely on.`);
  }

  function(): never {
    throw new AppError('internal', "User-defined SQL functions are SQLite's; this part of Forge is not available on a desk's PostgreSQL database yet.");
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    this.connection.close();
  }

  /** @internal the translated form of a statement, cached by its text. */
  translated(sql: string): TranslatedSql {
    let t = this.cache.get(sql);
    if (!t) {
      t = translateSql(sql, IDENTITY_KEYS);
      if (this.cache.size > 2000) this.cache.clear();
      this.cache.set(sql, t);
    }
    return t;
  }

  /** This handle as the store's `Db` type: the repositories take it unchanged. */
  asDb(): Db {
    return this as unknown as Db;
  }
}

export class PostgresStatement {
  private plucked = false;

  constructor(
    private readonly db: PostgresDb,
    readonly source: string,
  ) {}

  pluck(on = true): this {
    this.plucked = on;
    return this;
  }

  run(...args: unknown[]): { changes: number; lastInsertRowid: number | bigint } {
    const { rows, rowCount, key } = this.execute(args);
    const last = key ? (rows[rows.length - 1] as Record<string, number | bigint> | undefined)?.[key] : undefined;
    return { changes: rowCount, lastInsertRowid: last ?? 0 };
  }

  get(...args: unknown[]): unknown {
    const row = this.execute(args).rows[0];
    return row === undefined ? undefined : this.shape(row);
  }

  all(...args: unknown[]): unknown[] {
    return this.execute(args).rows.map((r) => this.shape(r));
  }

  *iterate(...args: unknown[]): IterableIterator<unknown> {
    yield* this.all(...args);
  }

  private shape(row: unknown): unknown {
    if (!this.plucked) return row;
    const values = Object.values(row as Record<string, unknown>);
    return values[0];
  }

  private execute(args: unknown[]): { rows: unknown[]; rowCount: number; key?: string } {
    const t = this.db.translated(this.source);
    const { rows, rowCount } = this.db.connection.execute(t.text, bind(t, args));
    return { rows, rowCount, key: t.returnsKey };
  }
}

/** better-sqlite3's binding: positional arguments, or one object of named ones (or both). */
function bind(t: TranslatedSql, args: unknown[]): unknown[] {
  const last = args[args.length - 1];
  const named =
    last !== null && typeof last === 'object' && !Array.isArray(last) && !Buffer.isBuffer(last) && !(last instanceof Uint8Array)
      ? (last as Record<string, unknown>)
      : undefined;
  const positional = (named ? args.slice(0, -1) : args).flat();
  const argument = (p: number | string) => (typeof p === 'number' ? positional[p] : named?.[p]);
  return t.params.map((source) => {
    if (typeof source === 'object') return argument(source.isNull) == null;
    const p = source;
    const v = argument(p);
    if (v === undefined) {
      if (typeof p === 'string' && named && !(p in named)) throw new AppError('internal', `Missing named parameter "${p}"`);
      return null;
    }
    return typeof v === 'boolean' ? Number(v) : v;
  });
}

/** PostgresDb.asServerWork on a desk; on a SQLite workspace (one PM, no row-level security), just `fn()`. */
export function asServerWork<T>(db: Db, fn: () => T): T {
  const handle: unknown = db;
  return handle instanceof PostgresDb ? handle.asServerWork(fn) : fn();
}

/** The PostgreSQL connection behind a store handle, or undefined for a SQLite workspace. */
export function connectionOf(db: Db): PostgresConnection | undefined {
  const handle: unknown = db;
  return handle instanceof PostgresDb ? handle.connection : undefined;
}

/** The settings of the server's own work (a scheduled job, the search index catching up). */
const SERVER_WORK = { 'forge.user_id': '', 'forge.server_work': 'on' } as const;

/** The workspace's write lock (an advisory lock key; the desk's books use their own). */
export const WORKSPACE_WRITE_LOCK = 0x466f7267; // "Forg"

/** Each table's identity key (what an INSERT returns as lastInsertRowid), read from the DDL. */
const IDENTITY_KEYS: ReadonlyMap<string, string> = new Map(
  postgresSchema.flatMap((statement) => {
    const table = /^\s*CREATE TABLE\s+(\w+)/i.exec(statement)?.[1];
    const key = /(\w+)\s+bigint\s+GENERATED\s+BY\s+DEFAULT\s+AS\s+IDENTITY/i.exec(statement)?.[1];
    return table && key ? [[table.toLowerCase(), key] as [string, string]] : [];
  }),
);
