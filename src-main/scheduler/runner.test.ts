import { describe, expect, it } from 'vitest';
import type { RunOutcome, UsageTotals } from '../agent';
import { JOBS } from './jobs';
import type { MorningReviewHooks } from './morning-review';
import { analystRunner, type SessionStarter } from './runner';
import type { JobRunContext } from './scheduler-types';
import { FakeClock, flush } from './testing';

/**
 * The runner against the Analyst's four-method surface, so a test can set what a session has
 * spent between budget checks (the real Analyst with a scripted model is exercised end to end in
 * src-main/host/handlers/schedule.test.ts).
 */
class SpendingAnalyst implements SessionStarter {
  readonly sent: string[] = [];
  readonly cancelled: string[] = [];
  totals: UsageTotals = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, cacheReadShare: 0 };
  private finish: ((o: RunOutcome) => void) | null = null;

  async send(input: { message: string }) {
    this.sent.push(input.message);
    return { runId: 'run_1', sessionId: 'sess_sched' };
  }
  wait(): Promise<RunOutcome> {
    return new Promise((resolve) => {
      this.finish = resolve;
    });
  }
  cancel(runId: string): boolean {
    this.cancelled.push(runId);
    this.end({ stop: 'cancelled', text: '' });
    return true;
  }
  sessionTotals(): UsageTotals {
    return { ...this.totals };
  }
  end(o: Partial<RunOutcome>): void {
    this.finish?.({ runId: 'run_1', sessionId: 'sess_sched', stop: 'answered', text: '', rounds: 3, toolCalls: [], ...o });
  }
}

const job = (name: string) => JOBS.find((j) => j.name === name)!;
const ctx = (signal = new AbortController().signal): JobRunContext => ({
  runId: 1,
  scheduledFor: new Date('2026-01-15T12:00:00Z'),
  trigger: 'schedule',
  signal,
  zone: 'America/New_York',
});

function setup(afterRetrospective?: (signal: AbortSignal) => Promise<string | undefined>, morningReview?: MorningReviewHooks) {
  const clock = new FakeClock('2026-01-15T12:00:05Z');
  const analyst = new SpendingAnalyst();
  const run = analystRunner({ analyst, now: clock.now, timers: clock, budgetCheckMs: 1000, afterRetrospective, morningReview });
  return { clock, analyst, run };
}

