import { createRequire } from 'node:module';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { AppError } from '../../common/errors';
import { CONNECTION_WORKER_SOURCE } from './connection-worker-source';
import { PostgresAuthError, PostgresUnreachableError } from './errors';
import { type PostgresTarget, parseTarget, scrub } from './target';

/**
 * One synchronous connection to a desk's PostgreSQL database.
 *
 * Why synchronous: Forge's store is synchronous end to end (better-sqlite3), and a transaction that
 * never yields to the event loop can never interleave with another request's statements in the
 * same server — the property every read-modify-write in the store relies on. `pg` is asynchronous,
 * so the client lives in a worker thread and each call blocks in Atomics.wait until the worker
 * answers (a local round trip costs well under a millisecond). Several servers on one database are
 * kept apart by PostgreSQL itself: transactions, row locks and advisory locks.
 *
 * Failure model, which is what a PM sees:
 * - A statement the database refuses throws PostgresQueryError (its SQLSTATE in `sqlState`);
 *   inside `transaction()` the whole transaction is rolled back.
 * - A database that restarts or drops the connection throws PostgresReconnectingError; nothing of
 *   the unfinished transaction was committed, and the next call connects again.
 * - A database that stops answering is cut off after `answerTimeoutMs`: the worker (and with it
 *   the socket) is terminated — never a ROLLBACK or end() that could hang in turn — and the server
 *   discards the half-done transaction when it sees the socket close.
 */
export class PostgresConnection {
  private worker: Worker | undefined;
  private port: MessagePort | undefined;
  private flag = new Int32Array(new SharedArrayBuffer(4));
  private depth = 0;
  private closed = false;
  private sessionSettings: (() => SessionSettings) | undefined;
  /** Inside underCurrentSettings: statements outside a transaction take the session as it is. */
  private keepSettings = false;
  /** The settings the open transaction began under (they cannot change until it ends). */
  private transactionSettings: string | undefined;
  private readonly options: Required<ConnectionOptions>;
  private readonly target: PostgresTarget;

  private constructor(url: string, options: ConnectionOptions) {
    this.target = parseTarget(url);
    this.options = {
      applicationName: options.applicationName ?? 'forge',
      statementTimeoutMs: options.statementTimeoutMs ?? 30_000,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      answerTimeoutMs: options.answerTimeoutMs ?? (options.statementTimeoutMs ?? 30_000) + 15_000,
      testLateWakeMs: options.testLateWakeMs ?? 0,
    };
  }

  /** Opens (and checks) a connection: a refused URL fails here, not at the first write. */
  static open(url: string, options: ConnectionOptions = {}): PostgresConnection {
    const connection = new PostgresConnection(url, options);
    try {
      connection.query('SELECT 1');
    } catch (e) {
      connection.close();
      throw connection.openingError(e);
    }
    return connection;
  }

