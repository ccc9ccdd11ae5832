import type { RunOutcome, TriggerType, UsageTotals } from '../agent';
import type { MemoryRecords } from '../store';
import { staleViews, triggerMessage, type ViewDate } from './jobs';
import type { MorningReviewHooks } from './morning-review';
import { stripReportBlock } from './review-report';
import { type JobRunner, realTimers, type Timers } from './scheduler-types';

/** The part of the Analyst a scheduled run needs. */
export interface SessionStarter {
  send(input: { message: string; trigger?: TriggerType }): Promise<{ runId: string; sessionId: string }>;
  wait(runId: string): Promise<RunOutcome>;
  cancel(runId: string): boolean;
  sessionTotals(sessionId: string): UsageTotals;
}

export interface AnalystRunnerOptions {
  analyst: SessionStarter;
  now?: () => Date;
  /** Live Views and when each was last updated: the morning review flags the stale ones. */
  views?: () => readonly ViewDate[];
  /** The week's counts the retrospective starts from. */
  week?: () => { outcomes: number; completedCounterfactuals: number };
  /** Seed §15: after a successful retrospective the MetaOptimizer looks for skill edits; its note joins the summary. */
  afterRetrospective?: (signal: AbortSignal) => Promise<string | undefined>;
  /**
   * Issue 13 item 8: the morning review's moves are measured before it starts (they join the
   * trigger) and its answer's report block is saved with the run (see morningReviewReporter).
   */
  morningReview?: MorningReviewHooks;
  /** Hourly monitoring's mechanical checks (outcome exits, counterfactual resolutions). */
  monitor?: (signal: AbortSignal) => Promise<{ summary: string }>;
  /** How often a run's tokens and cost are compared with its budget. */
  budgetCheckMs?: number;
  timers?: Timers;
}

const SUMMARY_CHARS = 600;

/** The Views a morning review weighs for staleness, in one indexed query. */
export function liveViewDates(records: Pick<MemoryRecords, 'withStatus'>): ViewDate[] {
  return records.withStatus('views', ['active', 'watching']).map((r) => ({ id: r.id, status: r.status, updatedAt: r.updated_at }));
}

/**
 * Runs each analyst job in a new session (trigger `schedule`: never the PM's conversation) and
 * stops it when it spends past its budget's tokens or cost; hourly monitoring runs the
 * mechanical checks without a model.
 */
export function analystRunner(o: AnalystRunnerOptions): JobRunner {
  const now = o.now ?? (() => new Date());
  const timers = o.timers ?? realTimers;
  return async (job, run) => {
    if (job.kind === 'monitor') {
      if (!o.monitor) return { ok: false, error: `${job.title} needs the outcome tracker, which is not wired in this build.` };
      const r = await o.monitor(run.signal);
      return { ok: true, costUsd: 0, summary: r.summary };
    }
    const at = now();
    const review = job.name === 'morning_review' ? o.morningReview : undefined;
    const prepared = review ? await review.before({ runId: run.runId, at, signal: run.signal }) : null;
    const message = triggerMessage(job, {
      now: at,
      zone: run.zone,
      scheduledFor: run.scheduledFor,
      stale: job.name === 'morning_review' && o.views ? staleViews(o.views(), at) : undefined,
      week: job.name === 'weekly_retrospective' ? o.week?.() : undefined,
      moves: prepared?.brief ?? undefined,
    });
    run.signal.throwIfAborted();
    const started = await o.analyst.send({ message, trigger: 'schedule' });
    const { runId, sessionId } = started;
    const spent = () => {
      const t = o.analyst.sessionTotals(sessionId);
      return { tokens: t.inputTokens + t.outputTokens + t.cacheReadTokens + t.cacheWriteTokens, costUsd: t.costUsd };
    };
    // An object, not a let: it is set inside the timer callback.
    const budget: { exceeded: string | null } = { exceeded: null };
    let watch: unknown = null;
    const checkBudget = () => {
      let s: { tokens: number; costUsd: number | null };
      try {
        s = spent();
      } catch {
        // The totals could not be read this time (a locked database): an uncaught throw here
        // would end the watch, and the run would go on unbudgeted. Look again next time.
        watch = timers.set(checkBudget, o.budgetCheckMs ?? 2000);
        return;
      }
      if (s.tokens > job.budget.maxTokens)
        budget.exceeded = `Stopped at ${s.tokens} tokens, over the ${job.budget.maxTokens}-token budget of the ${job.title.toLowerCase()}.`;
      else if (s.costUsd !== null && s.costUsd > job.budget.maxCostUsd)
        budget.exceeded = `Stopped at $${s.costUsd.toFixed(2)}, over the $${job.budget.maxCostUsd.toFixed(2)} budget of the ${job.title.toLowerCase()}.`;
      if (budget.exceeded) o.analyst.cancel(runId);
      else watch = timers.set(checkBudget, o.budgetCheckMs ?? 2000);
    };
    watch = timers.set(checkBudget, o.budgetCheckMs ?? 2000);
    const onAbort = () => o.analyst.cancel(runId);
    run.signal.addEventListener('abort', onAbort, { once: true });
    let out: RunOutcome;
    try {
      out = await o.analyst.wait(runId);
    } finally {
      timers.clear(watch);
      run.signal.removeEventListener('abort', onAbort);
    }
    const costUsd = spent().costUsd;
    // The morning review's report block is data for the report, not prose for the summary.
    const prose = job.name === 'morning_review' ? stripReportBlock(out.text) : out.text;
    const summary = prose.length > SUMMARY_CHARS ? `${prose.slice(0, SUMMARY_CHARS)}…` : prose;
    if (out.error) return { ok: false, sessionId, costUsd, error: `${out.error.code}: ${out.error.message}` };
    if (budget.exceeded) return { ok: false, sessionId, costUsd, summary: summary || null, error: budget.exceeded };
    if (out.stop === 'cancelled') return { ok: false, sessionId, costUsd, error: 'Stopped before it finished.' };
    if (out.stop === 'max_rounds')
      return { ok: false, sessionId, costUsd, summary: summary || null, error: `Stopped after ${out.rounds} rounds without a final answer.` };
    if (job.name === 'weekly_retrospective' && o.afterRetrospective) {
      try {
        const note = await o.afterRetrospective(run.signal);
        return { ok: true, sessionId, costUsd, summary: note ? `${summary}\n\n${note}` : summary };
      } catch (e) {
        return {
          ok: false,
          sessionId,
          costUsd,
          summary,
          error: `The retrospective finished, but the skill-edit check failed: ${(e as Error)?.message ?? String(e)}`,
        };
      }
    }
    if (review) {
      try {
        const r = await review.after(out.text, { runId: run.runId, sessionId, at, signal: run.signal });
        return { ok: true, sessionId, costUsd, summary: r.summary ? `${summary}\n\n${r.summary}` : summary };
      } catch (e) {
        return {
          ok: false,
          sessionId,
          costUsd,
          summary,
          error: `The morning review finished, but its report could not be saved: ${(e as Error)?.message ?? String(e)}`,
        };
      }
    }
    return { ok: true, sessionId, costUsd, summary };
  };
}
