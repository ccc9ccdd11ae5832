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
