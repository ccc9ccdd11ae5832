import type { ForgeFS } from '../fs';
import { CLOSED_EXPRESSION_STATUSES, computeBook, expressionPosition, LIVE_EXPRESSION_STATUSES, type Book, type ExpressionPosition } from './book';
import type { GuardrailLimits } from './limits';
import { asOfInstant, parseSnapshot } from './snapshot';

export const STATE_PATH = '/portfolio/state.md';

/**
 * The book as it stands in the database now. Synchronous, so a write transaction can call it
 * and check a status change against exactly what it will commit next to (no race between two
 * approvals: the second one's transaction sees the first one's activation).
 */
export function readBook(fs: ForgeFS, limits: GuardrailLimits, options: { exclude?: string } = {}): Book {
  const snapshot = parseSnapshot(fs.exists(STATE_PATH) ? fs.readFile(STATE_PATH) : null);
  const since = new Date(asOfInstant(snapshot.asOf)).toISOString();
  const rows = [
    ...fs.store.records.withStatus('expressions', LIVE_EXPRESSION_STATUSES),
    // A record closed after the snapshot was written after it too: only those can come out of it.
    ...fs.store.records.withStatus('expressions', CLOSED_EXPRESSION_STATUSES, since),
  ];
  const expressions: ExpressionPosition[] = rows.map((r) => {
    let header: Record<string, unknown> = {};
    try {
      header = JSON.parse(r.header) as Record<string, unknown>;
    } catch {
      // An unreadable header leaves every figure NaN: the check then fails closed on it.
    }
    return { ...expressionPosition(r.id, header), status: (r.status ?? '').toLowerCase() };
  });
  return computeBook(snapshot, expressions, limits, options);
}
