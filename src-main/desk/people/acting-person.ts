import { AsyncLocalStorage } from 'node:async_hooks';
import type { DeskUser } from './permissions';

/**
 * The person a call on a desk is made by, for the whole of that call — across its awaits, and
 * never leaking into another call that interleaves with it. Handlers, the store's row-level
 * security binding and the owner of a record written all read it from here, instead of passing
 * the person through every function signature.
 *
 * Undefined outside a call (a scheduled job, the search index catching up, a one-PM workbench):
 * the server's own work, bound to no one.
 */
export type ActingPerson = Pick<DeskUser, 'userId' | 'role' | 'admin' | 'displayName'>;

const calls = new AsyncLocalStorage<ActingPerson>();

/** Runs `fn` (and everything it awaits or schedules) as `person`. */
export function asPerson<T>(person: ActingPerson, fn: () => T): T {
  return calls.run(person, fn);
}

/** The person the current call is made by, or undefined for the server's own work. */
export function actingPerson(): ActingPerson | undefined {
  return calls.getStore();
}

/**
 * Runs `fn` (and everything it awaits or schedules) as no one: the server's own work, for a timer
 * armed during a call (the scheduler re-arming after an admin's change) that must not run as them.
 */
export function outsideAnyCall<T>(fn: () => T): T {
  return calls.exit(fn);
}
