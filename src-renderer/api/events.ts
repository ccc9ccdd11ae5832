import { create } from 'zustand';
import type { EventMessage, EventName } from '../../src-main/api';
import type { ForgeBridge } from './client';

/**
 * Pushed progress from the core. Inside Electron events arrive through the preload bridge; in a
 * browser through a WebSocket to `/events`, which reconnects with backoff and reports its state
 * so the status bar can say when the window is not live.
 */

/** Every event the renderer listens to. `satisfies` keeps this list honest against the contract. */
export const knownEvents = [
  'settings/changed',
  'app/notice',
  'search/reindex-progress',
  'tasks/changed',
  'skills/changed',
  'portfolio/changed',
] as const satisfies readonly EventName[];

export type ConnectionState = 'connecting' | 'connected' | 'disconnected';

export interface ConnectionStore {
  state: ConnectionState;
  /** When the link went down (ms since epoch), for "disconnected for 20 s". */
  since: number;
  attempts: number;
  set(state: ConnectionState, attempts?: number): void;
}

export const useConnection = create<ConnectionStore>((set) => ({
  state: 'connecting',
  since: Date.now(),
  attempts: 0,
  set: (state, attempts = 0) => set({ state, attempts, since: Date.now() }),
}));

export type EventListener = (message: EventMessage) => void;

/** The latest search-index rebuild progress pushed by the core (null when none has run). */
export const useReindexProgress = create<{ done: number; total: number; embedder: string } | { done: null }>(() => ({
  done: null,
}));

/** Delay before reconnect attempt `n` (0-based): 0.5 s doubling to a 10 s ceiling, with ±20% jitter so tabs do not stampede. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(500 * 2 ** Math.min(attempt, 10), 10_000);
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** Reads one WebSocket frame as an event message; anything else is ignored rather than crashing the UI. */
export function parseEventFrame(data: unknown): EventMessage | null {
  if (typeof data !== 'string') return null;
  try {
    const msg = JSON.parse(data) as { event?: unknown; payload?: unknown };
    if (typeof msg.event !== 'string') return null;
    return { event: msg.event, payload: msg.payload } as EventMessage;
  } catch {
    return null;
  }
}

export function eventsUrl(location: { protocol: string; host: string }, token: string | null): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/events${token ? `?token=${encodeURIComponent(token)}` : ''}`;
}

export interface EventsConnection {
  close(): void;
  /** Tells the server again who is signed in (a desk's socket hears nothing without a person); a no-op over IPC. */
  hello?(): void;
}

/** @param extra events a feature listens to besides the shared ones (e.g. the chat's `agent/*`). */
export function connectBridgeEvents(bridge: ForgeBridge, listener: EventListener, extra: readonly EventName[] = []): EventsConnection {
  const names = [...new Set<EventName>([...knownEvents, ...extra])];
  const offs = names.map((event) => bridge.on(event, (payload) => listener({ event, payload } as EventMessage)));
  useConnection.getState().set('connected');
  return {
    close: () => {
      for (const off of offs) off();
    },
  };
}

/**
 * @param onReconnected called after the link comes back, so callers can refetch what they may have missed.
 * @param session on a desk, the signed-in person's session, sent to the server on every (re)connect and by
 * `hello()` when it changes: a desk's server sends events only to a socket whose person is signed in.
 */
export function connectSocketEvents(url: string, listener: EventListener, onReconnected: () => void, session?: () => string | null): EventsConnection {
  let socket: WebSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let attempt = 0;
  let closed = false;
  let everConnected = false;
  const store = useConnection.getState();
  const hello = (ws: WebSocket) => {
    if (session && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ session: session() }));
  };

  const open = () => {
    if (closed) return;
    if (!everConnected || attempt === 0) store.set('connecting', attempt);
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      hello(ws);
      if (everConnected) onReconnected();
      everConnected = true;
      attempt = 0;
      useConnection.getState().set('connected');
    };
    ws.onmessage = (e) => {
      const msg = parseEventFrame(e.data);
      if (msg) listener(msg);
    };
    ws.onclose = () => {
      socket = null;
      if (closed) return;
      if (useConnection.getState().state !== 'disconnected') useConnection.getState().set('disconnected', attempt + 1);
      else useConnection.setState({ attempts: attempt + 1 });
      timer = setTimeout(open, backoffMs(attempt));
      attempt += 1;
    };
    // onerror is always followed by onclose, where reconnecting happens.
  };
  open();
  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      socket?.close();
    },
    hello() {
      if (socket) hello(socket);
    },
  };
}
