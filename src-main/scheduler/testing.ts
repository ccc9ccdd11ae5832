import { scheduleRuns } from '../store/migrations/011_schedule';
import type { Db } from '../store';
import type { Timers } from './scheduler-types';

/**
 * Applies migration 011 to a workspace database opened before it joined the migration list
 * (it is registered once 008–010 are); a no-op once the database already has it.
 */
export function ensureScheduleTables(db: Db): void {
  const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schedule_runs'").get();
  if (!has) db.transaction(() => scheduleRuns.up(db)).immediate();
}

/** Lets promise chains (a run finishing, its record written) settle between timer firings. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * A clock and timers under the test's control. `advance` lets time pass with the machine awake
 * (each timer fires at its time, in order); `sleep` is a suspended laptop: the wall clock jumps,
 * and timers that came due meanwhile fire once, late.
 */
export class FakeClock implements Timers {
  private t: number;
  private seq = 0;
  private readonly pending = new Map<number, { at: number; fn: () => void }>();
  /** Every delay a timer was armed with, in order (what a re-arm is checked by). */
  readonly delays: number[] = [];

  constructor(start: string | Date) {
    this.t = new Date(start).getTime();
  }

  now = (): Date => new Date(this.t);

  set(fn: () => void, ms: number): number {
    const id = ++this.seq;
    this.delays.push(ms);
    this.pending.set(id, { at: this.t + Math.max(0, ms), fn });
    return id;
  }

  clear(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** When the earliest pending timer would fire. */
  get nextTimerAt(): Date | null {
    const at = Math.min(...[...this.pending.values()].map((p) => p.at));
    return Number.isFinite(at) ? new Date(at) : null;
  }

  get timerCount(): number {
    return this.pending.size;
  }

  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      const next = this.due(end)[0];
      if (!next) break;
      this.t = Math.max(this.t, next[1].at);
      this.pending.delete(next[0]);
      next[1].fn();
      await flush();
    }
    this.t = end;
    await flush();
  }

  async sleep(ms: number): Promise<void> {
    this.t += ms;
    for (const [id, p] of this.due(this.t)) {
      if (!this.pending.has(id)) continue; // cleared by an earlier one
      this.pending.delete(id);
      p.fn();
      await flush();
    }
  }

  private due(upTo: number): [number, { at: number; fn: () => void }][] {
    return [...this.pending.entries()].filter(([, p]) => p.at <= upTo).sort((a, b) => a[1].at - b[1].at || a[0] - b[0]);
  }
}
