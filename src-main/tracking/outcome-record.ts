import { ConflictError } from '../common/errors';
import { countsInBook } from '../common/expression-status';
import { type ForgeFS, type HeaderFields, type MemoryDocument, parseRecord, renderRecord, type WriteContext } from '../fs';
import { type ExitReason, tradePnl } from './pnl';
import { locateSeries, seriesSourceText } from './series-locator';
import type { StatedForecast } from './stated';
import { type GainsWhen, parseLevel, type Quote, readTradeTerms, resolveLevel, resolveQuote } from './terms';

/** How an Expression left the book, as the tracker decided it (what `closeExpression` receives). */
export interface ExpressionExit {
  reason: ExitReason;
  exitPrice: number;
  exitDate: string;
  entryPrice: number;
  entryDate: string;
  /** How the series is quoted and which way the trade gains: written on the Expression so its Outcome can be recomputed from the record alone. */
  quote: Quote;
  gainsWhen: GainsWhen;
  pnlPct: number;
  pnlBp: number;
  /** sha256 of the Expression text the exit was worked out on: the close refuses if the record says anything else by then. */
  basis?: string;
  /** The series the exit was read from: which `price_series` entry, its source and as-of. */
  series?: SeriesUsed;
}

/** Which series a figure was computed from, so a PM can check it against their own file. */
export interface SeriesUsed {
  /** The `price_series` entry, as written (`spy.adj_close`, `UST2Y`). */
  instrument: string;
  /** The provider that answered (`datasets`, `market`). */
  provider: string;
  /** Its own account of where the data came from (`csv datasets/spy.csv`, an Alpha Vantage URL). */
  source: string;
  /** The last observation the source held in the range read. */
  asOf: string;
}

/**
 * Header fields that name the series used (Expression close, Outcome, Counterfactual):
 * `series_source` is `<provider>: <file or URL>` (series-locator.ts), never a key.
 */
export function seriesFields(s: SeriesUsed | undefined): HeaderFields {
  if (!s) return {};
  return { series_used: s.instrument, series_source: seriesSourceText(locateSeries(s.provider, s.source)), series_as_of: s.asOf };
}

/** The same, read back from a record's header (absent on records closed before they were written). */
export function seriesOfHeader(h: HeaderFields): SeriesUsed | undefined {
  const instrument = text(h.series_used);
  const src = text(h.series_source);
  const asOf = text(h.series_as_of);
  if (!instrument || !src || !asOf) return undefined;
  const colon = src.indexOf(': ');
  return colon > 0 ? { instrument, provider: src.slice(0, colon), source: src.slice(colon + 2), asOf } : { instrument, provider: '', source: src, asOf };
}

const seriesPhrase = (s: SeriesUsed | undefined) => {
  if (!s) return '';
  const at = locateSeries(s.provider, s.source);
  return ` from ${s.instrument} (${at.provider}, ${at.where}, as of ${s.asOf})`;
};

/**
 * What an Expression closed by hand was priced from: the exit price the PM wrote on its record.
 * Every Outcome names its evidence, so one closed without market data cites the record itself.
 */
function statedOnRecord(doc: MemoryDocument, exitDate: string): SeriesUsed {
  return { instrument: 'exit_price', provider: 'pm', source: `/memory/expressions/${doc.id}.md`, asOf: exitDate };
}

/** The figures an Outcome (or a completed Counterfactual) carries. */
export interface TradeFigures {
  quote: Quote;
  gainsWhen: GainsWhen;
  entryPrice: number;
  entryDate: string;
  exitPrice: number;
  exitDate: string;
  exitReason: string;
  notional: number;
  pnlPct: number;
  pnlBp: number;
  hit: boolean;
  series?: SeriesUsed;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : null);
const signed = (n: number, unit: string) => `${n > 0 ? '+' : ''}${n}${unit}`;

/**
 * The Expression's text once closed by the tracker: status `closed` and the exit written on it
 * (`exit_reason`, `exit_price`, `exit_date`, the entry it was measured from, its P&L). The write
 * pipeline stamps `closed_at`, archives the previous version and records the Outcome stub.
 * Refuses (ConflictError) when the Expression is no longer live: someone closed or changed it meanwhile.
 */
