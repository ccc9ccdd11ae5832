import { InvalidInputError } from '../common/errors';
import { type ForgeFS, type HeaderFields, type MemoryDocument, parseRecord, renderRecord, trackerWriter, type WriteContext } from '../fs';
import { evaluateTrade } from './evaluate';
import type { MarketPort } from './market-port';
import { figureFields, pnlExplanation, type SeriesUsed, seriesFields, type TradeFigures } from './outcome-record';
import { addDays } from './pnl';
import { locateSeries } from './series-locator';
import { defaultTrackingSettings, type TrackingSettings } from './settings';
import { categoryName, probability, type StatedForecast, statedForecast } from './stated';
import { readTradeTerms } from './terms';

/**
 * Counterfactuals (CF-NNN): decisions not taken, followed in the market to learn what declining
 * cost or saved (seed §12, §14 `counterfactuals`).
 *
 *   decision_type  rejected_expression — the PM declined a proposed Expression;
 *                  size_not_taken — a trade taken smaller than proposed (`notional` = the size not taken);
 *                  alternative — another expression of the same View that was considered.
 *   reference_date the day the decision was made: the hypothetical entry is that day's close.
 *   status         tracking → completed (with the figures) | expired (with why); `untracked` when
 *                  the stated confidence was below the minimum (0.6): too weak an idea to teach much.
 *
 * The declined trade is followed with its own exit rules (target, stop, time) inside the tracking
 * window (90 days; the window's end is a time exit). It is judged no earlier than the minimum
 * (14 days) after the decision — a stop hit on day 3 is recorded on day 14 — so a result is never
 * read off a few days of noise. If no figure can be computed by the end of the window (no market
 * data, rules that cannot be read), it expires with the reason.
 */

export const COUNTERFACTUAL_TYPES = ['rejected_expression', 'size_not_taken', 'alternative'] as const;
export type CounterfactualType = (typeof COUNTERFACTUAL_TYPES)[number];

/** Trade fields a Counterfactual may carry itself; any it lacks come from its Expression. */
const TERM_FIELDS = ['price_series', 'quote', 'direction', 'target', 'stop', 'exit_by', 'notional', 'duration_impact'] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : null);
const isDay = (s: string) => {
  const t = DAY.test(s) ? Date.parse(`${s}T00:00:00Z`) : Number.NaN;
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === s;
};

function trackingStatus(confidence: number | null, settings: TrackingSettings): { status: 'tracking' | 'untracked'; why: string | null } {
  if (confidence !== null && confidence < settings.counterfactualMinConfidence) {
    return { status: 'untracked', why: `stated confidence ${confidence} is below the ${settings.counterfactualMinConfidence} minimum for tracking` };
  }
  return { status: 'tracking', why: null };
}

export interface RejectionInput {
  /** The declined Expression as it was when declined. */
  expression: MemoryDocument;
  reason: string;
  at: Date;
  /** The forecast behind it (`statedForecast(fs, header, id, at)`); absent: read later from its View. */
  stated?: StatedForecast;
  settings?: Partial<TrackingSettings>;
}

/**
 * The Counterfactual a rejection starts (pure: the reject path calls it inside its own write).
 * Returns the record text with the placeholder id CF-000, for `/memory/counterfactuals/new.md`.
 */
export function counterfactualFromRejection(input: RejectionInput): { content: string; status: 'tracking' | 'untracked' } {
  const settings = { ...defaultTrackingSettings, ...input.settings };
  const h = input.expression.header;
  const day = input.at.toISOString().slice(0, 10);
  const reason = input.reason.replace(/\s+/g, ' ').trim().slice(0, 300).trim() || 'declined';
  const { status, why } = trackingStatus(input.stated?.confidence ?? null, settings);
  const header: HeaderFields = {
    decision_type: 'rejected_expression',
    expression: input.expression.id,
    view_id: text(h.view_id ?? h.view) ?? '',
    reason,
    reference_date: day,
    status,
    ...(why ? { untracked_reason: why } : {}),
    ...statedFields(input.stated),
    ...copyTerms(h),
  };
  const content = renderRecord({
    id: 'CF-000',
    title: `Declined: ${input.expression.title || input.expression.id}`.slice(0, 200).trim(),
    header,
    body: [
      '## SUMMARY',
      `${input.expression.id} was declined on ${day} (${reason}); ${status === 'tracking' ? `followed for up to ${settings.counterfactualTrackingDays} days to learn what declining cost or saved` : 'not tracked'}.`,
      '',
      '## DECLINED TRADE',
      `instrument: ${text(h.instrument) ?? input.expression.title}; notional: ${text(h.notional) ?? '?'}; max_loss_pct: ${text(h.max_loss_pct) ?? '?'}`,
      '',
    ].join('\n'),
  });
  return { content, status };
}