  /** What stopped the first connection, said for someone setting up a desk (never "reconnecting"). */
  private openingError(e: unknown): Error {
    const where = this.target.masked;
    if (e instanceof PostgresReconnectingError) {
      const reason = /\(([^)]*)\); reconnecting/.exec(e.message)?.[1] ?? 'no answer';
      return new PostgresUnreachableError(
        `Could not reach the desk's database ${where} (${reason}): check the address and that PostgreSQL is running. Nothing was read or written.`,
        e,
      );
    }
    if (e instanceof PostgresQueryError && ['28P01', '28000', '3D000'].includes(e.sqlState ?? '')) {
      return new PostgresAuthError(
        e.sqlState === '3D000'
          ? `The desk's database ${where} does not exist on that server: create it (createdb) or correct the URL. Nothing was read or written.`
          : `The desk's database ${where} refused the user or password (${e.message}). Nothing was read or written.`,
        e,
      );
    }
    return e as Error;
  }

  /** The rows a statement returns (`$1`, `$2`… placeholders). */
  query<T = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): T[] {
    return this.send(sql, params).rows as T[];
  }

  /** The first row, or undefined. */
  one<T = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): T | undefined {
    return this.query<T>(sql, params)[0];
  }

  /** The rows a statement returns and how many rows it returned or changed. */
  execute<T = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): { rows: T[]; rowCount: number } {
    return this.send(sql, params) as { rows: T[]; rowCount: number };
  }

  /** Runs a statement for its effect: how many rows it changed. */
  run(sql: string, params: readonly unknown[] = []): { rowCount: number } {
    return { rowCount: this.send(sql, params).rowCount };
  }

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  /**
   * Every statement from now on runs under the session settings `settings()` returns at that
   * moment (PostgresDb binds the acting person this way, for row-level security). The worker sets
   * them only when its session does not hold them yet — no extra round trip while they stay the
   * same, and again on a session opened after a lost connection. A transaction begins under one
   * set of settings and keeps it: a change inside one throws (and the transaction rolls back).
   */
  bindSession(settings: (() => SessionSettings) | undefined): void {
    this.sessionSettings = settings;
  }

  /**
   * Runs `fn`'s statements under the settings the session holds now, whichever they are: for a
   * statement whose answer no binding changes (signing a call in by its session's hash reads the
   * same row as any person), so it does not switch the session to the server's work and back —
   * a round trip each way, on every call of a desk. Inside a transaction, the transaction's own.
   */
  underCurrentSettings<T>(fn: () => T): T {
    const before = this.keepSettings;
    this.keepSettings = true;
    try {
      return fn();
    } finally {
      this.keepSettings = before;
    }
  }

  /**
   * Runs `fn` in one transaction: committed when it returns, rolled back when it throws. Nested
   * calls are savepoints. `serializable` transactions are retried (whole, `fn` again) when the
   * database reports a serialization failure or a deadlock, up to `retries` times — so `fn` must
   * only touch the database, whose effects the rollback undoes.
   */
  transaction<T>(fn: () => T, options: TransactionOptions = {}): T {
    if (this.depth > 0) return this.savepoint(fn);
    const attempts = 1 + (options.isolation === 'serializable' ? (options.retries ?? 5) : 0);
    for (let attempt = 1; ; attempt++) {
      try {
        return this.once(fn, options);
      } catch (e) {
        if (attempt < attempts && e instanceof PostgresQueryError && RETRYABLE.has(e.sqlState ?? '')) continue;
        throw e;
      }
    }
  }

  /** Ends the connection (the worker and its socket). Idempotent. */
  close(): void {
    this.closed = true;
    this.stopWorker();
  }

  private once<T>(fn: () => T, options: TransactionOptions): T {
    const begin =
      options.isolation === 'serializable'
        ? 'BEGIN ISOLATION LEVEL SERIALIZABLE'
        : options.isolation === 'repeatable read'
          ? 'BEGIN ISOLATION LEVEL REPEATABLE READ'
          : 'BEGIN';
    // The lock travels with the BEGIN: one round trip where a write used to spend two (or three, with the person's settings).
    this.send(options.lock === undefined ? begin : `${begin}; SELECT pg_advisory_xact_lock(${lockKey(options.lock)})`, []);
    this.depth = 1;
    try {
      const result = fn();
      this.send('COMMIT', []);
      return result;
    } catch (e) {
      this.rollbackQuietly();
      throw e;
    } finally {
      this.depth = 0;
    }
  }

  private savepoint<T>(fn: () => T): T {
    const name = `forge_sp_${this.depth}`;
    this.send(`SAVEPOINT ${name}`, []);
    this.depth++;
    try {
      const result = fn();
      this.send(`RELEASE SAVEPOINT ${name}`, []);
      return result;
    } catch (e) {
      if (this.worker) {
        try {
          this.send(`ROLLBACK TO SAVEPOINT ${name}`, []);
        } catch {
          /* the outer transaction fails in turn */
        }
      }
      throw e;
    } finally {
      this.depth--;
    }
  }

  private rollbackQuietly(): void {
    if (!this.worker) return; // the connection is gone: the server has discarded the transaction
    try {
      this.send('ROLLBACK', []);
    } catch {
      /* a lost connection rolls back by itself */
    }
  }

  private send(sql: string, params: readonly unknown[]): { rows: unknown[]; rowCount: number } {
    if (this.closed) throw new AppError('unavailable', "The desk's database connection is closed.");
    const settings = this.settingsFor(sql);
    const { port } = this.ensureWorker();
    Atomics.store(this.flag, 0, 0);
    port.postMessage({ sql, params: params.map(toWire), inTransaction: this.depth > 0, settings });
    const reply = this.awaitReply(port);
    if (!reply) {
      this.stopWorker();
      throw new PostgresReconnectingError(
        `The desk's database (${this.target.masked}) did not answer within ${Math.round(this.options.answerTimeoutMs / 1000)} s; the connection was cut and will be opened again. Nothing from the unfinished change was saved.`,
      );
    }
    if (reply.error) {
      if (reply.error.connectionLost) {
        throw new PostgresReconnectingError(
          `The connection to the desk's database (${this.target.masked}) was lost (${scrub(this.target, reply.error.message)}); reconnecting. Nothing from the unfinished change was saved.`,
        );
      }
      throw new PostgresQueryError(scrub(this.target, reply.error.message), reply.error);
    }
    return { rows: reply.rows.map(fromWire), rowCount: reply.rowCount };
  }

  /**
   * Blocks until the worker's reply to the message just posted is there, or the answer timeout.
   * A wake is not a reply: when the worker stored its flag for the previous call and this thread
   * read that reply without waiting (the flag was already set), the worker's notify can land a
   * moment later — inside this call's wait, before this call's reply exists. Taken as "no answer",
   * that cut the connection mid-transaction (about one call in a thousand under load), so a wake
   * with no reply waits again for the rest of the time.
   */
  private awaitReply(port: MessagePort): WorkerReply | undefined {
    const deadline = Date.now() + this.options.answerTimeoutMs;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) return receiveMessageOnPort(port)?.message as WorkerReply | undefined;
      Atomics.wait(this.flag, 0, 0, left);
      const reply = receiveMessageOnPort(port)?.message as WorkerReply | undefined;
      if (reply) return reply;
    }
  }

  /** The session settings a statement runs under; inside a transaction, the ones it began with. */
  private settingsFor(sql: string): SessionSettings | undefined {
    if (!this.sessionSettings || (this.keepSettings && this.depth === 0 && !sql.startsWith('BEGIN'))) return undefined;
    // A ROLLBACK always goes through: a refusal here must never leave a transaction open.
    if (this.depth > 0 && sql.startsWith('ROLLBACK')) return undefined;
    const settings = this.sessionSettings();
    const key = JSON.stringify(settings);
    if (this.depth === 0) {
      this.transactionSettings = sql.startsWith('BEGIN') ? key : undefined;
    } else if (this.transactionSettings !== undefined && key !== this.transactionSettings) {
      throw new AppError(
        'internal',
        `A transaction began under ${this.transactionSettings} and a statement inside it asked for ${key}: the person acting cannot change inside a transaction.`,
      );
    }
    return settings;
  }

  private ensureWorker(): { worker: Worker; port: MessagePort } {
    if (this.worker && this.port) return { worker: this.worker, port: this.port };
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(CONNECTION_WORKER_SOURCE, {
      eval: true,
      workerData: {
        pgPath: requireHere.resolve('pg'),
        url: this.target.url,
        flag: this.flag.buffer,
        port: port2,
        applicationName: this.options.applicationName,
        statementTimeoutMs: this.options.statementTimeoutMs,
        connectTimeoutMs: this.options.connectTimeoutMs,
        lateWakeMs: this.options.testLateWakeMs,
      },
      transferList: [port2],
    });
    // The process must be able to exit with a connection open (a CLI that forgot close()).
    worker.unref();
    port1.unref();
    worker.on('error', () => this.stopWorker());
    this.worker = worker;
    this.port = port1;
    return { worker, port: port1 };
  }

  private stopWorker(): void {
    const worker = this.worker;
    this.port?.close();
    this.worker = undefined;
    this.port = undefined;
    this.flag = new Int32Array(new SharedArrayBuffer(4));
    if (worker) void worker.terminate();
  }
}

