import type { EventMessage, EventName, EventPayload } from '../api/events';

export type EventListener = (message: EventMessage) => void;

/** A core's own event bus: no module-level state, so two cores in one process never cross. */
export class EventBus {
  private readonly listeners = new Set<EventListener>();

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    const message = { event, payload } as EventMessage;
    for (const l of [...this.listeners]) {
      try {
        l(message);
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
