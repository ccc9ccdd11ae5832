import { deskEvents } from './desk';
import { z } from 'zod';
import { settingsView } from './procedures';
import { agentEvents } from './agent';
import { searchEvents } from './search';
import { taskEvents } from './tasks';
import { portfolioEvents } from './guardrails';
import { buildEvents } from './builds';
import { proposalEvents } from './proposals';
import { scheduleEvents } from './schedule';
import { demoEvents } from './demo';

/**
 * Events the UI can subscribe to. Progress is pushed (events); reads are pulled (procedures).
 */
export const events = {
  'settings/changed': settingsView,
  'app/notice': z.object({ level: z.enum(['info', 'warning', 'error']), message: z.string() }),
  /** A skill folder changed on disk (the Skills screen reloads its list). */
  'skills/changed': z.object({}),
  /** A file in the PM's data folder was written, renamed or deleted, or the folder moved (the Data screen re-reads it). */
  'providers/data-folder-changed': z.object({}),
  ...agentEvents,
  ...searchEvents,
  ...taskEvents,
  ...portfolioEvents,
  ...buildEvents,
  ...scheduleEvents,
  ...proposalEvents,
  ...demoEvents,
  ...deskEvents,
} as const;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;
export interface EventMessage<E extends EventName = EventName> {
  event: E;
  payload: EventPayload<E>;
}

export const eventNames = Object.keys(events) as EventName[];

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}
