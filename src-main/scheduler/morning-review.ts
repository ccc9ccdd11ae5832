import type { ForgeFS } from '../fs';
import type { MarketPort } from '../tracking';
import { movesSinceLastReview, type SeriesMove, type ViewMoves } from './review-moves';
import { buildReviewReport, type ReviewReport, reportSummaryLine, reviewNotice } from './review-report';
import type { ReviewReports } from './review-reports';

/**
 * What analystRunner calls around a morning review: `before` measures the moves (they join the
 * trigger, so the analyst starts from the same figures the report shows); `after` reads the
 * answer's report block, saves the report with the run and announces it.
 */
export interface MorningReviewHooks {
  before(ctx: { runId: number; at: Date; signal: AbortSignal }): Promise<{ brief: string | null }>;
  after(answer: string, ctx: { runId: number; sessionId: string; at: Date; signal: AbortSignal }): Promise<{ summary?: string }>;
}

export interface MorningReviewReporterOptions {
  fs: ForgeFS;
  market: MarketPort;
  reports: Pick<ReviewReports, 'save' | 'previousReviewStart'>;
  /**
   * Told of every saved report, with the notice the PM should see (null on a quiet morning). The
   * host sends it as `app/notice`; the desktop shell shows a warning as a notification.
   */
  onReport?: (report: ReviewReport, notice: { level: 'warning' | 'info'; message: string } | null) => void;
}

const DAY_MS = 86_400_000;

interface Measured {
  runId: number;
  since: Date;
  sinceSource: ReviewReport['sinceSource'];
  moves: ViewMoves[];
  warnings: string[];
}

const signed = (n: number) => `${n > 0 ? '+' : n < 0 ? '−' : '±'}${Math.abs(n)}`;

export function formatMove(m: SeriesMove): string {
  return `${m.instrument} ${m.from.value} → ${m.to.value} (${signed(m.change)}${m.unit === 'bp' ? ' bp' : '%'}, ${m.from.date} → ${m.to.date}, as of ${m.asOf})`;
}

/** The moves as the trigger message lists them: one line per live View. */
export function movesBrief(moves: readonly ViewMoves[], since: Date): string {
  const lines = [`Moves since the last review (daily closes, from before ${since.toISOString().slice(0, 10)}):`];
  for (const v of moves) {
    const measured = v.moves.map(formatMove);
    const missing = v.missing.map((m) => (m.expression ? `${m.expression}: ${m.why}` : m.why));
    lines.push(`- ${v.id}: ${[...measured, ...missing.map((w) => `not measured — ${w}`)].join('; ') || 'nothing to measure'}`);
  }
  if (!moves.length) lines.push('- no live View.');
  return lines.join('\n');
}

export function morningReviewReporter(o: MorningReviewReporterOptions): MorningReviewHooks {
  // One morning review runs at a time (the scheduler's rule), so one pending measurement suffices.
  let pending: Measured | null = null;

  async function measure(runId: number, at: Date, signal: AbortSignal): Promise<Measured> {
    const previous = o.reports.previousReviewStart(runId);
    const since = previous ?? new Date(at.getTime() - DAY_MS);
    const sinceSource = previous ? 'previous_review' : 'default_24h';
    try {
      return { runId, since, sinceSource, moves: await movesSinceLastReview({ fs: o.fs, market: o.market, since, now: at, signal }), warnings: [] };
    } catch (e) {
      if (signal.aborted) throw e;
      // The review goes on without figures; the report says why it has none.
      return { runId, since, sinceSource, moves: [], warnings: [`The moves could not be measured: ${(e as Error)?.message ?? String(e)}`] };
    }
  }

  return {
    async before({ runId, at, signal }) {
      pending = await measure(runId, at, signal);
      return { brief: pending.moves.length ? movesBrief(pending.moves, pending.since) : null };
    },
    async after(answer, { runId, sessionId, at, signal }) {
      const m = pending?.runId === runId ? pending : await measure(runId, at, signal);
      pending = null;
      const report = buildReviewReport({
        runId,
        sessionId,
        at,
        since: m.since,
        sinceSource: m.sinceSource,
        moves: m.moves,
        answer,
        warnings: m.warnings,
      });
      o.reports.save(runId, report);
      try {
        o.onReport?.(report, reviewNotice(report));
      } catch {
        // The report is saved; a failed announcement must not fail the review.
      }
      return { summary: reportSummaryLine(report) };
    },
  };
}
