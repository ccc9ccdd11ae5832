import { randomUUID } from 'node:crypto';
import type { CommandConsentRequest } from '../api/builds';
import { ConflictError } from '../common/errors';
import type { BuildStore } from './store';
import type { UnconfinedCommandRequest } from './workspace';

/**
 * The PM's consent for commands that would run unconfined (a machine without bubblewrap: macOS,
 * Windows, a Linux without it). Before a build runs a class of command (`tests`, `npm install`,
 * `git`, a program) it has not run yet, the command waits here, shown with its exact command line
 * on the Builds screen, until the PM allows or denies it. An Allow is remembered in the build
 * store for the rest of that build; a Deny refuses only that command.
 */

interface Pending {
  request: CommandConsentRequest;
  resolve: (allowed: boolean) => void;
}

export class CommandConsent {
  private readonly pending = new Map<string, Pending>();
  /** One question at a time per build: a second command waits for the first answer (which may cover it). */
  private readonly queue = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: BuildStore,
    private readonly events: {
      asked: (buildId: string, request: CommandConsentRequest) => void;
      answered: (buildId: string, request: CommandConsentRequest, allowed: boolean) => void;
    },
  ) {}

  /** The command waiting for the PM in this build, if any. */
  waiting(buildId: string): CommandConsentRequest | null {
    return this.pending.get(buildId)?.request ?? null;
  }

  /** Resolves true once the PM allows the command (or already allowed its class in this build); false on Deny or cancel. */
  ask(buildId: string, request: UnconfinedCommandRequest, signal?: AbortSignal): Promise<boolean> {
    const previous = this.queue.get(buildId) ?? Promise.resolve();
    const next = previous.then(() => this.askNow(buildId, request, signal));
    this.queue.set(
      buildId,
      next.catch(() => undefined),
    );
    return next;
  }

  private askNow(buildId: string, request: UnconfinedCommandRequest, signal?: AbortSignal): Promise<boolean> {
    if (this.store.commandSettings(buildId).approvedClasses.includes(request.commandClass)) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    const full: CommandConsentRequest = { requestId: randomUUID(), ...request, at: new Date().toISOString() };
    return new Promise<boolean>((resolve) => {
      const onAbort = () => settle(false);
      const settle = (allowed: boolean) => {
        if (this.pending.get(buildId)?.request.requestId !== full.requestId) return;
        this.pending.delete(buildId);
        signal?.removeEventListener('abort', onAbort);
        if (allowed) this.store.approveCommandClass(buildId, full.commandClass);
        resolve(allowed);
        this.events.answered(buildId, full, allowed);
      };
      this.pending.set(buildId, { request: full, resolve: settle });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.events.asked(buildId, full);
    });
  }

  /** The PM's answer. Refused when nothing (or another request) is waiting. */
  decide(buildId: string, requestId: string, allow: boolean): void {
    const p = this.pending.get(buildId);
    if (!p || p.request.requestId !== requestId) {
      throw new ConflictError('That command is no longer waiting for an answer (it was answered, or the build was paused or stopped).');
    }
    p.resolve(allow);
  }
}
