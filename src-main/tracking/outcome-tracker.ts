import { countsInBook, LIVE_EXPRESSION_STATUSES } from '../common/expression-status';
import { type ForgeFS, parseRecord, sha256, trackerWriter, type WriteContext } from '../fs';
import { evaluateTrade } from './evaluate';
import type { MarketPort } from './market-port';
import { type ExpressionExit, figuresOfClosedExpression, recordOutcome } from './outcome-record';
import { statedForecast } from './stated';
import { entryDateOf, readTradeTerms } from './terms';

/**
 * Closes an Expression through the normal write path — the same code the PM's and the analyst's
 * writes use, so guardrails, the `closed_at` stamp, the archive, the audit entry and
 * `portfolio/changed` all happen. The host implements it (tools' closeOnExit, over
 * `closedExpressionContent`); it must refuse (`ok: false`) rather than overwrite when the
 * Expression is no longer live, and refuse with `changed: true` when its text is no longer the one
 * the exit was worked out on (`exit.basis`): the tracker then checks it again on its new terms.
 */
export type CloseExpressionPort = (id: string, exit: ExpressionExit) => Promise<{ ok: boolean; message: string; changed?: boolean }>;

export interface OutcomeTrackerDeps {
  fs: ForgeFS;
  market: MarketPort;
  closeExpression: CloseExpressionPort;
  /** Who the Outcome writes are recorded as: the tracker (only its writer may write Outcomes). */
  writer?: WriteContext;
}

export interface OutcomeRunReport {
  at: string;
  /** Live Expressions looked at. */
  checked: string[];
  /** `series`: which `price_series` entry the exit was read from, and its source (`spy.close (csv datasets/spy.csv)`). */
  closed: { id: string; reason: string; exitDate: string; exitPrice: number; pnlBp: number; outcome: string; series: string }[];
  /** Checked, nothing triggered: the series followed (`spy.close (csv datasets/spy.csv)`) and its as-of date. */
  open: { id: string; asOf: string; series: string; note?: string }[];
  skipped: { id: string; why: string }[];
  /** Outcomes completed for Expressions closed earlier (by hand with exit prices, or a run interrupted after the close). */
  recorded: { id: string; outcome: string }[];
}

/** Checks of one trade per run when it keeps changing while its exit is worked out. */
const MAX_CHECKS = 3;
const statusOfDoc = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : '');
const day = (iso: string) => iso.slice(0, 10);
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/**
 * Checks live Expressions against their exit rules (seed §12). A triggered exit closes the
 * Expression through `closeExpression` and records its Outcome with the P&L computed from market
 * data. `review_required` trades are checked too: a View under review does not lift a stop.
 * Hourly and on demand: the host's scheduler calls `runOnce`.
 */
export class OutcomeTracker {
  private readonly writer: WriteContext;

  constructor(private readonly deps: OutcomeTrackerDeps) {
    this.writer = deps.writer ?? trackerWriter();
  }

  async runOnce(options: { now?: Date; signal?: AbortSignal } = {}): Promise<OutcomeRunReport> {
    const now = options.now ?? new Date();
    const today = day(now.toISOString());
    const report: OutcomeRunReport = { at: now.toISOString(), checked: [], closed: [], open: [], skipped: [], recorded: [] };
    const { fs } = this.deps;

    for (const row of fs.store.records.withStatus('expressions', LIVE_EXPRESSION_STATUSES)) {
      if (options.signal?.aborted) break;
      report.checked.push(row.id);
      // An edit landing while the exit was being worked out (the PM moving a stop) makes the close
      // refuse; the trade is then checked again on its new terms, not closed on the old ones.
      for (let attempt = 1; attempt <= MAX_CHECKS; attempt++) {
        const again = await this.checkOne(row.id, now, today, report, options.signal, attempt === MAX_CHECKS);
        if (!again) break;
      }
    }

    // Closed Expressions with an exit on record but no resolved Outcome: completed here, once.
    const seen = new Set(report.skipped.map((s) => s.id));
    for (const id of this.closedWithoutOutcome()) {
      if (options.signal?.aborted) break;
      if (seen.has(id)) continue;
      const doc = parseRecord(fs.readFile(`/memory/expressions/${id}.md`));
      const stamp = text(doc.header.activated_at) ?? text(doc.header.approved_at);
      const outcome = await this.resolve(id, stamp, now);
      if ('why' in outcome) report.skipped.push({ id, why: `closed without a resolvable Outcome: ${outcome.why}` });
      else if (outcome.written) report.recorded.push({ id, outcome: outcome.id });
    }
    return report;
  }

