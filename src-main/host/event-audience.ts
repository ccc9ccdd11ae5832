import type { EventName } from '../api/events';

/**
 * Who may hear an event on a desk, decided per event name in one table (like desk-calls.ts does
 * for procedures). Records are private to their owner unless shared; the live events that carry
 * a person's work must honour the same privacy, or pm02's page would stream pm01's chat.
 *
 * - 'personal': heard only by the person whose work emitted it (the call's `actingPerson()`,
 *   which follows everything that call starts: the analyst run behind agent/send, its tasks).
 * - 'desk': heard by every signed-in person. Such an event carries no private record's title or
 *   content: ids and kinds only, or state every person may already read through a procedure.
 *
 * An event emitted outside any person's work (the scheduler, the database listener) reaches
 * every signed-in person whatever its row: it is the desk's own work. An event missing from the
 * table and emitted inside a person's work is personal (fail closed): an event added later
 * without a decision never reaches a colleague by default.
 *
 * The one-PM workbench (no desk) ignores all of this: its one page hears everything.
 */
export type EventReach = 'personal' | 'desk';

export const EVENT_REACH: Partial<Record<EventName, EventReach>> = {
  // The analyst's streamed chat of one person: their question, the tools it ran, its answer.
  'agent/text': 'personal',
  'agent/tool-call': 'personal',
  'agent/tool-result': 'personal',
  'agent/usage': 'personal',
  'agent/done': 'personal',
  'agent/error': 'personal',
  // A sub-agent task carries its objective, context and summary: the person's own research.
  'tasks/changed': 'personal',
  // Progress of a rebuild or download the person (a desk admin) started; the others read
  // search/status when they need it.
  'search/reindex-progress': 'personal',
  'search/model-progress': 'personal',
  // The count is taken inside the writer's call, so under row-level security it is the writer's
  // view of pending proposals: another person's badge would show a count that is not theirs.
  'proposals/changed': 'personal',
  // Only the admin who started the build is asked; the others follow it through builds/changed.
  'builds/command-consent': 'personal',

  // The database listener's commits of every server: ids and kinds only; each page re-reads
  // through procedures that row-level security filters.
  'desk/changed': 'desk',
  // No payload: each page re-reads its own book.
  'portfolio/changed': 'desk',
  // The server's settings, which every signed-in person reads (settings/get is 'read'); secrets
  // appear as set/unset only.
  'settings/changed': 'desk',
  // Schedule jobs and their last run, which every person reads (schedule/list is 'read').
  'schedule/changed': 'desk',
  // Builds are the desk's (builds/list and builds/get are 'read'); only admins start them.
  'builds/changed': 'desk',
  'builds/log': 'desk',
  // Server-wide notices (the morning review, an update) and server-wide folders: no payload or
  // no record content.
  'app/notice': 'desk',
  'skills/changed': 'desk',
  'providers/data-folder-changed': 'desk',
  'app/workspace-changed': 'desk',
};

/** Who one emitted event is for: every listener, or one person's sockets only. */
export type EventAudience = { readonly everyone: true } | { readonly everyone: false; readonly userId: string };

export const EVERYONE: EventAudience = Object.freeze({ everyone: true });

/** The audience of `event` emitted by the work of `userId` (undefined: the server's own work). */
export function audienceOf(event: string, userId: string | undefined): EventAudience {
  if (userId === undefined) return EVERYONE;
  const reach = Object.hasOwn(EVENT_REACH, event) ? EVENT_REACH[event as EventName] : undefined;
  return reach === 'desk' ? EVERYONE : { everyone: false, userId };
}

/** Whether a socket signed in as `userId` may hear an event for `audience`. */
export function heardBy(audience: EventAudience, userId: string): boolean {
  return audience.everyone || audience.userId === userId;
}