/**
 * The Counterfactual the approval flow's reject writes, with the forecast read as it stood when
 * the idea was declined (the record's own confidence, else its View's then): the one place the
 * reject path gets the confidence the min-confidence rule (`trackingStatus`) needs, so a declined
 * idea below the minimum is recorded `untracked` here exactly as `recordCounterfactual` records it.
 */
export function rejectionCounterfactual(
  fs: ForgeFS,
  expression: MemoryDocument,
  reason: string,
  at: Date,
  settings?: Partial<TrackingSettings>,
): { content: string; status: 'tracking' | 'untracked' } {
  const stated = statedForecast(fs, expression.header, expression.id, at.toISOString());
  return counterfactualFromRejection({ expression, reason, at, stated, ...(settings ? { settings } : {}) });
}

export interface CounterfactualInput {
  decisionType: CounterfactualType;
  title: string;
  reason: string;
  /** YYYY-MM-DD: when the decision was made. */
  referenceDate: string;
  /** The Expression it concerns (its terms fill in whatever this record does not state). */
  expression?: string;
  viewId?: string;
  priceSeries?: string[];
  notional?: number;
  durationImpact?: number;
  quote?: 'price' | 'yield' | 'spread';
  direction?: string;
  target?: string | number;
  stop?: string | number;
  exitBy?: string;
  confidence?: number;
  category?: string;
}

/**
 * Records a decision not taken (a size not taken, an alternative, a rejection made outside the
 * approval flow). Refuses input that could never be resolved, with what to add.
 */
export async function recordCounterfactual(
  fs: ForgeFS,
  input: CounterfactualInput,
  writer: WriteContext,
  settings: Partial<TrackingSettings> = {},
): Promise<{ id: string; status: 'tracking' | 'untracked' }> {
  const s = { ...defaultTrackingSettings, ...settings };
  if (!(COUNTERFACTUAL_TYPES as readonly string[]).includes(input.decisionType)) {
    throw new InvalidInputError(`decisionType must be one of ${COUNTERFACTUAL_TYPES.join(', ')}.`);
  }
  if (!isDay(input.referenceDate)) throw new InvalidInputError(`referenceDate must be a date YYYY-MM-DD (got "${String(input.referenceDate).slice(0, 30)}").`);
  if (input.expression !== undefined && !/^E-\d{3,}$/.test(input.expression)) throw new InvalidInputError(`expression must be an Expression id such as E-004.`);
  if (input.expression && !fs.exists(`/memory/expressions/${input.expression}.md`)) {
    throw new InvalidInputError(`There is no Expression ${input.expression}; name an existing one, or state the trade's own terms.`);
  }
  if (!input.expression && !input.priceSeries?.length)
    throw new InvalidInputError('Name the Expression it concerns, or its priceSeries (e.g. UST2Y), so it can be followed.');
  if (!input.expression && !(Number(input.notional) > 0)) throw new InvalidInputError('State the notional (% of NAV) of the trade not taken.');
  if (input.confidence !== undefined && probability(input.confidence) === null) throw new InvalidInputError('confidence must be between 0 and 1.');
  const { status, why } = trackingStatus(input.confidence ?? null, s);
  const header: HeaderFields = {
    decision_type: input.decisionType,
    ...(input.expression ? { expression: input.expression } : {}),
    ...(input.viewId ? { view_id: input.viewId } : {}),
    reason: input.reason.replace(/\s+/g, ' ').trim().slice(0, 300).trim() || 'not taken',
    reference_date: input.referenceDate,
    status,
    ...(why ? { untracked_reason: why } : {}),
    ...(input.confidence !== undefined ? { confidence: input.confidence } : {}),
    ...(input.category ? { category: categoryName(input.category) ?? input.category } : {}),
    ...(input.priceSeries?.length ? { price_series: input.priceSeries.length === 1 ? input.priceSeries[0]! : input.priceSeries } : {}),
    ...(input.notional !== undefined ? { notional: input.notional } : {}),
    ...(input.durationImpact !== undefined ? { duration_impact: input.durationImpact } : {}),
    ...(input.quote ? { quote: input.quote } : {}),
    ...(input.direction ? { direction: input.direction } : {}),
    ...(input.target !== undefined ? { target: input.target } : {}),
    ...(input.stop !== undefined ? { stop: input.stop } : {}),
    ...(input.exitBy ? { exit_by: input.exitBy } : {}),
  };
  const content = renderRecord({
    id: 'CF-000',
    title: input.title.replace(/\s+/g, ' ').trim().slice(0, 200).trim() || input.decisionType,
    header,
    body: ['## SUMMARY', `${input.decisionType.replace(/_/g, ' ')} on ${input.referenceDate}: ${header.reason}.`, ''].join('\n'),
  });
  const r = await fs.writeFile('/memory/counterfactuals/new.md', content, writer);
  return { id: r.id!, status };
}

