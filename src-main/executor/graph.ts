/**
 * Dependency checks at dispatch time: every `depends_on` id must name a known task, and the new
 * tasks must not form a cycle (among themselves; existing tasks cannot depend on new ones).
 * Returns the cycle as ids in order (`[A, B, A]`), or null.
 */
export function findCycle(edges: Map<string, readonly string[]>): string[] | null {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] | null => {
    const s = state.get(id);
    if (s === 'done') return null;
    if (s === 'visiting') return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, 'visiting');
    stack.push(id);
    for (const dep of edges.get(id) ?? []) {
      if (!edges.has(dep)) continue;
      const c = visit(dep);
      if (c) return c;
    }
    stack.pop();
    state.set(id, 'done');
    return null;
  };
  for (const id of edges.keys()) {
    const c = visit(id);
    if (c) return c;
  }
  return null;
}

/** A counting semaphore whose waiters can give up (a cancelled task leaves the queue at once). */
export class Semaphore {
  private active = 0;
  private readonly waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];

  constructor(private limit: number) {}

  get running(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiters.length;
  }

  setLimit(limit: number): void {
    this.limit = Math.max(1, limit);
    this.pump();
  }

  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.active < this.limit && this.waiters.length === 0) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject,
      };
      const onAbort = () => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  release(): void {
    this.active = Math.max(0, this.active - 1);
    this.pump();
  }

  private pump(): void {
    while (this.active < this.limit && this.waiters.length) {
      this.active++;
      this.waiters.shift()!.resolve();
    }
  }
}
