/**
 * Scheduled jobs run once per slot across the desk: one row per (job, slot), claimed by the first
 * server to insert it.
 *
 * Decisions:
 * - The slot is the scheduler's slot time as ISO text (`2026-11-28T07:00:00.000Z`), the key the
 *   scheduler already uses (schedule_state.last_slot): every server computes the same text for
 *   the same slot, whatever its clock's zone.
 * - The lease is a heartbeat with an expiry (expires_at), set from the database's clock, never a
 *   server's: a server killed mid-job stops heart-beating, and once its lease expires another
 *   server may take the slot over (`attempts` counts how often it was claimed). A finished slot
 *   (finished_at set) is never claimed again, whatever its outcome.
 */
export const LEASES_SCHEMA: readonly string[] = [
  `CREATE TABLE desk_job_leases (
    job text NOT NULL CHECK (job ~ '^[a-z][a-z0-9_]{0,63}$'),
    slot text NOT NULL CHECK (length(slot) BETWEEN 1 AND 64),
    holder text NOT NULL CHECK (length(holder) BETWEEN 1 AND 200),
    claimed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    heartbeat_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    expires_at timestamptz NOT NULL,
    attempts integer NOT NULL DEFAULT 1 CHECK (attempts >= 1),
    finished_at timestamptz,
    outcome text CHECK (outcome IN ('ok', 'failed', 'skipped')),
    CHECK ((finished_at IS NULL) = (outcome IS NULL)),
    PRIMARY KEY (job, slot)
  )`,
];
