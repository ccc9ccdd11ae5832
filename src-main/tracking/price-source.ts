import type { PriceSourceEntry, PriceSourceView, TrackerPreview } from '../api/price-source';
import { NotFoundError } from '../common/errors';
import { countsInBook, isOpenProposal } from '../common/expression-status';
import { type ForgeFS, parseRecord } from '../fs';
import { evaluateTrade, seriesWindow } from './evaluate';
import type { MarketPort, PriceSeries } from './market-port';
import { seriesOfHeader } from './outcome-record';
import { tradePnl } from './pnl';
import { entryDateOf, readTradeTerms, type TradeTerms } from './terms';

/** Far enough back to find a file's last close when the tracker's window holds none. */
const ALL_HISTORY = '1900-01-01';
/** How the sources say a window held nothing (datasets: "No rows of …", market: "No … observations in …", the port: "no closes between"). */
const EMPTY_WINDOW = /\bno rows of\b|\bno closes between\b|\bno\b.{0,40}\bobservations in\b/i;

/**
 * Where an Expression's prices come from, as "Check exits now" would read them: each
 * `price_series` entry through the same market port, over the same window (`seriesWindow` from
 * the same entry date), the first that resolves marked as the one followed. An entry with no
 * closes in that window is looked up once more over all its history, so the page can say "your
 * file ends on 2024-04-02" rather than only "nothing found".
 */
export async function expressionPriceSources(
  fs: ForgeFS,
  market: MarketPort,
  id: string,
  options: { today: string; signal?: AbortSignal },
): Promise<PriceSourceView> {
  const path = `/memory/expressions/${id}.md`;
  if (!fs.exists(path)) throw new NotFoundError(`There is no Expression ${id}.`);
  const doc = parseRecord(fs.readFile(path));
  const terms = readTradeTerms(doc);
  const entryDate = entryDateOf(doc, terms);
  // Not live yet: the tracker will measure from the day it goes live, so read as if that were today.
  const { from, to } = seriesWindow(entryDate && entryDate <= options.today ? entryDate : options.today, options.today);
  const recorded = seriesOfHeader(doc.header);
  const base = {
    id: doc.id || id,
    entryDate,
    from,
    to,
    recorded: recorded
      ? { series: recorded.instrument, source: `${recorded.provider ? `${recorded.provider}: ` : ''}${recorded.source}`, asOf: recorded.asOf }
      : null,
  };
  if (!terms.priceSeries.length) {
    return {
      ...base,
      tracker: null,
      trackerNote: null,
      series: [],
      note: 'It names no price series, so the tracker cannot follow it: add `price_series:` to its header (a file in your data folder and its column, such as spy.close, or a market symbol such as UST2Y).',
    };
  }
  const series: PriceSourceEntry[] = [];
  let followed = false;
  for (const ref of terms.priceSeries) {
    try {
      const s = await market.prices(ref, from, to, options.signal);
      series.push({ ...found(ref, s), used: !followed });
      followed = true;
    } catch (e) {
      if (options.signal?.aborted) throw e;
      series.push(await notFound(market, ref, (e as Error).message, to, options.signal));
    }
  }
  const followedEntry = series.find((e) => e.used) ?? null;
  const preview = await previewExits(market, terms, String(doc.header.status ?? ''), entryDate, followedEntry, options.today, options.signal);
  return { ...base, series, note: null, ...preview };
}

/**
 * What "Check exits now" would do: `evaluateTrade`, the function the tracker itself runs, on the
 * same terms and dates, plus the P&L at the last close. Live trades, and proposals that state an
 * entry date (a preview of the rules as written); not closed ones: their record says what happened.
 */
async function previewExits(
  market: MarketPort,
  terms: TradeTerms,
  status: string,
  entryDate: string | null,
  followed: PriceSourceEntry | null,
  today: string,
  signal?: AbortSignal,
): Promise<{ tracker: TrackerPreview | null; trackerNote: string | null }> {
  const live = countsInBook(status);
  if (!live && !isOpenProposal(status)) return { tracker: null, trackerNote: null };
  if (!entryDate) return { tracker: null, trackerNote: 'The tracker measures from the entry date: it has none yet (it takes the day it goes live).' };
  if (entryDate > today) return { tracker: null, trackerNote: `Its entry date ${entryDate} is in the future.` };
  const ev = await evaluateTrade(market, terms, { entryDate, today, signal });
  if ('why' in ev) return { tracker: null, trackerNote: `"Check exits now" would skip it: ${ev.why}.` };
  // The entry the page lists as followed was read over this same window: its last close is the tracker's.
  const last = followed?.ref === ev.instrument ? followed.lastClose : null;
  const mark = last
    ? tradePnl({
        quote: ev.quote,
        direction: ev.direction,
        entry: ev.entryPrice,
        exit: last.close,
        notional: terms.notional,
        durationImpact: terms.durationImpact,
      })
    : null;
  return {
    tracker: {
      series: ev.instrument,
      quote: ev.quote,
      gainsWhen: ev.direction,
      entryPrice: ev.entryPrice,
      entryDate: ev.entryDate,
      target: ev.target,
      stop: ev.stop,
      exitBy: ev.exitBy,
      lastClose: last,
      atLastClose: mark && !('problem' in mark) ? { pnlPct: mark.pnlPct, pnlBp: mark.pnlBp } : null,
      exit: ev.exit ? { reason: ev.exit.reason, date: ev.exit.date, price: ev.exit.price, pnlPct: ev.exit.pnl.pnlPct, pnlBp: ev.exit.pnl.pnlBp } : null,
      waiting: ev.waiting,
    },
    trackerNote: null,
  };
}

function found(ref: string, s: PriceSeries): Omit<PriceSourceEntry, 'used'> {
  const last = s.points[s.points.length - 1] ?? null;
  return { ref, provider: s.provider, source: s.source, asOf: s.asOf, lastClose: last, closes: s.points.length, kind: s.kind, problem: null };
}

/** The entry's problem, and, when the source holds it but not in the window, where its data ends. */
async function notFound(market: MarketPort, ref: string, problem: string, to: string, signal?: AbortSignal): Promise<PriceSourceEntry> {
  const none: PriceSourceEntry = { ref, used: false, provider: null, source: null, asOf: null, lastClose: null, closes: 0, kind: null, problem };
  // Only an empty window is worth a second read: an unknown name or a source that is down would fail (or wait) again.
  if (!EMPTY_WINDOW.test(problem)) return none;
  try {
    const all = await market.prices(ref, ALL_HISTORY, to, signal);
    const last = all.points[all.points.length - 1];
    if (!last) return none;
    return {
      ...found(ref, all),
      used: false,
      closes: 0,
      problem: `${problem}. ${all.source} ends on ${last.date} (close ${last.close}): the tracker reads from 10 days before the entry date.`,
    };
  } catch {
    return none;
  }
}
