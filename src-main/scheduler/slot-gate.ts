import { ConflictError } from '../common/errors';
import type { ScheduleLog, ScheduleRun } from './run-log';
import type { SlotLeases, Timers } from './scheduler-types';

/** The lease key of a run: its slot's ISO time, or `manual <start time>` for a Run now. */
export function slotKey(slot: Date | null, startedAt: Date): string {
  return slot ? slot.toISOString() : `manual ${startedAt.toISOString()}`;
}

function runSlotKey(run: ScheduleRun): string {
  return run.scheduledFor ?? `manual ${run.startedAt}`;
}

/** Why a desk's run row was closed by another server than the one that started it. */
export const STOPPED_SERVER = 'The Forge server running it stopped answering (its lease expired); another server of the desk took the slot over.';

export type GateAnswer =
  /** This server runs the slot; `takeover`: a server that held it stopped answering. */
  | { run: true; takeover: boolean }
  /** Another server runs it (finished: false — it may still be taken over if that server dies) or ran it. */
  | { run: false; finished: boolean; holder: string };

/**
 * The scheduler's side of the desk's slot leases. Without leases (one PM's workbench) every answer
 * is "run it" and nothing is written. With them, a slot runs on the server that claims it; the
 * others leave it alone while its holder heart-beats, and take it over once the holder stops.
 * Lease bookkeeping that fails (the database is away) never fails the run: the lease then simply
 * expires, which is the same outcome as the server stopping.
 */
export class SlotGate {
  constructor(
    private readonly leases: SlotLeases | undefined,
    private readonly timers: Timers,
  ) {}

  get onDesk(): boolean {
    return this.leases !== undefined;
  }

  claim(job: string, key: string): GateAnswer {
    if (!this.leases) return { run: true, takeover: false };
    const c = this.leases.claim(job, key);
    return c.claimed ? { run: true, takeover: c.attempt > 1 } : { run: false, finished: c.finished, holder: c.holder };
  }

  /**
   * Tells a run left `running` by a stopped server from one a live server is doing: its lease.
   * Undefined without leases, where every `running` row at start was left by this workspace's
   * previous process.
   */
  get orphan(): ((run: ScheduleRun) => boolean) | undefined {
    const leases = this.leases;
    return leases ? (run) => !leases.isLive(run.job, runSlotKey(run)) : undefined;
  }

  /**
   * Heart-beats the lease while the run goes on; `lost` is called once if another server has taken
   * the slot over (this server's heartbeats stopped reaching the database for a whole lease).
   * Returns the function that stops heart-beating.
   */
  keep(job: string, key: string, lost: () => void): () => void {
    const leases = this.leases;
    if (!leases) return () => undefined;
    let handle: unknown = null;
    let stopped = false;
    const beat = () => {
      if (stopped) return;
      let held = true;
      try {
        held = leases.heartbeat(job, key);
      } catch {
        // The database is away: keep working; the lease expires only if it stays away.
      }
      if (!held) return lost();
      handle = this.timers.set(beat, Math.max(1, Math.floor(leases.leaseMs / 3)));
    };
    handle = this.timers.set(beat, Math.max(1, Math.floor(leases.leaseMs / 3)));
    return () => {
      stopped = true;
      this.timers.clear(handle);
    };
  }

  /** A slot taken over: the run its stopped server left `running` is closed, so the history reads true. */
  closeTakenOver(log: ScheduleLog, job: string, key: string, now: Date): boolean {
    return log.markInterrupted(now, (r) => r.job === job && r.scheduledFor === key, STOPPED_SERVER).length > 0;
  }

  /**
   * Opens a run's row. On a desk the row in the way of a new run (one running per job) may be an
   * orphan — its server stopped mid-run and its lease expired — and is closed as interrupted first
   * (`freed`). Elsewhere, and when the row in the way is live, the ConflictError stands.
   */
  begin(log: ScheduleLog, input: Parameters<ScheduleLog['begin']>[0]): { run: ScheduleRun; freed: boolean } {
    try {
      return { run: log.begin(input), freed: false };
    } catch (e) {
      const orphan = this.orphan;
      if (!(e instanceof ConflictError) || !orphan) throw e;
      const freed = log.markInterrupted(input.startedAt, (r) => r.job === input.job && orphan(r), STOPPED_SERVER);
      if (!freed.length) throw e;
      return { run: log.begin(input), freed: true };
    }
  }

  /** The slot is done with (ran, failed or skipped): no server runs it again. */
  finish(job: string, key: string, outcome: 'ok' | 'failed' | 'skipped'): void {
    try {
      this.leases?.finish(job, key, outcome);
    } catch {
      // Lost meanwhile (another server took it over) or the database is away: the run's own row
      // says what this server did; the lease stays with whoever holds it.
    }
  }

  /** Gives up a slot this server will not finish (it stops, or the job is running elsewhere). */
  release(job: string, key: string): void {
    try {
      this.leases?.release(job, key);
    } catch {
      // The database is away: the lease expires on its own.
    }
  }
}
