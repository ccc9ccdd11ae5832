import type { GainsWhen, Quote } from './terms';

/** One daily observation of the instrument (the close, in the series' units). */
export interface PricePoint {
  date: string;
  close: number;
}

export type ExitReason = 'target' | 'stop' | 'time';

export interface ExitFound {
  reason: ExitReason;
  date: string;
  price: number;
}

export interface ExitRules {
  direction: GainsWhen;
  target: number | null;
  stop: number | null;
  /** Time exit (inclusive), YYYY-MM-DD. */
  exitBy: string | null;
}

/** How stale the last close before a time exit may be and still be its exit price (weekends, holidays). */
const TIME_EXIT_TOLERANCE_DAYS = 7;

export const addDays = (day: string, n: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/**
 * The first exit, by date, among target, stop and time, over closes after `entryDate` up to `today`.
 *
 * We only have daily closes, so a level is triggered by the first close at or beyond it and the
 * trade exits AT THAT CLOSE: when the market gaps through a stop (yesterday above it, today far
 * below), the exit is at the gap price and the loss is bigger than the stop promised — the Outcome
 * must show the loss the book would really have taken, not the one planned. A target is treated the
 * same way (the close, which may be better than the target). The time exit is the last close on or
 * before `exitBy`, once that day is over (or a close dated on/after it exists).
 * Returns null when nothing has triggered yet, or a `stale` reason when the time exit is due but the
 * data does not reach it.
 */
export function findExit(points: readonly PricePoint[], rules: ExitRules, entryDate: string, today: string): ExitFound | null | { stale: string } {
  let lastBeforeTime: PricePoint | null = null;
  let reachedExitDay = false;
  for (const p of points) {
    if (p.date <= entryDate || p.date > today) continue;
    if (rules.exitBy && p.date > rules.exitBy) {
      reachedExitDay = true;
      break;
    }
    if (rules.exitBy && p.date === rules.exitBy) reachedExitDay = true;
    const up = rules.direction === 'up';
    if (rules.stop !== null && (up ? p.close <= rules.stop : p.close >= rules.stop)) return { reason: 'stop', date: p.date, price: p.close };
    if (rules.target !== null && (up ? p.close >= rules.target : p.close <= rules.target)) return { reason: 'target', date: p.date, price: p.close };
    lastBeforeTime = p;
  }
  if (!rules.exitBy || !(reachedExitDay || today > rules.exitBy)) return null;
  if (!lastBeforeTime || daysBetween(lastBeforeTime.date, rules.exitBy) > TIME_EXIT_TOLERANCE_DAYS) {
    const last = lastBeforeTime ? `the last close is ${lastBeforeTime.date}` : 'there is no close after entry';
    return { stale: `its time exit ${rules.exitBy} has passed but ${last}; waiting for market data up to ${rules.exitBy}` };
  }
  return { reason: 'time', date: lastBeforeTime.date, price: lastBeforeTime.close };
}

export interface PnlInput {
  quote: Quote;
  direction: GainsWhen;
  entry: number;
  exit: number;
  /** % of NAV, positive. */
  notional: number;
  /** Years of duration the trade adds, positive (yields and spreads only). */
  durationImpact: number;
}

export interface Pnl {
  /** P&L as % of the position's notional. */
  pnlPct: number;
  /** P&L in basis points of NAV. */
  pnlBp: number;
  /** For yields and spreads: the favourable move in bp (negative when it went against). */
  moveBp: number | null;
  /** The trade made money (a zero P&L is not a hit). */
  hit: boolean;
}

const r = (x: number, dp: number) => Math.round(x * 10 ** dp) / 10 ** dp;

/**
 * P&L of one trade from its entry and exit. s = +1 when it gains as the series rises, −1 when it falls.
 *
 *   price-quoted:  pnl_pct = s × (exit − entry) / entry × 100
 *                  pnl_bp  = pnl_pct × notional          (2% on a 12%-of-NAV position = 0.24% NAV = 24 bp)
 *   yield (in %):  move_bp = s × (exit − entry) × 100
 *   spread (bp):   move_bp = s × (exit − entry)
 *                  pnl_bp  = move_bp × duration_impact    (1 bp on 1 year of duration = 1 bp of NAV)
 *                  pnl_pct = pnl_bp / notional
 *
 * Both use the book's own fields (notional in % of NAV, duration_impact in years), so the Outcome
 * and the exposure the guardrails measured agree.
 */
export function tradePnl(input: PnlInput): Pnl | { problem: string } {
  const s = input.direction === 'up' ? 1 : -1;
  if (!(input.notional > 0)) return { problem: 'its notional (% of NAV) is missing or zero, so its P&L cannot be sized' };
  if (input.quote === 'price') {
    if (!(input.entry > 0)) return { problem: `its entry price ${input.entry} is not positive` };
    const pnlPct = (s * (input.exit - input.entry) * 100) / input.entry;
    const pnlBp = pnlPct * input.notional;
    return { pnlPct: r(pnlPct, 4), pnlBp: r(pnlBp, 2), moveBp: null, hit: r(pnlBp, 2) > 0 };
  }
  if (!(input.durationImpact > 0)) {
    return { problem: 'it is quoted in a yield or spread but has no duration_impact (years of duration), so the move cannot be turned into P&L' };
  }
  const moveBp = s * (input.exit - input.entry) * (input.quote === 'yield' ? 100 : 1);
  const pnlBp = moveBp * input.durationImpact;
  return { pnlPct: r(pnlBp / input.notional, 4), pnlBp: r(pnlBp, 2), moveBp: r(moveBp, 2), hit: r(pnlBp, 2) > 0 };
}
