import { InvalidInputError } from '../../common/errors';
import type { PostgresConnection } from '../../store/postgres/connection';

export interface ClosedExpression {
  rid: string;
  /** The status it had just before this close: one of `fromStatuses`. */
  previousStatus: string;
}

const STATUS_PATTERN = /^[a-z][a-z_]{0,31}$/;

/**
 * Moves an Expression from one of `fromStatuses` to `toStatus` with one conditional UPDATE, so
 * when two servers' trackers see the same exit only one closes it: the other's UPDATE finds the
 * row no longer in `fromStatuses` (PostgreSQL re-checks the condition after the winner commits)
 * and gets undefined — it then records nothing.
 *
 * The record's header carries the status too and is moved with it. The winner writes the rest of
 * the close (exit price, outcome, content hash) in the same transaction as this call.
 */
export function closeOnce(
  connection: PostgresConnection,
  expressionId: string,
  fromStatuses: readonly string[],
  toStatus: string,
): ClosedExpression | undefined {
  if (fromStatuses.length === 0 || ![...fromStatuses, toStatus].every((s) => STATUS_PATTERN.test(s))) {
    throw new InvalidInputError(`closeOnce takes statuses such as "active"; got from ${JSON.stringify(fromStatuses)} to ${JSON.stringify(toStatus)}.`);
  }
  if (fromStatuses.includes(toStatus)) throw new InvalidInputError(`Closing to "${toStatus}" from "${toStatus}" could happen twice.`);
  const row = connection.one<{ rid: string; previous_status: string }>(
    `UPDATE memory_records AS m
       SET status = $3, header = jsonb_set(m.header::jsonb, '{status}', to_jsonb($3::text))::text,
           updated_at = to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
     FROM (SELECT rid, status FROM memory_records WHERE category = 'expressions' AND id = $1 FOR UPDATE) AS before
     WHERE m.rid = before.rid AND m.status = ANY($2::text[])
     RETURNING m.rid, before.status AS previous_status`,
    [expressionId, [...fromStatuses], toStatus],
  );
  return row ? { rid: String(row.rid), previousStatus: row.previous_status } : undefined;
}