export function closedExpressionContent(content: string, exit: ExpressionExit): string {
  const doc = parseRecord(content);
  const status = String(doc.header.status ?? '')
    .trim()
    .toLowerCase();
  if (!countsInBook(status)) throw new ConflictError(`${doc.id} is ${status || 'without a status'} now; only a live Expression is closed by its exit rules.`);
  const h = doc.header;
  const header: HeaderFields = {
    ...h,
    status: 'closed',
    exit_reason: exit.reason,
    exit_price: exit.exitPrice,
    exit_date: exit.exitDate,
    entry_price: h.entry_price ?? exit.entryPrice,
    entry_date: h.entry_date ?? exit.entryDate,
    quote: h.quote ?? exit.quote,
    gains_when: exit.gainsWhen,
    pnl: `${signed(exit.pnlBp, 'bp')} of NAV (${signed(exit.pnlPct, '%')} of the position)`,
    exit_details: `${exit.reason} — close ${exit.exitPrice} on ${exit.exitDate} (entry ${exit.entryPrice} on ${exit.entryDate})${seriesPhrase(exit.series)}`,
    ...seriesFields(exit.series),
  };
  return renderRecord({ ...doc, header });
}

/**
 * The figures of a closed Expression, from its record alone: entry and exit as written on it (by
 * the tracker, or by the PM closing it by hand with `exit_price` and `exit_date`). Null with a
 * reason when the record lacks what they need.
 */
export function figuresOfClosedExpression(doc: MemoryDocument): TradeFigures | { why: string } {
  const h = doc.header;
  const terms = readTradeTerms(doc);
  const exitLevel = parseLevel(h.exit_price);
  const exitDate = text(h.exit_date);
  if (exitLevel?.kind !== 'level' || !exitDate) return { why: 'it was closed without `exit_price` and `exit_date`' };
  if (terms.entryPrice?.kind !== 'level' || !terms.entryDate) return { why: 'it states no entry price and date' };
  const quote = resolveQuote(terms, null);
  const entryPrice = resolveLevel(terms.entryPrice, quote, Number.NaN);
  const exitPrice = resolveLevel(exitLevel, quote, entryPrice);
  const gainsWhen = terms.direction ?? inferFromTarget(terms, quote, entryPrice);
  if (!gainsWhen) return { why: 'it states no direction (`direction:` or a target/stop to infer it from)' };
  const pnl = tradePnl({ quote, direction: gainsWhen, entry: entryPrice, exit: exitPrice, notional: terms.notional, durationImpact: terms.durationImpact });
  if ('problem' in pnl) return { why: pnl.problem };
  return {
    quote,
    gainsWhen,
    entryPrice,
    entryDate: terms.entryDate,
    exitPrice,
    exitDate: exitDate.slice(0, 10),
    exitReason: text(h.exit_reason) ?? 'closed',
    notional: terms.notional,
    pnlPct: pnl.pnlPct,
    pnlBp: pnl.pnlBp,
    hit: pnl.hit,
    series: seriesOfHeader(h) ?? statedOnRecord(doc, exitDate.slice(0, 10)),
  };
}

function inferFromTarget(terms: ReturnType<typeof readTradeTerms>, quote: Quote, entry: number): GainsWhen | null {
  const target = terms.target ? resolveLevel(terms.target, quote, entry) : null;
  if (target !== null && target !== entry) return target > entry ? 'up' : 'down';
  const stop = terms.stop ? resolveLevel(terms.stop, quote, entry) : null;
  if (stop !== null && stop !== entry) return stop < entry ? 'up' : 'down';
  return null;
}