function statedFields(stated: StatedForecast | undefined): HeaderFields {
  if (!stated) return {};
  return {
    ...(stated.confidence !== null ? { confidence: stated.confidence } : {}),
    ...(stated.category ? { category: stated.category } : {}),
    ...(stated.source ? { confidence_source: stated.source } : {}),
  };
}

function copyTerms(h: HeaderFields): HeaderFields {
  const out: HeaderFields = {};
  for (const k of TERM_FIELDS) if (h[k] !== undefined) out[k] = h[k]!;
  return out;
}

export interface CounterfactualRunReport {
  at: string;
  checked: string[];
  completed: { id: string; exitReason: string; exitDate: string; pnlBp: number; hit: boolean }[];
  expired: { id: string; why: string }[];
  /** Still tracking, and why not resolved yet. */
  pending: { id: string; why: string }[];
}

export interface CounterfactualDetectorDeps {
  fs: ForgeFS;
  market: MarketPort;
  settings?: Partial<TrackingSettings>;
  writer?: WriteContext;
}

/** Resolves tracked Counterfactuals from market data (hourly and on demand: `runOnce`). */
export class CounterfactualDetector {
  private readonly settings: TrackingSettings;
  private readonly writer: WriteContext;

  constructor(private readonly deps: CounterfactualDetectorDeps) {
    this.settings = { ...defaultTrackingSettings, ...deps.settings };
    // Only the tracker's writer may write a resolution (fs/write-authority.ts).
    this.writer = deps.writer ?? trackerWriter();
  }

  async runOnce(options: { now?: Date; signal?: AbortSignal } = {}): Promise<CounterfactualRunReport> {
    const now = options.now ?? new Date();
    const today = now.toISOString().slice(0, 10);
    const report: CounterfactualRunReport = { at: now.toISOString(), checked: [], completed: [], expired: [], pending: [] };
    const { fs } = this.deps;
    for (const row of fs.store.records.withStatus('counterfactuals', ['tracking'])) {
      if (options.signal?.aborted) break;
      report.checked.push(row.id);
      const doc = parseRecord(fs.readFile(`/memory/counterfactuals/${row.id}.md`));
      const verdict = await this.judge(doc, today, options.signal);
      if (verdict.kind === 'pending') {
        report.pending.push({ id: doc.id, why: verdict.why });
      } else if (verdict.kind === 'expired') {
        if (await this.rewrite(doc, expiredDocument(doc, verdict.why, verdict.series, now))) report.expired.push({ id: doc.id, why: verdict.why });
      } else if (await this.rewrite(doc, completedDocument(doc, verdict.figures, verdict.stated, now))) {
        const f = verdict.figures;
        report.completed.push({ id: doc.id, exitReason: f.exitReason, exitDate: f.exitDate, pnlBp: f.pnlBp, hit: f.hit });
      }
    }
    return report;
  }