/** Session settings by name (`forge.user_id`…), as set_config sets them. */
export type SessionSettings = Readonly<Record<string, string>>;

export interface ConnectionOptions {
  /** Shown in pg_stat_activity, so a DBA can tell Forge's sessions apart (e.g. "forge serve @host"). */
  applicationName?: string;
  /** The server cancels a statement running longer than this (default 30 s). */
  statementTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** How long a call waits for any answer before the connection is cut (default: statement timeout + 15 s). */
  answerTimeoutMs?: number;
  /**
   * Tests only: the worker wakes the caller a second time this long after each answer, as a
   * notify delayed by the scheduler would (connection.test.ts: a late wake is not an answer).
   */
  testLateWakeMs?: number;
}

export interface TransactionOptions {
  /** An advisory lock (a whole number key) the transaction takes as it begins and holds until it ends. */
  lock?: number;
  /** 'repeatable read': every statement sees the snapshot the first one took (a consistent read of several tables). */
  isolation?: 'read committed' | 'repeatable read' | 'serializable';
  /** Serializable only: how many times the whole transaction is retried after a serialization failure (default 5). */
  retries?: number;
}

/** A statement the database refused; `sqlState` is PostgreSQL's code (23505 unique violation, 40001 serialization failure…). */
export class PostgresQueryError extends AppError {
  readonly sqlState?: string;
  readonly constraint?: string;
  readonly detail?: string;
  constructor(message: string, info: { sqlState?: string; constraint?: string; detail?: string }) {
    super(codeFor(info.sqlState), message);
    this.name = 'PostgresQueryError';
    this.sqlState = info.sqlState;
    this.constraint = info.constraint;
    this.detail = info.detail;
  }
}

