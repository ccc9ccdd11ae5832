import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from '../../common/errors';
import { requirePermission } from '../people';
import { isDecidable } from '../../common/expression-status';
import { listingMeta, type MemoryDocument, renderRecord, sha256 } from '../../fs';
import { checkExpressionHeader, type ExpressionPosition, type GuardrailLimits, measureChecks, type RuleCheck, type Violation } from '../../guardrails';
import type { PostgresConnection } from '../../store/postgres/connection';
import { computeDeskBook, livePositionsWithOwners, openHalt, positionsOf, readBooksWithLimits } from './book';
import { publish } from '../events';
import { requireDeskPermission } from './roles';

/**
 * The one advisory lock every change to the desk's books takes first (approve, setLimits, halt).
 * Desk-wide, not per PM: every approval changes the desk book's totals, so two PMs approving at
 * once under per-PM locks would each check the desk limit against a desk book without the other's
 * trade, and both could pass where only one fits. Under one lock the second approval waits, then
 * (READ COMMITTED: each statement sees what committed before it started) reads the first one's
 * trade in the book. We chose the lock over SERIALIZABLE + retries because approvals do conflict
 * by nature (all of them read the whole desk book): SERIALIZABLE would abort and retry most of a
 * burst, while the lock queues them, each a few milliseconds. A limit change and a halt take the
 * same lock, so an approval is checked either wholly before or wholly after them.
 * The key is an arbitrary constant (0x466f726765426b73, "ForgeBks" in ASCII), unlikely to collide with
 * another application's advisory locks on the same database.
 */
export const DESK_BOOKS_LOCK = '5075401093475887987';

export function lockDeskBooks(connection: PostgresConnection): void {
  connection.query('SELECT pg_advisory_xact_lock($1::bigint)', [DESK_BOOKS_LOCK]);
}

export interface DeskApproval {
  id: string;
  approved: boolean;
  /** False when nothing was written (already active). */
  changed: boolean;
  status: string;
  violations: (Violation & { book: string })[];
  /** Whether a guardrail_checks row was written for this attempt. */
  checked: boolean;
  message: string;
}

const ID = /^E-\d{3,}$/;

interface ExpressionRow {
  rid: string;
  id: string;
  title: string;
  status: string | null;
  confidence: number | null;
  header: string;
  body: string | null;
  content_hash: string;
  owner_id: string | null;
}

/**
 * A PM approves their own Expression on the desk: in one transaction, under the desk-wide lock,
 * the Expression is checked against the PM's book limits and the desk's, the check is recorded
 * (guardrail_checks, as the one-PM path records it), and on a pass it becomes active — its
 * previous version archived, an audit row naming the person, and `expression.approved` announced
 * to every server (pg_notify: delivered only if this commits).
 */
export function approveOnDesk(connection: PostgresConnection, actor: string, expressionId: string, now: () => Date = () => new Date()): DeskApproval {
  if (!ID.test(expressionId)) throw new InvalidInputError(`"${expressionId.slice(0, 20)}" is not an Expression id such as E-004.`);
  return connection.transaction(() => {
    lockDeskBooks(connection);
    // First as if it were their own (refuses a role that may never approve, before anything is read),
    // then against the Expression's real owner.
    const user = requireDeskPermission(connection, actor, 'expressions.approve', { ownerId: actor });
    const row = connection.one<ExpressionRow>(
      `SELECT r.rid, r.id, r.title, r.status, r.confidence, r.header, r.body, r.content_hash, a.owner_id
       FROM memory_records r LEFT JOIN desk_record_access a ON a.rid = r.rid
       WHERE r.category = 'expressions' AND r.id = $1 FOR UPDATE OF r`,
      [expressionId],
    );
    if (!row) throw new NotFoundError(`There is no Expression ${expressionId} on this desk.`);
    // An Expression nobody owns is refused too: the permission table refuses an 'own' check without an owner.
    requirePermission(user, 'expressions.approve', row.owner_id ? { ownerId: row.owner_id } : {});
    const halt = openHalt(connection, actor);
    if (halt) throw new ForbiddenError(`${actor} was halted by ${halt.haltedBy} at ${halt.haltedAt} (${halt.reason}); no approval until risk resumes them.`);

    const header = JSON.parse(row.header) as MemoryDocument['header'];
    const status = typeof header.status === 'string' ? header.status.trim().toLowerCase() : '';
    // The same decision twice (a double-click, a retry on another server) is not a conflict: nothing is written.
    if (status === 'active')
      return {
        id: expressionId,
        approved: true,
        changed: false,
        status,
        violations: [],
        checked: false,
        message: `${expressionId} was already active; nothing changed.`,
      };
    if (!isDecidable(status)) {
      throw new ConflictError(`${expressionId} is ${status || 'without a status'}; only a proposed Expression (or one sent back for review) can be approved.`);
    }

    // The PM's book and the desk's with their limits, then every live Expression: two statements for both books.
    const books = readBooksWithLimits(connection, [actor]);
    const pm = books.find((b) => b.ownerId === actor);
    if (!pm) throw new ConflictError(`${actor} has no book on this desk; a desk admin creates one. Nothing was approved.`);
    const pmBook = pm.bookId;
    const pmLimits = pm.limits;
    const deskLimits = books.find((b) => b.ownerId === null)?.limits ?? null;
    const unset = [!pmLimits && `${pmBook}'s book`, !deskLimits && 'the desk book'].filter(Boolean);
    if (!pmLimits || !deskLimits) throw new ConflictError(`Risk has not set limits for ${unset.join(' and ')}; nothing can be approved until they do.`);

    const at = now().toISOString();
    // Both books ask whether the trade's View exists: read once.
    const views = new Map<string, boolean>();
    const viewExists = (v: string) => {
      if (!/^V-\d+$/.test(v)) return false;
      if (!views.has(v)) views.set(v, !!connection.one("SELECT 1 FROM memory_records WHERE category = 'views' AND id = $1", [v]));
      return views.get(v) as boolean;
    };
    const positions = livePositionsWithOwners(connection);
    const runs = [
      { book: pmBook, ...runCheck(header, positionsOf(positions, actor), pmLimits, viewExists, expressionId) },
      { book: 'desk', ...runCheck(header, positionsOf(positions, null), deskLimits, viewExists, expressionId) },
    ];
    const checks = runs.flatMap((r) => r.checks.map((c) => ({ ...c, book: r.book })));
    const violations = distinctViolations(runs);
    const path = `/memory/expressions/${expressionId}.md`;
    recordCheck(connection, { at, path, actor, outcome: violations.length ? 'refused' : 'approved', checks });
    if (violations.length) {
      return {
        id: expressionId,
        approved: false,
        changed: false,
        status,
        violations,
        checked: true,
        message: `${expressionId} was not approved: ${violations.map((v) => `${v.book}: ${v.rule} ${v.actual} (limit ${v.limit})`).join('; ')}.`,
      };
    }

    // A trade back from review keeps when it first went live; a proposal goes live now.
    const activatedAt = status === 'review_required' && header.activated_at ? header.activated_at : at;
    const next: MemoryDocument = {
      id: row.id,
      title: row.title,
      header: { ...header, status: 'active', approved_by: actor, approved_at: at, activated_at: activatedAt },
      body: row.body,
    };
    activate(connection, row, next, actor, at);
    publish(connection, { kind: 'expression.approved', id: expressionId, owner: actor, by: actor });
    return { id: expressionId, approved: true, changed: true, status: 'active', violations: [], checked: true, message: `${expressionId} is active.` };
  });
}