  private async judge(
    cf: MemoryDocument,
    today: string,
    signal?: AbortSignal,
  ): Promise<
    | { kind: 'pending'; why: string }
    | { kind: 'expired'; why: string; series?: SeriesUsed }
    | { kind: 'completed'; figures: TradeFigures; stated: StatedForecast }
  > {
    const { fs } = this.deps;
    const ref = text(cf.header.reference_date)?.slice(0, 10) ?? '';
    if (!isDay(ref)) return { kind: 'expired', why: 'it has no readable reference_date (YYYY-MM-DD), so it cannot be followed' };
    const earliest = addDays(ref, this.settings.counterfactualMinDays);
    const windowEnd = addDays(ref, this.settings.counterfactualTrackingDays);
    if (today < earliest) return { kind: 'pending', why: `judged from ${earliest} (${this.settings.counterfactualMinDays} days after ${ref})` };
    const exprId = text(cf.header.expression);
    let expr: MemoryDocument | null = null;
    if (exprId && /^E-\d+$/.test(exprId) && fs.exists(`/memory/expressions/${exprId}.md`)) expr = parseRecord(fs.readFile(`/memory/expressions/${exprId}.md`));
    // The record's own terms over its Expression's (a size not taken states its own notional).
    const merged: MemoryDocument = {
      id: cf.id,
      title: cf.title,
      header: { ...(expr ? withoutEntry(expr.header) : {}), ...copyTerms(cf.header) },
      body: expr?.body ?? null,
    };
    const terms = readTradeTerms(merged);
    // An expiry cites what was read (the series, its source and as-of) or, when nothing answered, what was asked for.
    const unresolved = (why: string, series?: SeriesUsed) =>
      today > windowEnd
        ? {
            kind: 'expired' as const,
            why: `not resolved within the ${this.settings.counterfactualTrackingDays}-day window ending ${windowEnd}: ${why}`,
            series: series ?? { instrument: terms.priceSeries.join(', ') || 'none named', provider: 'none', source: 'no source answered', asOf: today },
          }
        : { kind: 'pending' as const, why };
    const ev = await evaluateTrade(this.deps.market, terms, { entryDate: ref, entryFromMarket: true, today, exitByCap: { date: windowEnd }, signal });
    if ('why' in ev) return unresolved(ev.why);
    if (!ev.exit)
      return unresolved(ev.waiting ?? `no exit yet (market data as of ${ev.series.asOf}); the window ends ${windowEnd}`, {
        instrument: ev.instrument,
        ...ev.series,
      });
    const endOfWindow = ev.exit.reason === 'time' && ev.exitBy === windowEnd && (!terms.exitBy || terms.exitBy >= windowEnd);
    const figures: TradeFigures = {
      quote: ev.quote,
      gainsWhen: ev.direction,
      entryPrice: ev.entryPrice,
      entryDate: ref,
      exitPrice: ev.exit.price,
      exitDate: ev.exit.date,
      exitReason: endOfWindow ? 'window_end' : ev.exit.reason,
      notional: terms.notional,
      pnlPct: ev.exit.pnl.pnlPct,
      pnlBp: ev.exit.pnl.pnlBp,
      hit: ev.exit.pnl.hit,
      series: { instrument: ev.instrument, ...ev.series },
    };
    const ownConfidence = probability(cf.header.confidence);
    const stated: StatedForecast =
      ownConfidence !== null && categoryName(cf.header.category)
        ? { confidence: ownConfidence, category: categoryName(cf.header.category), source: text(cf.header.confidence_source) ?? cf.id }
        : statedForecast(fs, { ...(expr?.header ?? {}), ...cf.header }, exprId ?? cf.id, `${ref}T23:59:59.999Z`);
    return { kind: 'completed', figures, stated };
  }

  /** Writes the resolution only if the record is still tracking (another run may have got there first). */
  private async rewrite(before: MemoryDocument, after: MemoryDocument): Promise<boolean> {
    const path = `/memory/counterfactuals/${before.id}.md`;
    return this.deps.fs.transaction((tx) => {
      const current = parseRecord(tx.readFile(path));
      if (String(current.header.status).toLowerCase() !== 'tracking') return false;
      tx.writeFile(path, renderRecord(after), this.writer);
      return true;
    });
  }
}

/** A declined idea is entered at the close of the day it was declined, never at a price it proposed. */
function withoutEntry(h: HeaderFields): HeaderFields {
  const { entry_price: _p, entry_date: _d, ...rest } = h;
  return rest;
}

function completedDocument(cf: MemoryDocument, f: TradeFigures, stated: StatedForecast, now: Date): MemoryDocument {
  const verdict = f.pnlBp > 0 ? 'declining it cost' : f.pnlBp < 0 ? 'declining it saved' : 'declining it made no difference:';
  return {
    ...cf,
    header: { ...cf.header, status: 'completed', ...figureFields(f, stated), resolved_at: now.toISOString() },
    body: appendSection(
      cf.body,
      'RESOLUTION',
      `${verdict} ${Math.abs(f.pnlBp)}bp of NAV: entered ${f.entryPrice} on ${f.entryDate}, out ${f.exitPrice} on ${f.exitDate} (${f.exitReason})${f.series ? `, read from ${f.series.instrument} (${seriesWhere(f.series)}, as of ${f.series.asOf})` : ''}.\n${pnlExplanation(f)}`,
    ),
  };
}

function expiredDocument(cf: MemoryDocument, why: string, series: SeriesUsed | undefined, now: Date): MemoryDocument {
  return {
    ...cf,
    header: {
      ...cf.header,
      status: 'expired',
      expired_reason: why.replace(/\s+/g, ' ').trim().slice(0, 400).trim(),
      expired_at: now.toISOString(),
      ...seriesFields(series),
    },
    body: appendSection(cf.body, 'RESOLUTION', `Expired: ${why}`),
  };
}

/** `datasets, datasets/spy.csv`: the provider and the file or URL, as the record's header cites them. */
function seriesWhere(s: SeriesUsed): string {
  const at = locateSeries(s.provider, s.source);
  return `${at.provider}, ${at.where}`;
}

function appendSection(body: string | null, name: string, textBody: string): string {
  const base = (body ?? '').trimEnd();
  return `${base ? `${base}\n\n` : ''}## ${name}\n${textBody}\n`;
}
