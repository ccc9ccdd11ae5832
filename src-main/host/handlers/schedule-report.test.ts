import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Analyst } from '../../agent';
import { procedures } from '../../api/procedures';
import { defaultGuardrailLimits } from '../../guardrails';
import { ScriptedModel, type ScenarioInput } from '../../llm';
import { analystRunner, liveViewDates, morningReviewReporter, type ReviewReport, ReviewReports, Scheduler } from '../../scheduler';
import { FakeClock } from '../../scheduler/testing';
import { openTestWorkspace, type TestWorkspace } from '../../tools/testing';
import { marketPortFromRegistry } from '../../tracking';
import type { CoreContext } from '../context';
import { scheduleHandlers } from './schedule';

type AnyHandler = (input: unknown, ctx: CoreContext) => unknown;

let tw: TestWorkspace;
let scheduler: Scheduler | null = null;
let analyst: Analyst | null = null;
beforeEach(async () => {
  tw = await openTestWorkspace();
});
afterEach(async () => {
  await scheduler?.stop();
  await analyst?.close();
  scheduler = null;
  analyst = null;
  tw.close();
});

/**
 * The morning review as the core wires it: a real Analyst (scripted model) on the seeded
 * workspace, the real providers over the demo data, the reporter saving into the workspace
 * database, and the schedule API reading it back through the procedures' own schemas.
 */
function build(scenario: ScenarioInput, clock: FakeClock) {
  const model = new ScriptedModel(scenario);
  analyst = new Analyst({
    fs: tw.ws.fs,
    providers: tw.providers,
    search: (req) => tw.index.search(req),
    model: () => model,
    limits: () => defaultGuardrailLimits,
    settings: () => ({ sessionTimeoutMinutes: 30, timezone: 'US/Eastern' }),
    emit: () => {},
    now: clock.now,
  });
  const reports = new ReviewReports(tw.ws.fs.store.db);
  const notices: { report: ReviewReport; notice: { level: string; message: string } | null }[] = [];
  const run = analystRunner({
    analyst,
    now: clock.now,
    views: () => liveViewDates(tw.ws.fs.store.records),
    timers: clock,
    morningReview: morningReviewReporter({
      fs: tw.ws.fs,
      market: marketPortFromRegistry(tw.providers),
      reports,
      onReport: (report, notice) => notices.push({ report, notice }),
    }),
  });
  scheduler = new Scheduler({ db: tw.ws.fs.store.db, run, timeZone: () => 'US/Eastern', now: clock.now, timers: clock });
  const map = scheduleHandlers(scheduler, reports) as unknown as Record<string, AnyHandler>;
  const call = async (name: keyof typeof procedures, input: unknown) => {
    const spec = procedures[name];
    return spec.output.parse(await map[name]!(spec.input.parse(input), {} as CoreContext)) as never;
  };
  return { model, scheduler, call, notices };
}

/** Only Run now in these tests: a 07:00 slot must not take the scripted turns. */
async function pauseAll(call: (name: keyof typeof procedures, input: unknown) => Promise<unknown>) {
  for (const job of ['morning_review', 'end_of_day', 'weekly_retrospective', 'hourly_monitoring']) await call('schedule/pause', { job });
}

const fence = (o: unknown) => `\`\`\`json\n${JSON.stringify(o)}\n\`\`\``;