/** The same check as the one-PM path (guardrails' checkExpressionHeader), against one book. */
function runCheck(header: Record<string, unknown>, positions: ExpressionPosition[], limits: GuardrailLimits, viewExists: (id: string) => boolean, id: string) {
  const book = computeDeskBook(positions, limits, id);
  const violations = checkExpressionHeader(header, book, limits, viewExists);
  return { violations, checks: measureChecks(header, book, limits, violations) };
}

/** Each book's violations, naming the book; a trade-level one both books found the same way is said once. */
function distinctViolations(runs: { book: string; violations: Violation[] }[]): (Violation & { book: string })[] {
  const seen = new Set<string>();
  const out: (Violation & { book: string })[] = [];
  for (const r of runs) {
    for (const v of r.violations) {
      const key = `${v.rule}|${v.actual}|${v.limit}|${v.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ ...v, book: r.book });
    }
  }
  return out;
}

function recordCheck(
  connection: PostgresConnection,
  c: { at: string; path: string; actor: string; outcome: 'approved' | 'refused'; checks: (RuleCheck & { book: string })[] },
): void {
  connection.run(
    `INSERT INTO guardrail_checks (at, path, stage, outcome, passed, actor, session_id, task_id, book_as_of, checks)
     VALUES ($1, $2, 'approve', $3, $4, $5, NULL, NULL, $1, $6)`,
    [c.at, c.path, c.outcome, c.checks.every((x) => x.pass) ? 1 : 0, c.actor, JSON.stringify(c.checks)],
  );
}

/**
 * Writes the approved version as the SQLite store writes a versioned record (fs/memory-backend.ts
 * write + archive): the previous version's canonical text into memory_archive (named
 * `<id>_<compact time>.md`, audited as `archive`), the row's columns and content_hash from the new
 * canonical text (sha256 of renderRecord), and an audit row naming the person.
 */
function activate(connection: PostgresConnection, row: ExpressionRow, next: MemoryDocument, actor: string, at: string): void {
  const previous = renderRecord({ id: row.id, title: row.title, header: JSON.parse(row.header), body: row.body });
  const base = `${row.id}_${at.replace(/[-:.]/g, '')}`;
  let name = `${base}.md`;
  for (let n = 2; connection.one("SELECT 1 FROM memory_archive WHERE category = 'expressions' AND name = $1", [name]); n++) name = `${base}_${n}.md`;
  connection.run(
    `INSERT INTO memory_archive (category, id, name, archived_at, title, status, confidence, content, content_hash)
     VALUES ('expressions', $1, $2, $3, $4, $5, $6, $7, $8)`,
    [row.id, name, at, row.title, row.status, row.confidence, previous, row.content_hash],
  );
  audit(connection, at, actor, 'archive', `/memory/.archive/expressions/${name}`, row.content_hash);
  const content = renderRecord(next);
  const hash = sha256(content);
  connection.run("UPDATE memory_records SET status = 'active', header = $1, meta = $2, updated_at = $3, content_hash = $4 WHERE rid = $5", [
    JSON.stringify(next.header),
    listingMeta('expressions', next.header),
    at,
    hash,
    row.rid,
  ]);
  audit(connection, at, actor, 'approve', `/memory/expressions/${row.id}.md`, hash);
}

export function audit(connection: PostgresConnection, at: string, actor: string, operation: string, path: string, hash: string | null): void {
  connection.run('INSERT INTO audit_log (at, actor, operation, path, session_id, task_id, content_hash) VALUES ($1, $2, $3, $4, NULL, NULL, $5)', [
    at,
    actor,
    operation,
    path,
    hash,
  ]);
}
