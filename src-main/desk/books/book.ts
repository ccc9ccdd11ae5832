import { NotFoundError } from '../../common/errors';
import {
  type Book,
  computeBook,
  type ExpressionPosition,
  expressionPosition,
  type GuardrailLimits,
  LIVE_EXPRESSION_STATUSES,
  type LimitUsage,
  type OpenExpression,
  parseSnapshot,
} from '../../guardrails';
import type { PostgresConnection } from '../../store/postgres/connection';

/** A book's limits as risk set them. */
export interface BookLimits extends GuardrailLimits {
  setBy: string;
  setAt: string;
}

/** A book as risk and the PM see it: the same figures the approval check reads. */
export interface DeskBookView {
  bookId: string;
  kind: 'pm' | 'desk';
  /** The PM whose book it is; null for the desk book. */
  ownerId: string | null;
  /** null: risk has set none, and nothing in this book can be approved until they do. */
  limits: BookLimits | null;
  gross: number;
  net: number;
  duration: number;
  factors: Record<string, number>;
  open: OpenExpression[];
  /** Each limit's figure against the limit; empty while the book has no limits. */
  usage: LimitUsage[];
  /** Whether every figure is within its limit (null without limits). */
  withinLimits: boolean | null;
  unmeasured: string[];
  unfactored: string[];
  /** The open halt on the PM (PM books only). */
  halt: HaltInfo | null;
}

export interface HaltInfo {
  pmId: string;
  haltedBy: string;
  haltedAt: string;
  reason: string;
}

/**
 * A desk has no positions snapshot: its books are exactly the live Expressions in the database.
 * computeBook counts an Expression on top of the snapshot when it was activated after the
 * snapshot's as-of, so the empty snapshot (as of 1970) and an activation stamp on every row (the
 * record's last write when the header has none) make every live Expression count once.
 */
const NO_SNAPSHOT = parseSnapshot(null);

interface LiveRow {
  id: string;
  status: string | null;
  header: string;
  updated_at: string;
  owner_id?: string | null;
}

/** A live Expression's position, with the PM who owns it (null: nobody — the server's own work proposed it). */
export type OwnedPosition = ExpressionPosition & { ownerId: string | null };

/** The live Expressions owned by `ownerId` (desk_record_access), or every live Expression (null: the desk book). */
export function livePositions(connection: PostgresConnection, ownerId: string | null): ExpressionPosition[] {
  const statuses = [...LIVE_EXPRESSION_STATUSES];
  // The desk book counts every live Expression, owned or not: capital nobody claims still counts.
  const rows =
    ownerId === null
      ? connection.query<LiveRow>(
          "SELECT r.id, r.status, r.header, r.updated_at FROM memory_records r WHERE r.category = 'expressions' AND r.status = ANY($1::text[])",
          [statuses],
        )
      : connection.query<LiveRow>(
          `SELECT r.id, r.status, r.header, r.updated_at FROM memory_records r JOIN desk_record_access a ON a.rid = r.rid
           WHERE r.category = 'expressions' AND r.status = ANY($1::text[]) AND a.owner_id = $2`,
          [statuses, ownerId],
        );
  return rows.map(positionOf);
}

/**
 * Every live Expression on the desk with its owner, in one statement: what the desk book counts,
 * and, filtered by owner, each PM's book (an approval and risk's page need both).
 */
export function livePositionsWithOwners(connection: PostgresConnection): OwnedPosition[] {
  const rows = connection.query<LiveRow>(
    `SELECT r.id, r.status, r.header, r.updated_at, a.owner_id FROM memory_records r LEFT JOIN desk_record_access a ON a.rid = r.rid
     WHERE r.category = 'expressions' AND r.status = ANY($1::text[])`,
    [[...LIVE_EXPRESSION_STATUSES]],
  );
  return rows.map((r) => ({ ...positionOf(r), ownerId: r.owner_id ?? null }));
}

/** Only the positions of `ownerId`'s book (null: the desk book, every one). */
export function positionsOf(positions: readonly OwnedPosition[], ownerId: string | null): ExpressionPosition[] {
  return ownerId === null ? [...positions] : positions.filter((p) => p.ownerId === ownerId);
}

function positionOf(r: LiveRow): ExpressionPosition {
  let header: Record<string, unknown> = {};
  try {
    header = JSON.parse(r.header) as Record<string, unknown>;
  } catch {
    // An unreadable header leaves every figure NaN: the check then fails closed on it.
  }
  const p = expressionPosition(r.id, header);
  const stamped = p.activatedAt && Date.parse(p.activatedAt) > 0 ? p.activatedAt : r.updated_at;
  return { ...p, status: (r.status ?? '').toLowerCase(), activatedAt: stamped };
}

/** The book over `positions`, one Expression taken out when given (the one being checked, which the check adds once). */
export function computeDeskBook(positions: ExpressionPosition[], limits: GuardrailLimits, exclude?: string): Book {
  return computeBook(NO_SNAPSHOT, positions, limits, exclude ? { exclude } : {});
}

interface LimitsRow {
  max_single_risk: number | null;
  max_gross: number | null;
  max_duration: number | null;
  max_factor_concentration: number | null;
  set_by: string | null;
  set_at: string | null;
}

export function readLimits(connection: PostgresConnection, bookId: string): BookLimits | null {
  return limitsOf(
    connection.one<LimitsRow>(
      'SELECT max_single_risk, max_gross, max_duration, max_factor_concentration, set_by, set_at FROM desk_book_limits WHERE book_id = $1',
      [bookId],
    ),
  );
}

