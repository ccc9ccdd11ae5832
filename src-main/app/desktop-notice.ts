import type { EventMessage } from '../api/events';

/** Levels of `app/notice` worth interrupting the PM outside the window (the in-app list shows the rest). */
const DESKTOP_LEVELS = new Set(['warning', 'error']);
const BODY_CHARS = 240;

/**
 * The desktop notification an event deserves, if any: an `app/notice` of level warning or error
 * (a morning review whose invalidation conditions fired, the MCP server failing to start).
 */
export function desktopNoticeOf(message: EventMessage): { title: string; body: string } | null {
  if (message.event !== 'app/notice') return null;
  const notice = message.payload as EventMessage<'app/notice'>['payload'];
  if (!DESKTOP_LEVELS.has(notice.level)) return null;
  const body = notice.message.trim();
  if (!body) return null;
  return { title: notice.level === 'error' ? 'Forge — problem' : 'Forge', body: body.length > BODY_CHARS ? `${body.slice(0, BODY_CHARS)}…` : body };
}

/** An analyst run shorter than this finished while the PM was watching; longer ones earn a notification. */
export const LONG_RUN_MS = 20_000;

/** Build states that need the PM: done, failed, or waiting for an answer. */
const BUILD_ENDS: Record<string, (name: string) => string> = {
  completed: (name) => `Build of ${name} finished: every phase signed off.`,
  failed: (name) => `Build of ${name} stopped with an error.`,
  waiting_answer: (name) => `Build of ${name} is waiting for your answer.`,
};

/** `Written: /memory/expressions/E-004.md (status proposed — waiting for the PM's approval)` from the write tool. */
const AWAITING = /Written: \S*\/(E-\d+)\.md \(status proposed/;

/**
 * Finished long work and items awaiting approval, as desktop notifications: a build that
 * completes, fails or asks a question; an analyst run that took longer than `longRunMs`; an
 * Expression the analyst proposed. Stateful (it remembers each build's last status and when each
 * run started) so a repeat of the same state is not a second notification.
 */
export function createFinishedWorkNotifier(options: { now?: () => number; longRunMs?: number } = {}) {
  const now = options.now ?? Date.now;
  const longRunMs = options.longRunMs ?? LONG_RUN_MS;
  const buildStatus = new Map<string, string>();
  const runStarted = new Map<string, number>();
  return (message: EventMessage): { title: string; body: string } | null => {
    switch (message.event) {
      case 'builds/changed': {
        const b = message.payload as EventMessage<'builds/changed'>['payload'];
        const before = buildStatus.get(b.id);
        buildStatus.set(b.id, b.status);
        const words = BUILD_ENDS[b.status];
        if (!words || before === b.status) return null;
        // A build first seen already finished (the app just started) is old news.
        if (before === undefined && b.status !== 'waiting_answer') return null;
        return { title: 'Forge — build', body: b.error && b.status === 'failed' ? `${words(b.projectName)} ${b.error}` : words(b.projectName) };
      }
      case 'agent/text':
      case 'agent/tool-call':
      case 'agent/usage': {
        const p = message.payload as { runId: string };
        if (!runStarted.has(p.runId)) runStarted.set(p.runId, now());
        return null;
      }
      case 'agent/tool-result': {
        const p = message.payload as EventMessage<'agent/tool-result'>['payload'];
        if (!runStarted.has(p.runId)) runStarted.set(p.runId, now());
        const id = p.name === 'write' && !p.isError ? AWAITING.exec(p.content)?.[1] : undefined;
        return id ? { title: 'Forge — approval needed', body: `${id} awaits your approval.` } : null;
      }
      case 'agent/done': {
        const p = message.payload as EventMessage<'agent/done'>['payload'];
        const started = runStarted.get(p.runId);
        runStarted.delete(p.runId);
        if (started === undefined || p.stop === 'cancelled' || now() - started < longRunMs) return null;
        const seconds = Math.round((now() - started) / 1000);
        return {
          title: 'Forge — analyst',
          body: `The analyst finished after ${seconds} s${p.stop === 'max_rounds' ? ' without an answer (too many steps).' : '.'}`,
        };
      }
      default:
        return null;
    }
  };
}
