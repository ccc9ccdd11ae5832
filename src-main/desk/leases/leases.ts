import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { ConflictError, InvalidInputError } from '../../common/errors';
import type { PostgresConnection } from '../../store/postgres/connection';

export type LeaseOutcome = 'ok' | 'failed' | 'skipped';

export type ClaimResult =
  /** This server runs the slot; `attempt` > 1 when it took over from a holder whose lease expired. */
  | { claimed: true; attempt: number }
  /** Another server holds it (or held it and finished): this server does not run it. */
  | { claimed: false; holder: string; finished: boolean; outcome: LeaseOutcome | null };

export interface DeskLeasesOptions {
  /** How long a claim holds without a heartbeat (default 2 min); heartbeat well within it. */
  leaseMs?: number;
}

/** This server no longer holds the slot: its lease expired and another server took it over. */
export class LeaseLostError extends ConflictError {
  constructor(message: string) {
    super(message);
    this.name = 'LeaseLostError';
  }
}

const JOB_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

/** A holder name unique to this process, readable in the table (which server ran the slot). */
export function defaultHolder(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * Leases on (job, slot): the first server to claim a slot runs it, once across the desk.
 *
 * A claim is one statement — INSERT … ON CONFLICT DO UPDATE … WHERE the old lease expired and
 * was never finished — so two servers racing for a slot, or for the takeover of an expired one,
 * cannot both win: PostgreSQL locks the conflicting row and re-checks the condition.
 */
export class DeskLeases {
  readonly leaseMs: number;

  constructor(
    private readonly connection: PostgresConnection,
    readonly holder: string = defaultHolder(),
    options: DeskLeasesOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 120_000;
    if (!Number.isFinite(this.leaseMs) || this.leaseMs < 1 || this.leaseMs > 86_400_000) {
      throw new InvalidInputError(`A lease lasts between 1 ms and 24 h; got ${this.leaseMs}.`);
    }
    if (holder.length < 1 || holder.length > 200) throw new InvalidInputError('A lease holder is named in 1 to 200 characters.');
  }

  /** Claims the slot, or says who has it. */
  claim(job: string, slot: string): ClaimResult {
    checkKey(job, slot);
    const won = this.connection.one<{ attempts: number }>(
      `INSERT INTO desk_job_leases AS l (job, slot, holder, expires_at)
       VALUES ($1, $2, $3, clock_timestamp() + make_interval(secs => $4::double precision / 1000))
       ON CONFLICT (job, slot) DO UPDATE
         SET holder = EXCLUDED.holder, claimed_at = clock_timestamp(), heartbeat_at = clock_timestamp(),
             expires_at = EXCLUDED.expires_at, attempts = l.attempts + 1
         WHERE l.finished_at IS NULL AND l.expires_at < clock_timestamp()
       RETURNING attempts`,
      [job, slot, this.holder, this.leaseMs],
    );
    if (won) return { claimed: true, attempt: Number(won.attempts) };
    const held = this.connection.one<{ holder: string; finished: boolean; outcome: LeaseOutcome | null }>(
      'SELECT holder, finished_at IS NOT NULL AS finished, outcome FROM desk_job_leases WHERE job = $1 AND slot = $2',
      [job, slot],
    );
    // The row exists: the conflict that refused our claim was on it, and rows are never deleted.
    return { claimed: false, holder: held?.holder ?? '', finished: held?.finished ?? false, outcome: held?.outcome ?? null };
  }

  /**
   * Extends this server's lease on a slot it runs. False when it no longer holds it (taken over
   * after expiry): the job should stop, its slot is someone else's now.
   */
  heartbeat(job: string, slot: string): boolean {
    checkKey(job, slot);
    const { rowCount } = this.connection.run(
      `UPDATE desk_job_leases SET heartbeat_at = clock_timestamp(),
         expires_at = clock_timestamp() + make_interval(secs => $4::double precision / 1000)
       WHERE job = $1 AND slot = $2 AND holder = $3 AND finished_at IS NULL`,
      [job, slot, this.holder, this.leaseMs],
    );
    return rowCount === 1;
  }

  /**
   * Marks the slot finished with its outcome: it is never run again. Refuses (LeaseLostError)
   * when this server no longer holds it — its result must not overwrite the new holder's.
   */
  finish(job: string, slot: string, outcome: LeaseOutcome): void {
    checkKey(job, slot);
    if (outcome !== 'ok' && outcome !== 'failed' && outcome !== 'skipped') {
      throw new InvalidInputError(`A slot finishes ok, failed or skipped; got ${JSON.stringify(outcome)}.`);
    }
    const { rowCount } = this.connection.run(
      `UPDATE desk_job_leases SET finished_at = clock_timestamp(), outcome = $4
       WHERE job = $1 AND slot = $2 AND holder = $3 AND finished_at IS NULL`,
      [job, slot, this.holder, outcome],
    );
    if (rowCount !== 1) {
      throw new LeaseLostError(
        `${job} for ${slot} is no longer held by ${this.holder}: its lease expired and another server took the slot over. This run's result was not recorded.`,
      );
    }
  }

  /**
   * Gives up a slot this server holds but will not finish (it is stopping, or could not start the
   * job): its lease expires now, so another server may take it over at its next check instead of
   * waiting out the lease. Nothing happens when this server no longer holds it.
   */
  release(job: string, slot: string): void {
    checkKey(job, slot);
    this.connection.run(
      `UPDATE desk_job_leases SET expires_at = least(expires_at, clock_timestamp())
       WHERE job = $1 AND slot = $2 AND holder = $3 AND finished_at IS NULL`,
      [job, slot, this.holder],
    );
  }

  /**
   * Whether some server holds the slot now (claimed, unfinished, its lease not expired): a run
   * recorded as `running` for a slot nobody holds was left by a server that stopped.
   */
  isLive(job: string, slot: string): boolean {
    checkKey(job, slot);
    const row = this.connection.one('SELECT 1 FROM desk_job_leases WHERE job = $1 AND slot = $2 AND finished_at IS NULL AND expires_at >= clock_timestamp()', [
      job,
      slot,
    ]);
    return row !== undefined;
  }

  /**
   * Runs `work` for the slot if this server wins it, heart-beating every third of the lease while
   * it runs; `signal` aborts if the lease is lost. Returns undefined when another server has it.
   */
  async runOnce(job: string, slot: string, work: (signal: AbortSignal) => Promise<LeaseOutcome>): Promise<LeaseOutcome | undefined> {
    if (!this.claim(job, slot).claimed) return undefined;
    const controller = new AbortController();
    const timer = setInterval(
      () => {
        let held = false;
        try {
          held = this.heartbeat(job, slot);
        } catch {
          held = true; // the database is away: keep working, the lease expires only if it stays away
        }
        if (!held) controller.abort(new LeaseLostError(`${job} for ${slot} was taken over by another server.`));
      },
      Math.max(1, Math.floor(this.leaseMs / 3)),
    );
    let outcome: LeaseOutcome;
    try {
      outcome = await work(controller.signal);
    } catch {
      outcome = 'failed';
    } finally {
      clearInterval(timer);
    }
    this.finish(job, slot, outcome);
    return outcome;
  }
}

function checkKey(job: string, slot: string): void {
  if (typeof job !== 'string' || !JOB_PATTERN.test(job)) throw new InvalidInputError(`Not a job name: ${JSON.stringify(job)}.`);
  if (typeof slot !== 'string' || slot.length < 1 || slot.length > 64) throw new InvalidInputError(`Not a slot: ${JSON.stringify(slot)}.`);
}
