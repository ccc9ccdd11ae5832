import type { Core } from '../core';
import { type EventAudience, heardBy } from '../event-audience';

/** How often an events socket's session is checked again: a revoked or expired one stops hearing the desk within this. */
const SOCKET_SESSION_RECHECK_MS = 30_000;

export interface DeskListener {
  /** Whether this socket may hear an event for `audience`: a signed-in person, and the event desk-wide or theirs. */
  hears(audience: EventAudience): boolean;
  /** A message from the page: its person's session ({"session": …|null}). */
  heard(data: unknown): void;
  stop(): void;
}

/**
 * On a desk, an events socket hears nothing until the page sends a signed-in person's session (it
 * does after sign-in, and null at sign-out); the session is checked with desk/me then and every
 * SOCKET_SESSION_RECHECK_MS. So the server's token alone — which every desk page has — no longer
 * lets someone without a (still valid) sign-in listen to the desk. The session never travels in the URL.
 * desk/me also names the person: the socket then hears desk-wide events and that person's own,
 * never a colleague's private work (event-audience.ts).
 */
export function deskListener(core: Core): DeskListener {
  let session: string | null = null;
  let userId: string | null = null;
  let asked = 0;
  const check = async (candidate: string | null) => {
    const mine = ++asked;
    const answer = candidate === null ? undefined : await core.invokeUnknown('desk/me', { session: candidate });
    const who = answer?.ok ? (answer.value as { user?: { userId?: unknown } }).user?.userId : undefined;
    // An older check finishing late never overrides a newer one.
    if (mine === asked) {
      const good = typeof who === 'string' && who.length > 0;
      session = good ? candidate : null;
      userId = good ? who : null;
    }
  };
  const timer = setInterval(() => {
    if (session) void check(session);
  }, SOCKET_SESSION_RECHECK_MS);
  timer.unref();
  return {
    hears: (audience) => userId !== null && heardBy(audience, userId),
    heard(data: unknown) {
      let candidate: string | null = null;
      try {
        const value = JSON.parse(String(data)) as { session?: unknown };
        if (typeof value?.session === 'string' && value.session.length <= 200) candidate = value.session;
      } catch {
        // Not JSON: the same as no session.
      }
      void check(candidate);
    },
    stop: () => clearInterval(timer),
  };
}
