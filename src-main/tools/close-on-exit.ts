import { isAppError } from '../common/errors';
import { sha256, type ForgeFS } from '../fs';
import type { GuardrailLimits } from '../guardrails';
import { closedExpressionContent, type CloseExpressionPort } from '../tracking';
import { rewriteRecord } from './rewrite';

/** The record no longer says what the exit was worked out on. */
class ExitStale extends Error {}

/**
 * The tracker's close (OutcomeTracker's CloseExpressionPort) through the same write path a PM's
 * close takes: guardrails, `closed_at` stamp, archive, audit, the Outcome stub, the book's event.
 * The closed text is built from the record as it is under the write lock, and only while it still
 * says what the exit was worked out on (`exit.basis`): an edit meanwhile (a moved stop) is never
 * overwritten, and the tracker checks the trade again on its new terms (`changed: true`).
 */
export function closeOnExit(fs: ForgeFS, limits: () => GuardrailLimits): CloseExpressionPort {
  return async (id, exit) => {
    const path = `/memory/expressions/${id}.md`;
    const render = (current: string) => {
      if (exit.basis && sha256(current) !== exit.basis) throw new ExitStale();
      // Refuses (ConflictError) once the trade is no longer live: a PM close meanwhile wins.
      return closedExpressionContent(current, exit);
    };
    try {
      const r = await rewriteRecord(fs, path, render, { actor: 'scheduler' }, { limits });
      return { ok: r.ok, message: r.message };
    } catch (e) {
      if (e instanceof ExitStale) return { ok: false, changed: true, message: `${id} was edited while its exit was being checked; nothing was closed.` };
      if (isAppError(e) && e.code === 'conflict') return { ok: false, message: e.message };
      throw e;
    }
  };
}