/** A book on the desk with its limits (null: risk has set none). */
export interface BookWithLimits {
  bookId: string;
  ownerId: string | null;
  limits: BookLimits | null;
}

/** The desk book and these PMs' books, each with its limits, in one statement. */
export function readBooksWithLimits(connection: PostgresConnection, pmIds: readonly string[]): BookWithLimits[] {
  return connection
    .query<LimitsRow & { book_id: string; owner_id: string | null }>(
      `SELECT b.book_id, b.owner_id, l.max_single_risk, l.max_gross, l.max_duration, l.max_factor_concentration, l.set_by, l.set_at
       FROM desk_books b LEFT JOIN desk_book_limits l ON l.book_id = b.book_id
       WHERE b.kind = 'desk' OR b.owner_id = ANY($1::text[])`,
      [[...pmIds]],
    )
    .map((r) => ({ bookId: r.book_id, ownerId: r.owner_id, limits: limitsOf(r) }));
}

function limitsOf(row: LimitsRow | undefined): BookLimits | null {
  // A LEFT JOIN without a limits row gives nulls: no limits.
  if (!row || row.set_by === null) return null;
  return {
    maxSingleRisk: Number(row.max_single_risk),
    maxGross: Number(row.max_gross),
    maxDuration: Number(row.max_duration),
    maxFactorConcentration: Number(row.max_factor_concentration),
    setBy: row.set_by,
    setAt: String(row.set_at),
  };
}

export function openHalt(connection: PostgresConnection, pmId: string): HaltInfo | null {
  const row = connection.one<{ halted_by: string; halted_at: string; reason: string }>(
    'SELECT halted_by, halted_at, reason FROM desk_halts WHERE pm_id = $1 AND resumed_at IS NULL',
    [pmId],
  );
  return row ? { pmId, haltedBy: row.halted_by, haltedAt: String(row.halted_at), reason: row.reason } : null;
}

/** The PM's book id, or undefined when the PM has none. */
export function bookIdOf(connection: PostgresConnection, pmId: string): string | undefined {
  return connection.one<{ book_id: string }>("SELECT book_id FROM desk_books WHERE owner_id = $1 AND kind = 'pm'", [pmId])?.book_id;
}

/** Reads one book: a PM's (ownerId) or the desk's (null). */
export function readBookView(connection: PostgresConnection, ownerId: string | null): DeskBookView {
  const bookId = ownerId === null ? 'desk' : bookIdOf(connection, ownerId);
  if (!bookId) throw new NoBookError(ownerId);
  const limits = readLimits(connection, bookId);
  return bookView(bookId, ownerId, limits, livePositions(connection, ownerId), ownerId === null ? null : openHalt(connection, ownerId));
}

/**
 * Reads several books (null: the desk book) in three statements whatever their number — the books
 * with their limits, the open halts, every live Expression with its owner — where one book at a
 * time took four each: risk's page reads every book, and its server answers nobody else meanwhile.
 * Inside a transaction for one snapshot (booksAtOnce reads under REPEATABLE READ).
 */
export function readBookViews(connection: PostgresConnection, ownerIds: readonly (string | null)[]): DeskBookView[] {
  const pmIds = ownerIds.filter((o): o is string => o !== null);
  const books = readBooksWithLimits(connection, pmIds);
  const halts = new Map(
    connection
      .query<{ pm_id: string; halted_by: string; halted_at: string; reason: string }>(
        'SELECT pm_id, halted_by, halted_at, reason FROM desk_halts WHERE resumed_at IS NULL AND pm_id = ANY($1::text[]) ORDER BY halted_at',
        [pmIds],
      )
      .map((r) => [r.pm_id, { pmId: r.pm_id, haltedBy: r.halted_by, haltedAt: String(r.halted_at), reason: r.reason }]),
  );
  const positions = livePositionsWithOwners(connection);
  return ownerIds.map((ownerId) => {
    const book = books.find((b) => b.ownerId === ownerId);
    if (!book) throw new NoBookError(ownerId);
    return bookView(book.bookId, ownerId, book.limits, positionsOf(positions, ownerId), ownerId === null ? null : (halts.get(ownerId) ?? null));
  });
}

class NoBookError extends NotFoundError {
  constructor(ownerId: string | null) {
    super(`${ownerId} has no book on this desk; a desk admin creates one when adding a PM.`);
  }
}

function bookView(bookId: string, ownerId: string | null, limits: BookLimits | null, positions: ExpressionPosition[], halt: HaltInfo | null): DeskBookView {
  // Without limits the usage figures have nothing to be measured against; the book's totals still show.
  const book = computeDeskBook(positions, limits ?? PLACEHOLDER_LIMITS);
  const usage = limits ? book.usage : [];
  return {
    bookId,
    kind: ownerId === null ? 'desk' : 'pm',
    ownerId,
    limits,
    gross: book.gross,
    net: book.net,
    duration: book.duration,
    factors: book.factors,
    open: book.open,
    usage,
    withinLimits: limits ? usage.every((u) => u.value <= u.limit) : null,
    unmeasured: book.unmeasured,
    unfactored: book.unfactored,
    halt,
  };
}

/** Only so computeBook can run; its usage rows are dropped (never shown or checked against). */
const PLACEHOLDER_LIMITS: GuardrailLimits = { maxSingleRisk: 1, maxGross: 1, maxDuration: 1, maxFactorConcentration: 100 };