/** Header fields shared by Outcomes and completed Counterfactuals: what calibration and the retrospective read. */
export function figureFields(f: TradeFigures, stated: StatedForecast): HeaderFields {
  const out: HeaderFields = {};
  if (stated.category) out.category = stated.category;
  if (stated.confidence !== null) out.confidence = stated.confidence;
  if (stated.source) out.confidence_source = stated.source;
  return {
    ...out,
    quote: f.quote,
    gains_when: f.gainsWhen,
    entry_price: f.entryPrice,
    entry_date: f.entryDate,
    exit_price: f.exitPrice,
    exit_date: f.exitDate,
    exit_reason: f.exitReason,
    notional: f.notional,
    pnl_pct: f.pnlPct,
    pnl_bp: f.pnlBp,
    hit: f.hit ? 'true' : 'false',
    ...seriesFields(f.series),
  };
}

/** The formula, in words, for the record's reader. */
export function pnlExplanation(f: TradeFigures): string {
  const s = f.gainsWhen === 'up' ? '+1' : '−1';
  if (f.quote === 'price') {
    return `P&L = ${s} × (${f.exitPrice} − ${f.entryPrice}) / ${f.entryPrice} = ${signed(f.pnlPct, '%')} of the position; × notional ${f.notional}% of NAV = ${signed(f.pnlBp, 'bp')} of NAV.`;
  }
  const unit = f.quote === 'yield' ? ' × 100' : '';
  return `Move = ${s} × (${f.exitPrice} − ${f.entryPrice})${unit} bp; × duration_impact = ${signed(f.pnlBp, 'bp')} of NAV; / notional ${f.notional}% = ${signed(f.pnlPct, '%')} of the position.`;
}

function outcomeDocument(id: string, expr: MemoryDocument, f: TradeFigures, stated: StatedForecast, resolvedAt: string): MemoryDocument {
  const h = expr.header;
  const viewId = text(h.view_id ?? h.view) ?? '';
  return {
    id,
    title: `Outcome of ${expr.id}: ${expr.title}`.slice(0, 200).trim(),
    header: {
      expression: expr.id,
      view_id: viewId,
      status: 'resolved',
      ...figureFields(f, stated),
      ...(text(h.closed_at) ? { closed_at: text(h.closed_at)! } : {}),
      resolved_at: resolvedAt,
    },
    body: [
      '## SUMMARY',
      `${expr.id} (${text(h.instrument) ?? expr.title}) ${f.exitReason === 'target' ? 'hit its target' : f.exitReason === 'stop' ? 'was stopped out' : f.exitReason === 'time' ? 'reached its time exit' : 'was closed'} on ${f.exitDate}: ${signed(f.pnlBp, 'bp')} of NAV — ${f.hit ? 'a hit' : 'a miss'}${stated.confidence !== null ? ` at a stated confidence of ${stated.confidence}` : ''}.`,
      '',
      '## ENTRY',
      `${f.entryPrice} on ${f.entryDate}.`,
      '',
      '## EXIT',
      `${f.exitPrice} on ${f.exitDate} (${f.exitReason})${seriesPhrase(f.series)}.`,
      '',
      '## P&L',
      pnlExplanation(f),
      '',
    ].join('\n'),
  };
}

/**
 * Records the Outcome of a closed Expression, once. In one transaction: if a resolved Outcome for
 * it exists, nothing is written (a second run, a retry after a crash); if the write pipeline left
 * its stub (`status: recorded`, P&L pending), that record is completed in place; otherwise a new
 * OUT-NNN is written. Returns the Outcome's id and whether this call wrote it.
 */
export async function recordOutcome(
  fs: ForgeFS,
  exprId: string,
  figures: TradeFigures,
  stated: StatedForecast,
  writer: WriteContext,
  resolvedAt: string,
): Promise<{ id: string; written: boolean }> {
  return fs.transaction((tx) => {
    const expr = parseRecord(tx.readFile(`/memory/expressions/${exprId}.md`));
    const existing = fs.listDir('/memory/outcomes/', `expression:${exprId}`, { limit: 50 }).entries;
    const done = existing.find((e) => e.status === 'resolved');
    if (done?.id) return { id: done.id, written: false };
    const stub = existing.find((e) => e.status === 'recorded' && e.id);
    const id = stub?.id ?? tx.takeId('outcomes');
    tx.writeFile(`/memory/outcomes/${id}.md`, renderRecord(outcomeDocument(id, expr, figures, stated, resolvedAt)), writer);
    return { id, written: true };
  });
}
