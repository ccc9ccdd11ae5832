import type { AuditRow } from '../../store';
import type { PostgresConnection } from '../../store/postgres/connection';

/** An audit row as the store's AuditLog lists it: the person's view of the trail has the same rows. */
export type ReadableAuditRow = AuditRow;

/**
 * The audit trail as one person on a desk may see it, newest first: a row about a memory record
 * (or one of its archived versions) only when they may read that record, and every row of their
 * own doing. Rows outside /memory/ (portfolio, sessions, skills) stay, as for one PM.
 *
 * Why a filter here rather than row-level security on audit_log: the record's readability is
 * already decided by memory_records' and memory_archive's policies, which these EXISTS subqueries
 * run under (the statement is bound to the person), so no new desk schema is needed and the rule
 * cannot drift from what memory/read allows. A row about a record since deleted is kept only for
 * its actor (and risk, who is not filtered): like the record's archive, it fails closed.
 * "Their own doing" includes what the analyst, a sub-agent or a job did for them (`agent@<me>`,
 * `subagent:t7@<me>`; host/desk-calls.ts actorOnDesk): the part after the first '@' is the person.
 *
 * `path` ending in `/` is everything under that folder; otherwise the exact path (as AuditLog.list).
 */
export function readableAudit(connection: PostgresConnection, me: string, options: { path?: string; limit: number; before?: number }): ReadableAuditRow[] {
  const params: unknown[] = [me];
  const conds: string[] = [];
  if (options.path) {
    params.push(options.path);
    // starts_with, not a range: a range's order would follow the database's collation.
    conds.push(options.path.endsWith('/') ? `starts_with(l.path, $${params.length})` : `l.path = $${params.length}`);
  }
  if (options.before !== undefined) {
    params.push(options.before);
    conds.push(`l.seq < $${params.length}`);
  }
  params.push(options.limit);
  const rows = connection.query<ReadableAuditRow>(
    `SELECT l.seq, l.at, l.actor, l.operation, l.path, l.session_id, l.task_id, l.content_hash FROM audit_log l
     WHERE ${conds.map((c) => `${c} AND `).join('')}(
       l.actor = $1
       OR (strpos(l.actor, '@') > 0 AND substr(l.actor, strpos(l.actor, '@') + 1) = $1)
       OR NOT starts_with(l.path, '/memory/')
       OR EXISTS (SELECT 1 FROM memory_records m
                  WHERE l.path ~ '^/memory/[a-z_]+/[^/]+\\.md$'
                    AND m.category = split_part(l.path, '/', 3) AND m.id = left(split_part(l.path, '/', 4), -3))
       OR EXISTS (SELECT 1 FROM memory_archive a
                  WHERE starts_with(l.path, '/memory/.archive/')
                    AND a.category = split_part(l.path, '/', 4) AND a.name = split_part(l.path, '/', 5))
     )
     ORDER BY l.seq DESC LIMIT $${params.length}`,
    params,
  );
  return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
}
