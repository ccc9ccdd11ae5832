import type { Book } from './book';
import { factorKey } from './snapshot';

/**
 * The figures a trade's header makes against the hard limits, read one way for everyone who shows
 * or stores them: the check log kept at write and approval, and the Expression page's guardrail
 * table. Two readings had drifted apart once already (a figure the page showed and the log stored
 * differently would make a PM doubt both).
 */

/** A header number as the guardrails read it: a finite number, or a numeric string with an optional trailing %. */
export function readFigure(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v.trim().replace(/%$/, ''));
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** Six decimals, as the check rounds a violation's figure, so a passing and a failing figure read alike. */
export const roundFigure = (x: number) => Math.round(x * 1e6) / 1e6;

export interface TradeFigures {
  /** |max_loss_pct|, % of NAV. */
  loss: number | null;
  notional: number | null;
  /** The book's gross exposure with this trade, % of NAV. */
  gross: number | null;
  /** The factor key, or null when the header names none. */
  factor: string | null;
  /** The factor's share of gross exposure with this trade, %. */
  share: number | null;
  /** |duration_impact|. */
  duration: number | null;
}

/**
 * Each figure, rounded; null where the header's field cannot be read. `inBook`: the trade is already
 * counted in `book` (a booked trade shown as it stands), so it is not added a second time.
 */
export function tradeFigures(header: Record<string, unknown>, book: Pick<Book, 'gross' | 'factors'>, opts: { inBook?: boolean } = {}): TradeFigures {
  const inBook = opts.inBook ?? false;
  const abs = (x: number | null) => (x === null ? null : roundFigure(Math.abs(x)));
  const notional = readFigure(header.notional);
  const gross = notional === null ? null : inBook ? book.gross : book.gross + Math.abs(notional);
  const factor = typeof header.factor === 'string' && header.factor.trim() ? factorKey(header.factor) : null;
  const inFactor = factor ? (book.factors[factor] ?? 0) + (inBook ? 0 : Math.abs(notional ?? 0)) : 0;
  return {
    loss: abs(readFigure(header.max_loss_pct)),
    notional,
    gross: gross === null ? null : roundFigure(gross),
    factor,
    share: factor && notional !== null && gross ? roundFigure((inFactor / gross) * 100) : null,
    duration: abs(readFigure(header.duration_impact)),
  };
}