  /** One live Expression against its exit rules; true when it changed meanwhile and must be checked again. */
  private async checkOne(id: string, now: Date, today: string, report: OutcomeRunReport, signal: AbortSignal | undefined, last: boolean): Promise<boolean> {
    const { fs } = this.deps;
    const text0 = fs.readFile(`/memory/expressions/${id}.md`);
    const doc = parseRecord(text0);
    if (!countsInBook(statusOfDoc(doc.header.status))) {
      report.skipped.push({ id, why: `it became ${statusOfDoc(doc.header.status) || 'without a status'} while being checked` });
      return false;
    }
    const terms = readTradeTerms(doc);
    const activated = text(doc.header.activated_at) ?? text(doc.header.approved_at);
    const entryDate = entryDateOf(doc, terms);
    if (!entryDate) {
      report.skipped.push({ id, why: 'it has no entry date (`entry_date`, an ENTRY line, or the activation stamp)' });
      return false;
    }
    if (entryDate > today) {
      report.skipped.push({ id, why: `its entry date ${entryDate} is in the future` });
      return false;
    }
    const ev = await evaluateTrade(this.deps.market, terms, { entryDate, today, signal });
    if ('why' in ev) {
      report.skipped.push({ id, why: ev.why });
      return false;
    }
    if (!ev.exit) {
      report.open.push({ id, asOf: ev.series.asOf, series: `${ev.instrument} (${ev.series.source})`, ...(ev.waiting ? { note: ev.waiting } : {}) });
      return false;
    }
    const exit: ExpressionExit = {
      reason: ev.exit.reason,
      exitPrice: ev.exit.price,
      exitDate: ev.exit.date,
      entryPrice: ev.entryPrice,
      entryDate: ev.entryDate,
      quote: ev.quote,
      gainsWhen: ev.direction,
      pnlPct: ev.exit.pnl.pnlPct,
      pnlBp: ev.exit.pnl.pnlBp,
      basis: sha256(text0),
      series: { instrument: ev.instrument, ...ev.series },
    };
    let closed: { ok: boolean; message: string; changed?: boolean };
    try {
      closed = await this.deps.closeExpression(id, exit);
    } catch (e) {
      closed = { ok: false, message: (e as Error).message };
    }
    if (!closed.ok) {
      if (closed.changed && !last) return true;
      report.skipped.push({ id, why: `its ${exit.reason} triggered on ${exit.exitDate} but closing it was refused: ${closed.message}` });
      return false;
    }
    const outcome = await this.resolve(id, activated ?? `${entryDate}T23:59:59.999Z`, now);
    if ('why' in outcome) {
      report.skipped.push({ id, why: `closed, but its Outcome could not be recorded: ${outcome.why}` });
      return false;
    }
    const series = `${ev.instrument} (${ev.series.source})`;
    report.closed.push({ id, reason: exit.reason, exitDate: exit.exitDate, exitPrice: exit.exitPrice, pnlBp: exit.pnlBp, outcome: outcome.id, series });
    return false;
  }

  /** The Outcome of a closed Expression, from its record (idempotent: see recordOutcome). */
  private async resolve(exprId: string, statedAt: string | null, now: Date): Promise<{ id: string; written: boolean } | { why: string }> {
    const { fs } = this.deps;
    const doc = parseRecord(fs.readFile(`/memory/expressions/${exprId}.md`));
    const figures = figuresOfClosedExpression(doc);
    if ('why' in figures) return figures;
    const stated = statedForecast(fs, doc.header, doc.id, statedAt ?? `${figures.entryDate}T23:59:59.999Z`);
    return recordOutcome(fs, exprId, figures, stated, this.writer, now.toISOString());
  }

  /** One indexed pass: closed Expressions carrying an exit price, minus those with a resolved Outcome. */
  private closedWithoutOutcome(): string[] {
    const rows = this.deps.fs.store.db
      .prepare(
        `WITH resolved AS (
           SELECT json_extract(header, '$.expression') AS expression FROM memory_records
           WHERE category = 'outcomes' AND status = 'resolved')
         SELECT id FROM memory_records
         WHERE category = 'expressions' AND status = 'closed'
           AND json_extract(header, '$.exit_price') IS NOT NULL
           AND id NOT IN (SELECT expression FROM resolved WHERE expression IS NOT NULL)
         ORDER BY id`,
      )
      .all() as { id: string }[];
    return rows.map((r) => r.id);
  }
}