describe('the morning review report', () => {
  it('measures the moves before the session, saves the answer’s report with the run, and serves it through schedule/report', async () => {
    const clock = new FakeClock('2026-11-20T12:00:00Z');
    const answer = [
      'Payrolls printed 230k again: V-001 is under pressure. The yen view holds.',
      fence({
        views: [
          { id: 'V-001', invalidations_fired: ['Two consecutive payroll prints above 200k'], action: 'review', note: 'Second print above 200k.' },
          { id: 'V-003', invalidations_fired: ['Wage data disappointed'], action: 'hold', note: 'Paraphrased condition.' },
          { id: 'V-099', invalidations_fired: [], action: 'hold' },
        ],
      }),
    ].join('\n\n');
    const {
      scheduler: s,
      call,
      notices,
      model,
    } = build(
      {
        name: 'morning-report',
        turns: [
          {
            // The analyst starts from the same figures the report shows, and is asked for the block.
            expect: {
              contains: [
                'Moves since the last review',
                '- V-001: ust_yields.sofr_2y_swap 3.379 → 3.362 (−1.7 bp, 2026-11-18 → 2026-11-20',
                'End your answer with one fenced ```json block',
              ],
            },
            reply: { text: answer },
          },
        ],
      },
      clock,
    );
    s.start();
    await pauseAll(call);
    const started: { run: { id: number } } = await call('schedule/run-now', { job: 'morning_review' });
    await s.settled();
    expect(model.finished).toBe(true);

    const history: { runs: { id: number; status: string; summary: string }[] } = await call('schedule/history', { job: 'morning_review' });
    expect(history.runs[0]).toMatchObject({ id: started.run.id, status: 'ok' });
    // The summary is the prose plus the report's line, not the JSON.
    expect(history.runs[0]!.summary).toBe(
      'Payrolls printed 230k again: V-001 is under pressure. The yen view holds.\n\nReport: 1 of 5 live Views measured; 2 invalidation conditions fired (V-001, V-003).',
    );

    const { report }: { report: ReviewReport } = await call('schedule/report', { runId: started.run.id });
    expect(report).toMatchObject({
      runId: started.run.id,
      at: '2026-11-20T12:00:00.000Z',
      since: '2026-11-19T12:00:00.000Z',
      sinceSource: 'default_24h',
      parsed: true,
    });
    const v1 = report.views.find((v) => v.id === 'V-001')!;
    expect(v1).toMatchObject({
      action: 'review',
      note: 'Second print above 200k.',
      invalidationsFired: [{ text: 'Two consecutive payroll prints above 200k.', matched: true }],
      moves: [{ instrument: 'ust_yields.sofr_2y_swap', change: -1.7, unit: 'bp', asOf: '2026-11-20' }],
    });
    expect(report.views.find((v) => v.id === 'V-003')!.invalidationsFired).toEqual([{ text: 'Wage data disappointed', matched: false }]);
    expect(report.views.find((v) => v.id === 'V-002')).toMatchObject({ action: null, invalidationsFired: [], missing: [{ expression: 'E-002' }] });
    expect(report.warnings).toEqual([
      'V-003: "Wage data disappointed" is not one of its invalidation conditions.',
      'The report names V-099, which is not a live View of this review; its entry was dropped.',
    ]);

    // The host turns this into an app/notice; a warning becomes a desktop notification.
    expect(notices.map((n) => n.notice)).toEqual([
      { level: 'warning', message: "Morning review: 2 invalidation conditions fired (V-001, V-003; 1 not among the View's own conditions)." },
    ]);

    const list: { reports: unknown[] } = await call('schedule/reports', {});
    expect(list.reports).toEqual([
      {
        runId: started.run.id,
        sessionId: expect.any(String),
        at: '2026-11-20T12:00:00.000Z',
        since: '2026-11-19T12:00:00.000Z',
        parsed: true,
        counts: { views: 5, moved: 1, fired: 2, unmatched: 1, warnings: 2 },
      },
    ]);
    await expect(call('schedule/report', { runId: started.run.id + 100 })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('the next review measures from the previous one’s start; a quiet morning with no block saves a moves-only report and only an info notice', async () => {
    const clock = new FakeClock('2026-11-19T12:00:00Z');
    const {
      scheduler: s,
      call,
      notices,
    } = build(
      {
        name: 'two-mornings',
        turns: [
          { reply: { text: `All quiet.\n\n${fence({ views: [{ id: 'V-001', invalidations_fired: [], action: 'hold' }] })}` } },
          { reply: { text: 'All quiet again.' } },
        ],
      },
      clock,
    );
    s.start();
    await pauseAll(call);
    await call('schedule/run-now', { job: 'morning_review' });
    await s.settled();
    await clock.sleep(86_400_000);
    const second: { run: { id: number } } = await call('schedule/run-now', { job: 'morning_review' });
    await s.settled();
    const { report }: { report: ReviewReport } = await call('schedule/report', { runId: second.run.id });
    expect(report).toMatchObject({ since: '2026-11-19T12:00:00.000Z', sinceSource: 'previous_review', parsed: false });
    expect(report.views.find((v) => v.id === 'V-001')!.moves[0]).toMatchObject({
      from: { date: '2026-11-18', value: 3.379 },
      to: { date: '2026-11-20', value: 3.362 },
    });
    // First morning: nothing fired, a block was there → no notice at all. Second: no block → info.
    expect(notices.map((n) => n.notice)).toEqual([
      null,
      { level: 'info', message: 'Morning review finished without its structured report; read the answer in its session.' },
    ]);
  });

  it('without the report store wired, schedule/report says so instead of failing obscurely', async () => {
    const clock = new FakeClock('2026-11-20T12:00:00Z');
    build({ turns: [{ reply: { text: 'unused' } }] }, clock);
    const bare = scheduleHandlers(scheduler!) as unknown as Record<string, AnyHandler>;
    expect(() => bare['schedule/reports']!({}, {} as CoreContext)).toThrow(expect.objectContaining({ code: 'unavailable' }));
  });
});
