import type { JobName } from './jobs';
import type { ScheduleLog, ScheduleRun } from './run-log';

/** Faults kept in memory while even the run log cannot be written; older ones are dropped. */
const MAX_UNLOGGED = 20;

type FinishOutcome = Parameters<ScheduleLog['finish']>[1];

interface Fault {
  job: JobName;
  slot: Date | null;
  at: Date;
  error: string;
}

/** better-sqlite3 puts SQLITE_BUSY in `code`, not in the message ("database is locked"): both are shown. */
export function faultText(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  const text = (e instanceof Error ? e.message : String(e)) || 'no message';
  return typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
}

/**
 * The scheduler's writes a locked database refused (SQLITE_BUSY while another process writes the
 * workspace): held in memory and written at the next check that can. Without them a run's row
 * would stay `running` and block the job's next run, a handled slot would run twice, and a fault
 * would vanish unseen.
 */
export class HeldWrites {
  private interruptedMarked = false;
  private readonly slots = new Map<JobName, Date>();
  private readonly finishes: { id: number; outcome: FinishOutcome }[] = [];
  private readonly faults: Fault[] = [];
  /** The last fault logged per job (slot and cause): a lasting fault is one row, not one a minute. */
  private readonly lastFault = new Map<JobName, string>();

  constructor(
    private readonly log: ScheduleLog,
    private readonly emit: (job: JobName) => void,
    /** On a desk: which `running` rows a stopped server left (the others are live on other servers). */
    private readonly orphan?: (run: ScheduleRun) => boolean,
  ) {}

  /** Runs a stopped process left `running`; throws while locked (retried by `flush`). */
  markInterrupted(now: Date): ScheduleRun[] {
    const rows = this.log.markInterrupted(now, this.orphan);
    this.interruptedMarked = true;
    return rows;
  }

  /** Records a run's outcome, or holds it; null when held. */
  finish(id: number, outcome: FinishOutcome, hold: boolean): ScheduleRun | null {
    try {
      return this.log.finish(id, outcome);
    } catch {
      if (hold) this.finishes.push({ id, outcome });
      return null;
    }
  }

  /** Marks the slot handled; while the database refuses the write, memory keeps it from running twice. */
  slotDone(job: JobName, slot: Date, now: Date): void {
    const held = this.slots.get(job);
    if (!held || held < slot) this.slots.set(job, slot);
    this.flush(now);
  }

  /** The latest handled slot not yet written, if any. */
  heldSlot(job: JobName): Date | undefined {
    return this.slots.get(job);
  }

  /** Logs a fault as a failed run, once per job, slot and cause; held when the log is locked too. */
  fault(job: JobName, slot: Date | null, at: Date, cause: string, error: string): void {
    const key = `${slot?.toISOString() ?? 'check'} ${cause}`;
    if (this.lastFault.get(job) === key) return;
    this.lastFault.set(job, key);
    try {
      this.log.fault(job, slot, at, error);
    } catch {
      this.faults.push({ job, slot, at, error });
      if (this.faults.length > MAX_UNLOGGED) this.faults.shift();
    }
    this.emit(job);
  }

  /** A run started: the next fault of this job is news again. */
  cleared(job: JobName): void {
    this.lastFault.delete(job);
  }

  /** Writes what was held, in order; still locked, it stops and the next check tries again. */
  flush(now: Date): void {
    try {
      if (!this.interruptedMarked) for (const r of this.markInterrupted(now)) this.emit(r.job as JobName);
      while (this.finishes.length) {
        const f = this.finishes[0] as { id: number; outcome: FinishOutcome };
        const run = this.log.finish(f.id, f.outcome);
        this.finishes.shift();
        this.emit(run.job as JobName);
      }
      for (const [job, slot] of [...this.slots]) {
        this.log.setLastSlot(job, slot, now);
        if (this.slots.get(job) === slot) this.slots.delete(job);
      }
      while (this.faults.length) {
        const f = this.faults[0] as Fault;
        this.log.fault(f.job, f.slot, f.at, f.error);
        this.faults.shift();
        this.emit(f.job);
      }
    } catch {
      // Still locked; reads go on (WAL), so the jobs are still checked.
    }
  }
}
