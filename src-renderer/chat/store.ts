import { create } from 'zustand';
import type { EventMessage, EventPayload } from '../../src-main/api';

/**
 * The conversation as the Chat screen shows it, built from pushed `agent/*` events (keyed by run
 * id). `applyAgentEvent` is a pure reducer so it can be tested without a DOM.
 */
export interface ToolCallView {
  callId: string;
  name: string;
  input: Record<string, unknown>;
  result?: { content: string; isError: boolean; untrusted: boolean; durationMs: number };
}

export type TurnPart = { kind: 'text'; text: string } | { kind: 'tool'; call: ToolCallView };

export interface ChatTurn {
  runId: string;
  sessionId: string;
  /** The PM's message (empty for runs started elsewhere, e.g. the scheduler). */
  prompt: string;
  parts: TurnPart[];
  status: 'running' | 'answered' | 'cancelled' | 'max_rounds' | 'failed';
  error?: { code: string; message: string; requestId: string | null };
  demo: boolean;
}

export interface ContextMeter {
  system: number;
  tools: number;
  conversation: number;
  total: number;
}

export interface SessionUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number | null;
  cacheReadShare: number;
}

export interface ChatState {
  turns: ChatTurn[];
  sessionId: string | null;
  context: ContextMeter | null;
  usage: SessionUsage | null;
  model: string | null;
}

export const emptyChat = (): ChatState => ({ turns: [], sessionId: null, context: null, usage: null, model: null });

type P<E extends EventMessage['event']> = EventPayload<E>;

export function isAgentEvent(m: EventMessage): boolean {
  return typeof m.event === 'string' && m.event.startsWith('agent/');
}

function withTurn(state: ChatState, runId: string, sessionId: string, change: (t: ChatTurn) => ChatTurn): ChatState {
  const i = state.turns.findIndex((t) => t.runId === runId);
  const base: ChatTurn = i >= 0 ? state.turns[i]! : { runId, sessionId, prompt: '', parts: [], status: 'running', demo: false };
  const next = change(base);
  const turns = i >= 0 ? state.turns.map((t, k) => (k === i ? next : t)) : [...state.turns, next];
  return { ...state, turns };
}

/** Starts a turn as soon as the PM sends, so the message shows before the first event. */
export function startTurn(state: ChatState, start: { runId: string; sessionId: string; prompt: string; demo: boolean }): ChatState {
  const s = state.sessionId && state.sessionId !== start.sessionId && !start.demo ? { ...emptyChat() } : state;
  return withTurn({ ...s, sessionId: start.demo ? s.sessionId : start.sessionId }, start.runId, start.sessionId, (t) => ({
    ...t,
    prompt: start.prompt,
    demo: start.demo,
  }));
}

export function applyAgentEvent(state: ChatState, m: EventMessage): ChatState {
  switch (m.event) {
    case 'agent/text': {
      const p = m.payload as P<'agent/text'>;
      return withTurn(state, p.runId, p.sessionId, (t) => {
        const parts = [...t.parts];
        if (p.reset) {
          // A broken stream is re-sent: drop the text shown for the unfinished round.
          if (parts.at(-1)?.kind === 'text') parts.pop();
          return { ...t, parts };
        }
        const last = parts.at(-1);
        if (last?.kind === 'text') parts[parts.length - 1] = { kind: 'text', text: last.text + p.text };
        else parts.push({ kind: 'text', text: p.text });
        return { ...t, parts };
      });
    }
    case 'agent/tool-call': {
      const p = m.payload as P<'agent/tool-call'>;
      return withTurn(state, p.runId, p.sessionId, (t) => ({
        ...t,
        parts: [...t.parts, { kind: 'tool', call: { callId: p.callId, name: p.name, input: p.input } }],
      }));
    }
    case 'agent/tool-result': {
      const p = m.payload as P<'agent/tool-result'>;
      return withTurn(state, p.runId, p.sessionId, (t) => ({
        ...t,
        parts: t.parts.map((x) =>
          x.kind === 'tool' && x.call.callId === p.callId
            ? { kind: 'tool', call: { ...x.call, result: { content: p.content, isError: p.isError, untrusted: p.untrusted, durationMs: p.durationMs } } }
            : x,
        ),
      }));
    }
    case 'agent/usage': {
      const p = m.payload as P<'agent/usage'>;
      const own = withTurn(state, p.runId, p.sessionId, (t) => t);
      return { ...own, context: p.context, usage: p.session, model: p.model };
    }
    case 'agent/done': {
      const p = m.payload as P<'agent/done'>;
      return { ...withTurn(state, p.runId, p.sessionId, (t) => ({ ...t, status: p.stop, demo: p.demo || t.demo })), usage: p.usage };
    }
    case 'agent/error': {
      const p = m.payload as P<'agent/error'>;
      return withTurn(state, p.runId, p.sessionId, (t) => ({ ...t, status: 'failed', error: { code: p.code, message: p.message, requestId: p.requestId } }));
    }
    default:
      return state;
  }
}

export interface ChatStore extends ChatState {
  start(s: { runId: string; sessionId: string; prompt: string; demo: boolean }): void;
  apply(m: EventMessage): void;
  reset(): void;
}

export const useChat = create<ChatStore>((set) => ({
  ...emptyChat(),
  start: (s) => set((st) => startTurn(st, s)),
  apply: (m) => set((st) => applyAgentEvent(st, m)),
  reset: () => set(emptyChat()),
}));

/** For main.tsx: route every pushed `agent/*` event into the chat store. */
export function handleChatEvent(m: EventMessage): void {
  if (isAgentEvent(m)) useChat.getState().apply(m);
}

/** The agent events the renderer must subscribe to (the bridge only forwards listed names). */
export const chatEvents = [
  'agent/text',
  'agent/tool-call',
  'agent/tool-result',
  'agent/usage',
  'agent/done',
  'agent/error',
] as const satisfies readonly EventMessage['event'][];

export const runningTurn = (s: ChatState): ChatTurn | undefined => [...s.turns].reverse().find((t) => t.status === 'running');
