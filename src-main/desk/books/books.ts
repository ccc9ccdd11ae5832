import { ConflictError, InvalidInputError, NotFoundError } from '../../common/errors';
import { sha256 } from '../../fs';
import { type GuardrailLimits, guardrailLimits } from '../../guardrails';
import type { PostgresConnection } from '../../store/postgres/connection';
import { publish } from '../events';
import { approveOnDesk, audit, type DeskApproval, lockDeskBooks } from './approve';
import { type BookLimits, type DeskBookView, type HaltInfo, openHalt, readBookView, readBookViews, readLimits } from './book';
import { requireDeskPermission } from './roles';

export interface HaltResult {
  pmId: string;
  halted: boolean;
  /** False when the PM already was in that state: nothing was written. */
  changed: boolean;
  halt: HaltInfo | null;
  message: string;
}

/**
 * The desk's books on its PostgreSQL database: the limits risk sets, the halts risk puts on a PM,
 * each book's figures, and a PM's approval checked against their book and the desk's. Synchronous,
 * like the store: each change is one transaction under the desk-wide lock (approve.ts says why).
 */
export class DeskBooks {
  constructor(
    private readonly connection: PostgresConnection,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Risk sets a book's four limits (the desk book's bound the sum of all PM books). */
  setLimits(actor: string, bookId: string, limits: GuardrailLimits): BookLimits {
    const parsed = guardrailLimits.strict().safeParse(limits);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new InvalidInputError(`Limits for ${bookId.slice(0, 40)}: ${issue.path.join('.') || 'limits'} ${issue.message}. Nothing was changed.`);
    }
    const l = parsed.data;
    return this.connection.transaction(() => {
      lockDeskBooks(this.connection);
      requireDeskPermission(this.connection, actor, 'limits.set');
      if (!this.connection.one('SELECT 1 FROM desk_books WHERE book_id = $1', [bookId])) {
        throw new NotFoundError(`There is no book "${bookId.slice(0, 40)}" on this desk; the desk book is "desk", each PM's book is named by its PM.`);
      }
      this.connection.run(
        `INSERT INTO desk_book_limits (book_id, max_single_risk, max_gross, max_duration, max_factor_concentration, set_by, set_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (book_id) DO UPDATE SET max_single_risk = EXCLUDED.max_single_risk, max_gross = EXCLUDED.max_gross,
           max_duration = EXCLUDED.max_duration, max_factor_concentration = EXCLUDED.max_factor_concentration,
           set_by = EXCLUDED.set_by, set_at = EXCLUDED.set_at`,
        [bookId, l.maxSingleRisk, l.maxGross, l.maxDuration, l.maxFactorConcentration, actor, this.now().toISOString()],
      );
      // The figures themselves go into the hash, so the audit trail shows that (and when) they changed.
      const at = this.now().toISOString();
      audit(this.connection, at, actor, 'set_limits', `/desk/books/${bookId}/limits`, sha256(JSON.stringify(l)));
      // Every server's Home (the PM's usage bars, risk's desk view) re-reads the book on this; sent on commit only.
      publish(this.connection, { kind: 'book.limits_changed', book: bookId, by: actor });
      return readLimits(this.connection, bookId)!;
    });
  }

  /** Risk halts a PM: no approval of theirs passes until resume. Halting a halted PM changes nothing. */
  halt(actor: string, pmId: string, reason: string): HaltResult {
    const why = cleanReason(reason);
    return this.connection.transaction(() => {
      // Under the books' lock: an approval already running finishes first; every later one sees the halt.
      lockDeskBooks(this.connection);
      requireDeskPermission(this.connection, actor, 'pm.halt');
      this.requirePm(pmId);
      const open = openHalt(this.connection, pmId);
      if (open) return { pmId, halted: true, changed: false, halt: open, message: `${pmId} was already halted by ${open.haltedBy}; nothing changed.` };
      this.connection.run('INSERT INTO desk_halts (pm_id, halted_by, halted_at, reason) VALUES ($1, $2, $3, $4)', [pmId, actor, this.now().toISOString(), why]);
      audit(this.connection, this.now().toISOString(), actor, 'halt', `/desk/users/${pmId}/halt`, null);
      publish(this.connection, { kind: 'pm.halted', pm: pmId, by: actor });
      const halt = openHalt(this.connection, pmId);
      return { pmId, halted: true, changed: true, halt, message: `${pmId} is halted: no approval until risk resumes them.` };
    });
  }

  /** Risk lifts a PM's halt (kept with who lifted it, when and why). Resuming a PM who is not halted changes nothing. */
  resume(actor: string, pmId: string, reason: string): HaltResult {
    const why = cleanReason(reason);
    return this.connection.transaction(() => {
      lockDeskBooks(this.connection);
      requireDeskPermission(this.connection, actor, 'pm.halt');
      this.requirePm(pmId);
      const { rowCount } = this.connection.run(
        'UPDATE desk_halts SET resumed_by = $2, resumed_at = $3, resume_reason = $4 WHERE pm_id = $1 AND resumed_at IS NULL',
        [pmId, actor, this.now().toISOString(), why],
      );
      if (!rowCount) return { pmId, halted: false, changed: false, halt: null, message: `${pmId} was not halted; nothing changed.` };
      audit(this.connection, this.now().toISOString(), actor, 'resume', `/desk/users/${pmId}/halt`, null);
      publish(this.connection, { kind: 'pm.resumed', pm: pmId, by: actor });
      return { pmId, halted: false, changed: true, halt: null, message: `${pmId} may approve again.` };
    });
  }

  /** A PM's book: their live Expressions, against their limits. */
  bookOf(pmId: string): DeskBookView {
    return this.connection.transaction(() => readBookView(this.connection, pmId));
  }

  /** The desk book: every live Expression, against the desk's limits. */
  deskBook(): DeskBookView {
    return this.connection.transaction(() => readBookView(this.connection, null));
  }

  /**
   * The desk book and these PMs' books, read at one instant: what risk reads. One snapshot
   * (REPEATABLE READ), so an approval committing meanwhile is in all of them or none — the desk's
   * gross is always the sum of the PMs' books on the page — and one transaction, not one per book.
   */
  booksAtOnce(pmIds: readonly string[]): DeskBookView[] {
    return this.connection.transaction(() => readBookViews(this.connection, [null, ...pmIds]), { isolation: 'repeatable read' });
  }

  /** A PM approves their own Expression (approve.ts). */
  approve(actor: string, expressionId: string): DeskApproval {
    return approveOnDesk(this.connection, actor, expressionId, this.now);
  }

  private requirePm(pmId: string): void {
    const user = this.connection.one<{ role: string }>('SELECT role FROM desk_users WHERE user_id = $1', [pmId]);
    if (!user) throw new NotFoundError(`There is no user "${pmId.slice(0, 40)}" on this desk.`);
    if (user.role !== 'pm') throw new ConflictError(`${pmId} is not a PM; only a PM's approvals can be halted.`);
  }
}

function cleanReason(reason: string): string {
  const why = String(reason ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!why) throw new InvalidInputError('Say why (a reason is kept with the halt, for the PM and the audit).');
  if (why.length > 500) throw new InvalidInputError(`The reason is ${why.length} characters; keep it to 500.`);
  return why;
}