describe('analystRunner budgets', () => {
  it('stops a morning review that spends past 400k tokens, and says so in the run log', async () => {
    const { clock, analyst, run } = setup();
    const done = run(job('morning_review'), ctx());
    await flush();
    analyst.totals = { ...analyst.totals, inputTokens: 380_000, cacheReadTokens: 30_000, costUsd: 1.2 };
    await clock.advance(1000);
    const r = await done;
    expect(analyst.cancelled).toEqual(['run_1']);
    expect(r).toMatchObject({
      ok: false,
      sessionId: 'sess_sched',
      costUsd: 1.2,
      error: 'Stopped at 410000 tokens, over the 400000-token budget of the morning review.',
    });
  });

  it('stops an end-of-day review that costs more than $3', async () => {
    const { clock, analyst, run } = setup();
    const done = run(job('end_of_day'), ctx());
    await flush();
    await clock.advance(3000); // within budget: keeps watching
    expect(analyst.cancelled).toEqual([]);
    analyst.totals = { ...analyst.totals, inputTokens: 90_000, costUsd: 3.41 };
    await clock.advance(1000);
    expect((await done).error).toBe('Stopped at $3.41, over the $3.00 budget of the end-of-day review.');
  });

  it('a budget check whose totals cannot be read once keeps watching, and still stops the run past budget', async () => {
    // Before: the throw escaped the timer and the watch ended — a looping review would spend on.
    const { clock, analyst, run } = setup();
    const real = analyst.sessionTotals.bind(analyst);
    let failures = 1;
    analyst.sessionTotals = () => {
      if (failures-- > 0) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      return real();
    };
    const done = run(job('end_of_day'), ctx());
    await flush();
    await clock.advance(1000); // the check that throws
    analyst.totals = { ...analyst.totals, inputTokens: 90_000, costUsd: 3.41 };
    await clock.advance(1000);
    expect((await done).error).toBe('Stopped at $3.41, over the $3.00 budget of the end-of-day review.');
  });

  it('a run within budget is ok with its answer as the summary; the budget watch stops with it', async () => {
    const { clock, analyst, run } = setup();
    const done = run(job('end_of_day'), ctx());
    await flush();
    analyst.totals = { ...analyst.totals, inputTokens: 20_000, outputTokens: 1_000, costUsd: 0.31 };
    analyst.end({ text: 'Closed the day: two Observations recorded.' });
    expect(await done).toEqual({ ok: true, sessionId: 'sess_sched', costUsd: 0.31, summary: 'Closed the day: two Observations recorded.' });
    expect(analyst.sent[0]).toMatch(/^End-of-day review — 2026-01-15\./);
    expect(clock.timerCount).toBe(0);
  });

  it('the scheduler aborting the run (app stopping, time budget) cancels the analyst run', async () => {
    const { analyst, run } = setup();
    const controller = new AbortController();
    const done = run(job('weekly_retrospective'), ctx(controller.signal));
    await flush();
    controller.abort();
    expect(await done).toMatchObject({ ok: false, error: 'Stopped before it finished.' });
    expect(analyst.cancelled).toEqual(['run_1']);
  });

  it('a model error or running out of rounds is a failed run with the reason', async () => {
    const a = setup();
    const failed = a.run(job('morning_review'), ctx());
    await flush();
    a.analyst.end({ stop: 'failed', error: { code: 'unauthorized', message: 'No Anthropic API key is set.', requestId: null } });
    expect((await failed).error).toBe('unauthorized: No Anthropic API key is set.');

    const b = setup();
    const looped = b.run(job('morning_review'), ctx());
    await flush();
    b.analyst.end({ stop: 'max_rounds', rounds: 25, text: 'Partial notes' });
    expect(await looped).toMatchObject({ ok: false, summary: 'Partial notes', error: 'Stopped after 25 rounds without a final answer.' });
  });

  it('after a retrospective the skill-edit check runs and its note joins the summary; its failure fails the run', async () => {
    const a = setup(async () => 'Proposed SEP-003 (5 corroborating PK).');
    const ok = a.run(job('weekly_retrospective'), ctx());
    await flush();
    a.analyst.end({ text: 'Week reviewed.' });
    expect(await ok).toMatchObject({ ok: true, summary: 'Week reviewed.\n\nProposed SEP-003 (5 corroborating PK).' });

    const b = setup(async () => {
      throw new Error('proposal model unavailable');
    });
    const failed = b.run(job('weekly_retrospective'), ctx());
    await flush();
    b.analyst.end({ text: 'Week reviewed.' });
    expect(await failed).toMatchObject({
      ok: false,
      summary: 'Week reviewed.',
      error: 'The retrospective finished, but the skill-edit check failed: proposal model unavailable',
    });
  });

  it('the morning review gets the measured moves in its trigger and hands its answer to the report; a report that cannot be saved fails the run', async () => {
    const seen: { answer: string; runId: number; sessionId: string }[] = [];
    const hooks = (fail: boolean): MorningReviewHooks => ({
      before: async () => ({ brief: 'Moves since the last review (daily closes, from before 2026-01-14):\n- V-001: UST2Y 4.1 → 4.05 (−5 bp)' }),
      after: async (answer, ctx) => {
        if (fail) throw new Error('database is closed');
        seen.push({ answer, runId: ctx.runId, sessionId: ctx.sessionId });
        return { summary: 'Report: 1 invalidation condition fired (V-001).' };
      },
    });
    const answer = 'V-001 is in trouble.\n\n```json\n{"views":[{"id":"V-001","invalidations_fired":["x"],"action":"review"}]}\n```';

    const a = setup(undefined, hooks(false));
    const ok = a.run(job('morning_review'), ctx());
    await flush();
    expect(a.analyst.sent[0]).toContain('- V-001: UST2Y 4.1 → 4.05 (−5 bp)');
    expect(a.analyst.sent[0]).toContain('End your answer with one fenced ```json block');
    a.analyst.end({ text: answer });
    expect(await ok).toMatchObject({ ok: true, summary: 'V-001 is in trouble.\n\nReport: 1 invalidation condition fired (V-001).' });
    expect(seen).toEqual([{ answer, runId: 1, sessionId: 'sess_sched' }]);

    const b = setup(undefined, hooks(true));
    const failed = b.run(job('morning_review'), ctx());
    await flush();
    b.analyst.end({ text: answer });
    expect(await failed).toMatchObject({
      ok: false,
      summary: 'V-001 is in trouble.',
      error: 'The morning review finished, but its report could not be saved: database is closed',
    });
  });
});
