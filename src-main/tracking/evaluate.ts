import type { MarketPort, PriceSeries } from './market-port';
import { addDays, type ExitFound, findExit, type Pnl, tradePnl } from './pnl';
import { type GainsWhen, type Quote, resolveDirection, resolveLevel, resolveQuote, type TradeTerms } from './terms';

/** A trade priced against its market data: the resolved rules, and its exit if one has triggered. */
export interface TradeEvaluation {
  instrument: string;
  series: Pick<PriceSeries, 'asOf' | 'source' | 'provider'>;
  quote: Quote;
  direction: GainsWhen;
  entryPrice: number;
  entryDate: string;
  target: number | null;
  stop: number | null;
  exitBy: string | null;
  /** Null while nothing has triggered. */
  exit: (ExitFound & { pnl: Pnl }) | null;
  /** Set when a time exit is due but the data does not reach it yet. */
  waiting: string | null;
}

export interface EvaluateOptions {
  entryDate: string;
  /** Use the close on the entry date even when the record states an entry price (a declined idea never traded). */
  entryFromMarket?: boolean;
  /** Today (YYYY-MM-DD): no close after it is used. */
  today: string;
  /** An exit date no later than this (the Counterfactual's tracking window). */
  exitByCap?: { date: string } | null;
  signal?: AbortSignal;
}

/** How far before the entry date to look for the close the trade was entered at (weekends, holidays). */
const ENTRY_LOOKBACK_DAYS = 10;

/** The dates a trade's series is read over: from a little before its entry to today (the Expression page reads the same). */
export function seriesWindow(entryDate: string, today: string): { from: string; to: string } {
  return { from: addDays(entryDate, -ENTRY_LOOKBACK_DAYS), to: today };
}

/**
 * Prices a trade: reads its series (each `price_series` entry in turn), fixes the entry (the stated
 * entry price, else the close on the entry date or the last one before it), resolves target, stop
 * and direction in the series' units, and finds the first exit. `{ why }` says what is missing,
 * in words a PM can act on; nothing is guessed.
 */
export async function evaluateTrade(market: MarketPort, terms: TradeTerms, options: EvaluateOptions): Promise<TradeEvaluation | { why: string }> {
  if (!terms.priceSeries.length) {
    return {
      why: 'it names no price series: add `price_series:` to its header (a market symbol such as UST2Y, or a file in your data folder and its column, such as spy.close)',
    };
  }
  const problems: string[] = [];
  let series: PriceSeries | null = null;
  let instrument = '';
  for (const ref of terms.priceSeries) {
    try {
      const window = seriesWindow(options.entryDate, options.today);
      series = await market.prices(ref, window.from, window.to, options.signal);
      instrument = ref;
      break;
    } catch (e) {
      if (options.signal?.aborted) throw e;
      problems.push((e as Error).message);
    }
  }
  if (!series) return { why: problems.join('; ') || `no market data for ${terms.priceSeries.join(', ')}` };
  const points = series.points.filter((p) => p.date <= options.today);

  const quote = resolveQuote(terms, series.kind);
  let entryPrice: number | null = null;
  if (!options.entryFromMarket && terms.entryPrice?.kind === 'level') entryPrice = resolveLevel(terms.entryPrice, quote, Number.NaN);
  if (entryPrice === null) {
    const atEntry = points.filter((p) => p.date <= options.entryDate).pop();
    if (!atEntry)
      return { why: `${instrument} has no close on or before the entry date ${options.entryDate} (its data starts ${series.points[0]?.date ?? '—'})` };
    entryPrice = atEntry.close;
  }
  const target = terms.target ? resolveLevel(terms.target, quote, entryPrice) : null;
  const stop = terms.stop ? resolveLevel(terms.stop, quote, entryPrice) : null;
  const side = resolveDirection(terms, entryPrice, target, stop);
  if ('problem' in side) return { why: side.problem };

  // Check the P&L can be sized before anything is closed: an exit without figures teaches nothing.
  const sizing = tradePnl({
    quote,
    direction: side.direction,
    entry: entryPrice,
    exit: entryPrice,
    notional: terms.notional,
    durationImpact: terms.durationImpact,
  });
  if ('problem' in sizing) return { why: sizing.problem };

  const cap = options.exitByCap?.date ?? null;
  const exitBy = terms.exitBy && cap ? (terms.exitBy < cap ? terms.exitBy : cap) : (terms.exitBy ?? cap);
  const found = findExit(points, { direction: side.direction, target, stop, exitBy }, options.entryDate, options.today);
  const base = {
    instrument,
    series: { asOf: series.asOf, source: series.source, provider: series.provider },
    quote,
    direction: side.direction,
    entryPrice,
    entryDate: options.entryDate,
    target,
    stop,
    exitBy,
  };
  if (found === null) return { ...base, exit: null, waiting: null };
  if ('stale' in found) return { ...base, exit: null, waiting: found.stale };
  const pnl = tradePnl({
    quote,
    direction: side.direction,
    entry: entryPrice,
    exit: found.price,
    notional: terms.notional,
    durationImpact: terms.durationImpact,
  });
  if ('problem' in pnl) return { why: pnl.problem };
  return { ...base, exit: { ...found, pnl }, waiting: null };
}
