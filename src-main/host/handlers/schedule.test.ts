import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Analyst } from '../../agent';
import { procedures } from '../../api/procedures';
import { scheduleEvents } from '../../api/schedule';
import { defaultGuardrailLimits } from '../../guardrails';
import { ScriptedModel, type ScenarioInput } from '../../llm';
import { analystRunner, liveViewDates, Scheduler } from '../../scheduler';
import { ensureScheduleTables, FakeClock } from '../../scheduler/testing';
import { openTestWorkspace, type TestWorkspace } from '../../tools/testing';
import type { CoreContext } from '../context';
import { scheduleHandlers, toScheduleJobView } from './schedule';

type AnyHandler = (input: unknown, ctx: CoreContext) => unknown;

let tw: TestWorkspace;
let scheduler: Scheduler | null = null;
let analyst: Analyst | null = null;
beforeEach(async () => {
  tw = await openTestWorkspace();
  ensureScheduleTables(tw.ws.fs.store.db);
});
afterEach(async () => {
  await scheduler?.stop();
  await analyst?.close();
  scheduler = null;
  analyst = null;
  tw.close();
});

/**
 * The scheduler as the core will wire it: each analyst job starts a new session of a real Analyst
 * (scripted model), on the seeded workspace, with the morning review told which Views are stale.
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
  const run = analystRunner({ analyst, now: clock.now, views: () => liveViewDates(tw.ws.fs.store.records), timers: clock });
  scheduler = new Scheduler({ db: tw.ws.fs.store.db, run, timeZone: () => 'US/Eastern', now: clock.now, timers: clock });
  const map = scheduleHandlers(scheduler) as unknown as Record<string, AnyHandler>;
  // Every call goes through the registered procedure's own input and output schemas.
  const call = async (name: keyof typeof procedures, input: unknown) => {
    const spec = procedures[name];
    return spec.output.parse(await map[name]!(spec.input.parse(input), {} as CoreContext)) as never;
  };
  return { model, scheduler, call };
}

const thirtyDaysOn = () => new FakeClock(new Date(Date.now() + 30 * 86_400_000));

describe('schedule API', () => {
  it('lists jobs with next runs in US/Eastern, runs the morning review now in its own session, and logs it with cost and summary', async () => {
    const clock = thirtyDaysOn();
    const {
      model,
      scheduler: s,
      call,
    } = build(
      {
        name: 'morning',
        turns: [
          {
            // The seeded Views were written today: thirty days on, every live one is stale.
            expect: { contains: ['Morning review — ', 'Budget: about 8 analyses', 'Stale Views (not updated for more than 14 days)', 'V-001 (30 days)'] },
            reply: { text: 'Morning review: V-001 still holds; nothing else moved overnight.' },
          },
        ],
      },
      clock,
    );
    const changes: unknown[] = [];
    s.onChange((job) => changes.push(scheduleEvents['schedule/changed'].parse(toScheduleJobView(s.status(job)))));
    s.start();

    const list: {
      timeZone: string;
      timeZoneNote: null;
      jobs: { job: string; nextRun: string; nextRunLocal: string; paused: boolean; budget: { analyses: number } }[];
    } = await call('schedule/list', {});
    expect(list.timeZone).toBe('America/New_York');
    expect(list.timeZoneNote).toBeNull();
    expect(list.jobs.map((j) => j.job)).toEqual(['morning_review', 'end_of_day', 'weekly_retrospective', 'hourly_monitoring']);
    const morning = list.jobs[0]!;
    expect(morning.nextRunLocal).toMatch(/^(Mon|Tue|Wed|Thu|Fri) \d{4}-\d{2}-\d{2} 07:00 E[SD]T$/);
    expect(Date.parse(morning.nextRun)).toBeGreaterThan(clock.now().getTime());
    expect(morning.budget.analyses).toBe(8);

    const started: { run: { id: number; status: string; trigger: string } } = await call('schedule/run-now', { job: 'morning_review' });
    expect(started.run).toMatchObject({ status: 'running', trigger: 'manual' });
    await expect(call('schedule/run-now', { job: 'morning_review' })).rejects.toMatchObject({ code: 'conflict' });
    await s.settled();
    expect(model.finished).toBe(true);

    const history: { runs: { id: number; status: string; sessionId: string; costUsd: number; summary: string; error: null }[] } = await call(
      'schedule/history',
      {
        job: 'morning_review',
      },
    );
    expect(history.runs).toHaveLength(1);
    const run = history.runs[0]!;
    expect(run).toMatchObject({
      id: started.run.id,
      status: 'ok',
      costUsd: 0,
      summary: 'Morning review: V-001 still holds; nothing else moved overnight.',
      error: null,
    });
    // Its own session, with the trigger as the first turn (the PM can open it from history).
    const opened = analyst!.sessions.open(run.sessionId);
    expect(opened.turnHistory).toContain('Query: Morning review — ');
    expect(changes.length).toBeGreaterThanOrEqual(2); // started, finished
  });

  it('pauses and resumes through the API, and the pause is what the list shows', async () => {
    const clock = thirtyDaysOn();
    const { call } = build({ turns: [{ reply: { text: 'unused' } }] }, clock);
    scheduler!.start();
    const paused: { job: { job: string; paused: boolean; nextRun: null } } = await call('schedule/pause', { job: 'end_of_day' });
    expect(paused.job).toMatchObject({ job: 'end_of_day', paused: true, nextRun: null, nextRunLocal: null });
    const list: { jobs: { job: string; paused: boolean }[] } = await call('schedule/list', {});
    expect(list.jobs.filter((j) => j.paused).map((j) => j.job)).toEqual(['end_of_day']);
    const resumed: { job: { paused: boolean; nextRunLocal: string } } = await call('schedule/resume', { job: 'end_of_day' });
    expect(resumed.job.paused).toBe(false);
    expect(resumed.job.nextRunLocal).toMatch(/ 16:30 E[SD]T$/);
  });

  it('hourly monitoring without the outcome tracker is logged failed with the reason, not silently skipped', async () => {
    const clock = thirtyDaysOn();
    const { call } = build({ turns: [{ reply: { text: 'unused' } }] }, clock);
    scheduler!.start();
    await call('schedule/run-now', { job: 'hourly_monitoring' });
    await scheduler!.settled();
    const history: { runs: { status: string; error: string }[] } = await call('schedule/history', {});
    expect(history.runs.map((r) => [r.status, r.error])).toEqual([
      ['failed', 'Hourly monitoring needs the outcome tracker, which is not wired in this build.'],
    ]);
  });

  it('refuses a job that does not exist at the boundary, naming the field', () => {
    const parsed = procedures['schedule/run-now'].input.safeParse({ job: 'lunch_review' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['job']);
    expect(procedures['schedule/history'].input.safeParse({ limit: 0 }).success).toBe(false);
  });
});
