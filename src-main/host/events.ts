import type { EventMessage, EventName, EventPayload } from '../api/events';
import { actingPerson } from '../desk/people';
import { audienceOf, type EventAudience } from './event-audience';

/**
 * A subscriber hears every event with its audience: who it is for (event-audience.ts). Transports
 * serving several people (the desk's WS sockets) deliver by it; the one PM's window hears all.
 */
export type EventListener = (message: EventMessage, audience: EventAudience) => void;

/** A core's own event bus: no module-level state, so two cores in one process never cross. */
export class EventBus {
  private readonly listeners = new Set<EventListener>();

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    const message = { event, payload } as EventMessage;
    // Whose work emits it: the person of the call it runs in (asPerson follows the call's async
    // work), or no one for the server's own work and on a one-PM workbench.
    const audience = audienceOf(event, actingPerson()?.userId);
    for (const l of [...this.listeners]) {
      try {
        l(message, audience);
      } catch {
        // A broken subscriber (a closed socket, a destroyed window) must not stop the others.
      }
    }
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get size(): number {
    return this.listeners.size;
  }
}