/** The database went away mid-call; the next call reconnects. Nothing uncommitted survived. */
export class PostgresReconnectingError extends AppError {
  constructor(message: string) {
    super('unavailable', message);
    this.name = 'PostgresReconnectingError';
  }
}

/** An advisory lock key as SQL text: only a whole number in PostgreSQL's bigint range is ever written into a statement. */
function lockKey(key: number): string {
  if (!Number.isSafeInteger(key)) throw new AppError('internal', `An advisory lock key must be a whole number; got ${String(key)}.`);
  return String(key);
}

/** Serialization failure and deadlock: the database asks for the whole transaction again. */
const RETRYABLE = new Set(['40001', '40P01']);

interface WorkerReply {
  rows: unknown[];
  rowCount: number;
  error?: { message: string; sqlState?: string; detail?: string; constraint?: string; connectionLost: boolean };
}

// Not named `require`: the built app's bundler declares its own `require` shim in this chunk (a redeclaration is a SyntaxError that stops `forge serve`).
const requireHere = createRequire(import.meta.url);

function codeFor(sqlState: string | undefined): ConstructorParameters<typeof AppError>[0] {
  if (!sqlState) return 'internal';
  if (sqlState.startsWith('23') || RETRYABLE.has(sqlState) || sqlState === '55P03') return 'conflict';
  if (sqlState === '42501') return 'forbidden';
  if (sqlState.startsWith('22') || sqlState === 'P0001') return 'invalid_input';
  return 'internal';
}

/** Buffers cross as Uint8Array; BigInt crosses as itself; everything else pg already understands. */
function toWire(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (value === undefined) return null;
  if (typeof value === 'bigint') return value.toString();
  return value;
}

function fromWire(row: unknown): unknown {
  if (!row || typeof row !== 'object') return row;
  const out = row as Record<string, unknown>;
  for (const key of Object.keys(out)) {
    const v = out[key];
    if (v instanceof Uint8Array && !Buffer.isBuffer(v)) out[key] = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  }
  return out;
}
