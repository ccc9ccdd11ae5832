import { LIVE_OR_PROPOSED_EXPRESSION_STATUSES } from '../common/expression-status';
import { extractSection, type ForgeFS, type HeaderValue, parseRecord } from '../fs';
import type { MarketPort, PriceSeries } from '../tracking';
import { readTradeTerms, resolveQuote, type TradeTerms } from '../tracking/terms';

/** One instrument's move between the last close the previous review could see and the latest close. */
export interface SeriesMove {
  /** The price series as the Expression names it (`UST2Y`, `ust_yields.sofr_2y_swap`). */
  instrument: string;
  /** The linked Expressions measured on it. */
  expressions: string[];
  /** How the series is quoted: yields in %, spreads in bp, prices in their currency. */
  kind: 'price' | 'yield' | 'spread';
  from: { date: string; value: number };
  to: { date: string; value: number };
  /** In bp for yields and spreads, in % for prices. */
  change: number;
  unit: 'bp' | '%';
  /** The data's own as-of date (its last observation). */
  asOf: string;
  source: string;
}

/** A linked Expression whose move could not be measured, and why (in words a PM can act on). */
export interface MissingMove {
  expression: string | null;
  why: string;
}

export interface ViewMoves {
  id: string;
  title: string;
  status: string;
  /** The bullets of the View's `## INVALIDATION` section, as written. */
  invalidation: string[];
  moves: SeriesMove[];
  missing: MissingMove[];
}

export interface MovesInput {
  fs: ForgeFS;
  market: MarketPort;
  /** The previous morning review's start (or 24 h before `now` when there was none). */
  since: Date;
  now: Date;
  signal?: AbortSignal;
}

const LIVE_VIEWS = ['active', 'watching'];
/**
 * Live trades plus open proposals (common/expression-status): the moves a PM deciding on a proposal
 * needs too. Closed or rejected ones count only when the View lists them.
 */
const REPORTED_EXPRESSIONS = LIVE_OR_PROPOSED_EXPRESSION_STATUSES;
/** How far before the previous review to look for its last close (weekends, holidays). */
const LOOKBACK_DAYS = 10;

const day = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (iso: string, n: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

function idList(v: HeaderValue | undefined): string[] {
  const items = Array.isArray(v) ? v : typeof v === 'string' && v.trim() ? v.split(/[,\s]+/) : [];
  return items.map((s) => String(s).trim()).filter((s) => /^E-\d+$/i.test(s));
}

/**
 * The bullets of a View's `## INVALIDATION` section. A line that does not start a bullet continues
 * the one before it (a condition wrapped over two lines is still one condition).
 */
export function invalidationBullets(body: string | null): string[] {
  const section = body ? extractSection(body, 'INVALIDATION') : null;
  if (!section) return [];
  const bullets: string[] = [];
  for (const line of section.split('\n').slice(1)) {
    const t = line.trim();
    if (!t) continue;
    const m = /^(?:[-*•]|\d+[.)])\s+(.*)$/.exec(t);
    if (m) bullets.push(m[1]!.trim());
    else if (bullets.length) bullets[bullets.length - 1] = `${bullets[bullets.length - 1]} ${t}`;
  }
  return bullets.filter(Boolean);
}

/**
 * Per live View (active, watching): how each linked Expression's price series moved since the
 * previous review — mechanically, from the market data, before the analyst says anything. Daily
 * closes: the move runs from the last close dated before the previous review's day (what that
 * review could have seen) to the latest close up to `now`. A View with nothing to measure says why.
 */
