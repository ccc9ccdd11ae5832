import pg from 'pg';
import { DESK_CHANNEL, EVENT_KIND_PATTERN, type PublishedDeskEvent } from './publish';

/** What this server's listener says about its own link to the desk, so a UI can show "reconnecting". */
export type DeskConnectionEvent = { kind: 'desk.connected' } | { kind: 'desk.reconnecting'; reason: string };

export type DeskEvent = PublishedDeskEvent | DeskConnectionEvent;

export interface DeskEventsOptions {
  /** First wait before connecting again after a loss; doubled each failed attempt (default 100 ms). */
  initialBackoffMs?: number;
  /** The longest wait between attempts (default 5 s): a restarted database is noticed within it. */
  maxBackoffMs?: number;
  connectTimeoutMs?: number;
  applicationName?: string;
}

/**
 * The desk's live events, heard by this server: one long-lived `pg.Client` that LISTENs on
 * `forge_desk` (the synchronous PostgresConnection cannot: LISTEN needs a socket that waits).
 *
 * Decisions:
 * - A payload that is not a JSON object with a dotted `kind` is dropped and counted (`dropped`),
 *   never thrown: one bad publisher must not silence the desk for everyone.
 * - A subscriber that throws is isolated the same way: the others still hear the event.
 * - When the database goes away the client is discarded and a new one connects with backoff
 *   (doubling, capped), LISTENs again and says `desk.connected`. NOTIFY is not queued for absent
 *   listeners, so events published while away are lost: a subscriber re-reads what it shows on
 *   `desk.connected`.
 */
export class DeskEvents {
  private client: pg.Client | undefined;
  private readonly subscribers = new Set<(event: DeskEvent) => void>();
  private stopped = true;
  private lost = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private backoffMs: number;
  private droppedCount = 0;
  private readonly options: Required<DeskEventsOptions>;

  constructor(
    private readonly url: string,
    options: DeskEventsOptions = {},
  ) {
    this.options = {
      initialBackoffMs: options.initialBackoffMs ?? 100,
      maxBackoffMs: options.maxBackoffMs ?? 5_000,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      applicationName: options.applicationName ?? 'forge desk events',
    };
    this.backoffMs = this.options.initialBackoffMs;
  }

  /** How many payloads were dropped as unreadable since start. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Whether the listener holds a live LISTENing connection right now. */
  get connected(): boolean {
    return this.client !== undefined && !this.lost;
  }

  /** Calls `fn` with every event from now on; returns the unsubscribe. */
  subscribe(fn: (event: DeskEvent) => void): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  /**
   * Connects and LISTENs. Resolves once listening; rejects if the first connection fails (a wrong
   * URL should fail `forge serve` at start, not retry forever). Later losses are retried.
   */
  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    try {
      await this.connect();
    } catch (e) {
      this.stopped = true;
      throw e;
    }
  }

  /** Stops listening and ends the client; no reconnect follows. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const client = this.client;
    this.client = undefined;
    if (client) await client.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: this.options.connectTimeoutMs,
      application_name: this.options.applicationName,
      keepAlive: true,
    });
    // Registered before connect: an error with no listener would crash the process.
    client.on('error', (e) => this.onLost(client, e.message));
    client.on('end', () => this.onLost(client, 'the connection ended'));
    client.on('notification', (message) => {
      if (message.channel === DESK_CHANNEL) this.onPayload(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${DESK_CHANNEL}`);
    } catch (e) {
      await client.end().catch(() => undefined);
      throw e;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.lost = false;
    this.backoffMs = this.options.initialBackoffMs;
    this.emit({ kind: 'desk.connected' });
  }

  private onLost(client: pg.Client, reason: string): void {
    // Only the current client's loss counts (a failed attempt's client is ended by connect()).
    if (this.stopped || client !== this.client || this.lost) return;
    this.lost = true;
    this.client = undefined;
    void client.end().catch(() => undefined);
    this.emit({ kind: 'desk.reconnecting', reason });
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.retryTimer) return;
    const wait = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, this.options.maxBackoffMs);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.stopped) return;
      this.connect().catch(() => this.scheduleReconnect());
    }, wait);
  }

  private onPayload(payload: string | undefined): void {
    const event = parseDeskEvent(payload);
    if (!event) {
      this.droppedCount++;
      return;
    }
    this.emit(event);
  }

  private emit(event: DeskEvent): void {
    for (const fn of [...this.subscribers]) {
      try {
        fn(event);
      } catch {
        /* one failing subscriber must not keep the event from the others */
      }
    }
  }
}

/** A payload read back as a desk event, or undefined when it is not one (not JSON, no dotted kind, a connection kind). */
export function parseDeskEvent(payload: string | undefined): PublishedDeskEvent | undefined {
  if (!payload) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const kind = (value as { kind?: unknown }).kind;
  if (typeof kind !== 'string' || !EVENT_KIND_PATTERN.test(kind)) return undefined;
  // A published payload may not impersonate this server's own connection events.
  if (kind === 'desk.connected' || kind === 'desk.reconnecting') return undefined;
  return value as PublishedDeskEvent;
}