export async function movesSinceLastReview(input: MovesInput): Promise<ViewMoves[]> {
  const { fs, market, since, now, signal } = input;
  const records = fs.store.records;
  const byNumber = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id, 'en', { numeric: true });
  const linkedByViewId = new Map<string, string[]>();
  for (const e of records.withStatus('expressions', REPORTED_EXPRESSIONS).sort(byNumber)) {
    const viewId = headerString(e.header, 'view_id');
    if (viewId) linkedByViewId.set(viewId, [...(linkedByViewId.get(viewId) ?? []), e.id]);
  }
  const views = records.withStatus('views', LIVE_VIEWS).sort(byNumber);
  const out: ViewMoves[] = [];
  // One read per instrument: Views sharing a series (or a View with two trades on it) reuse it.
  const seriesCache = new Map<string, Promise<PriceSeries>>();
  const read = (ref: string) => {
    let p = seriesCache.get(ref);
    if (!p) {
      p = market.prices(ref, addDays(day(since), -LOOKBACK_DAYS), day(now), signal);
      seriesCache.set(ref, p);
    }
    return p;
  };
  for (const row of views) {
    signal?.throwIfAborted();
    const doc = parseRecord(fs.readFile(`/memory/views/${row.id}.md`));
    const view: ViewMoves = {
      id: row.id,
      title: doc.title,
      status: row.status ?? '',
      invalidation: invalidationBullets(doc.body),
      moves: [],
      missing: [],
    };
    out.push(view);
    const linked = [...new Set([...idList(doc.header.expressions), ...(linkedByViewId.get(row.id) ?? [])])];
    if (!linked.length) {
      view.missing.push({ expression: null, why: 'no Expression is linked to it, so there is no price series to measure' });
      continue;
    }
    for (const exprId of linked) {
      const path = `/memory/expressions/${exprId}.md`;
      if (!fs.recordInfo(path)) {
        view.missing.push({ expression: exprId, why: `${exprId} is listed in its expressions but does not exist` });
        continue;
      }
      const terms = readTradeTerms(parseRecord(fs.readFile(path)));
      const measured = await measure(terms, since, now, read, signal);
      if ('why' in measured) {
        view.missing.push({ expression: exprId, why: measured.why });
        continue;
      }
      const same = view.moves.find((m) => m.instrument === measured.instrument);
      if (same) same.expressions.push(exprId);
      else view.moves.push({ ...measured, expressions: [exprId] });
    }
  }
  return out;
}

function headerString(headerJson: string, key: string): string | null {
  try {
    const v = (JSON.parse(headerJson) as Record<string, unknown>)[key];
    return typeof v === 'string' && v.trim() ? v.trim() : null;
  } catch {
    return null;
  }
}

async function measure(
  terms: TradeTerms,
  since: Date,
  now: Date,
  read: (ref: string) => Promise<PriceSeries>,
  signal?: AbortSignal,
): Promise<Omit<SeriesMove, 'expressions'> | { why: string }> {
  if (!terms.priceSeries.length) {
    return { why: 'it names no price series (add `price_series:` to its header: a market symbol such as UST2Y or a dataset column such as ust_yields.us2y)' };
  }
  const problems: string[] = [];
  for (const ref of terms.priceSeries) {
    let series: PriceSeries;
    try {
      series = await read(ref);
    } catch (e) {
      if (signal?.aborted) throw e;
      problems.push((e as Error).message);
      continue;
    }
    const sinceDay = day(since);
    const points = series.points.filter((p) => p.date <= day(now));
    const from = points.filter((p) => p.date < sinceDay).pop();
    const to = points[points.length - 1];
    if (!from || !to) {
      problems.push(`${ref} has no close before ${sinceDay} to measure from (its data starts ${series.points[0]?.date ?? '—'})`);
      continue;
    }
    const kind = resolveQuote(terms, series.kind);
    // Yields are quoted in % (a 0.01 move is 1 bp), spreads in bp; a price's move is relative.
    const change = kind === 'yield' ? (to.close - from.close) * 100 : kind === 'spread' ? to.close - from.close : (to.close / from.close - 1) * 100;
    return {
      instrument: ref,
      kind,
      from: { date: from.date, value: from.close },
      to: { date: to.date, value: to.close },
      change: round(change, kind === 'price' ? 3 : 2),
      unit: kind === 'price' ? '%' : 'bp',
      asOf: series.asOf,
      source: series.source,
    };
  }
  return { why: problems.join('; ') };
}
