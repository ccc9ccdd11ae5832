import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ForgeFS } from '../../fs';
import { type Model, ModelError, ScriptedModel, type ScenarioInput } from '../../llm';
import { buildReviewReport, ReviewReports, ScheduleLog } from '../../scheduler';
import { plainRecord } from '../../store/testing';
import { openTestWorkspace, type TestWorkspace } from '../../tools/testing';
import { type ReplayRunner, replayRunner } from './schedule';

const ZONE = 'America/New_York';
const MORNING = '2026-10-10T11:00:00.000Z'; // 07:00 in New York, the original review's start

const view = (thesis: string, confidence: number) =>
  `# V-900 — Fed cuts before Christmas\nstatus: active\nconfidence: ${confidence}\nscope: US rates\ncategory: macro_regime\nhorizon: 2027-03-31\nexpressions: [E-900]\n---\n## SUMMARY\n${thesis}\n\n## INVALIDATION\n- Two consecutive payroll prints above 200k.\n- Core PCE above 0.3% m/m for two months.\n`;
const expression =
  '# E-900 — Receive 2y SOFR\nstatus: active\nview_id: V-900\ninstrument: USD 2y SOFR swap (receive fixed)\nnotional: 5\nmax_loss_pct: 0.5\nfactor: us_rates\nduration_impact: 1\nprice_series: ust_yields.sofr_2y_swap\n---\n## SUMMARY\nReceive 2y.\n';
const verdict = (note: string, fired: string[] = []) =>
  `Held.\n\n\`\`\`json\n{"views":[{"id":"V-900","invalidations_fired":${JSON.stringify(fired)},"action":"hold","note":"${note}"}]}\n\`\`\``;

/** Every row of every table, so a replay that wrote anything live (a record, an audit row, a session) is seen. */
function dump(t: TestWorkspace): Record<string, unknown[]> {
  const db = t.ws.fs.store.db;
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[];
  return Object.fromEntries(tables.map((x) => [x.name, db.prepare(`SELECT * FROM "${x.name}"`).raw().all()]));
}

let t: TestWorkspace;
let clock: string;
let reports: ReviewReports;
let log: ScheduleLog;

beforeEach(async () => {
  t = await openTestWorkspace();
  const store = t.ws.fs.store;
  // A ForgeFS over the same database whose clock the test sets: versions written on known days.
  const dated = new ForgeFS({ store, skillsDir: join(t.dir, 'skills'), now: () => clock });
  const pm = { actor: 'pm' as const };
  clock = '2026-10-01T14:00:00.000Z';
  await dated.writeFile('/memory/views/V-900.md', view('OLD THESIS: two cuts by March.', 0.6), pm);
  await dated.writeFile('/memory/expressions/E-900.md', expression, pm);
  clock = '2026-10-15T14:00:00.000Z';
  await dated.writeFile('/memory/observations/new.md', '# new — LATER OBSERVATION: payrolls surprised\n---\n## SUMMARY\nPayrolls 250k.\n', pm);
  clock = '2026-10-20T14:00:00.000Z';
  await dated.writeFile('/memory/views/V-900.md', view('NEW THESIS: no cut this year.', 0.3), pm);
  // An Outcome recorded after the date for the Expression the review covers.
  store.records.upsert(
    plainRecord({
      category: 'outcomes',
      id: 'OUT-900',
      title: 'E-900 stopped out',
      body: null,
      status: 'resolved',
      at: '2026-10-25T20:00:00.000Z',
      header: JSON.stringify({ expression: 'E-900', hit: 'false', pnl: '−25 bp of NAV', exit_reason: 'stop' }),
    }),
  );
  reports = new ReviewReports(store.db);
  log = new ScheduleLog(store.db);
  const moves = [{ id: 'V-900', title: 'Fed cuts before Christmas', status: 'active', invalidation: [], moves: [], missing: [] }];
  const original = log.begin({ job: 'morning_review', trigger: 'schedule', scheduledFor: new Date(MORNING), startedAt: new Date(MORNING) });
  log.finish(original.id, { status: 'ok', at: new Date('2026-10-10T11:05:00Z') });
  reports.save(
    original.id,
    buildReviewReport({
      sessionId: 'sess_orig',
      at: new Date(MORNING),
      since: new Date('2026-10-09T11:00:00Z'),
      sinceSource: 'previous_review',
      moves,
      answer: verdict('ORIGINAL: hold E-900'),
    }),
  );
  const later = log.begin({ job: 'morning_review', trigger: 'schedule', scheduledFor: null, startedAt: new Date('2026-10-18T11:00:00Z') });
  log.finish(later.id, { status: 'ok', at: new Date('2026-10-18T11:05:00Z') });
  reports.save(
    later.id,
    buildReviewReport({
      sessionId: 'sess_later',
      at: new Date('2026-10-18T11:00:00Z'),
      since: new Date(MORNING),
      sinceSource: 'previous_review',
      moves: [{ ...moves[0]!, invalidation: ['Two consecutive payroll prints above 200k.'] }],
      answer: verdict('payrolls', ['Two consecutive payroll prints above 200k.']),
    }),
  );
});
afterEach(() => t.close());

/** The replay's scripted analyst: reads the View, asks for data after the date, tries to write, then answers. */
const scenario: ScenarioInput = {
  name: 'replay',
  turns: [
    {
      expect: { contains: ['REPLAY — the morning review of 2026-10-10', 'This session is as of 2026-10-10'] },
      reply: {
        toolCalls: [
          { name: 'read', input: { path: '/memory/views/V-900.md', depth: 'full' } },
          { name: 'fetch', input: { source: 'economic', params: { series_id: 'PAYEMS', start: '2026-10-15' } } },
          { name: 'read', input: { path: '/memory/' } },
        ],
      },
    },
    {
      expect: { contains: 'OLD THESIS' },
      reply: {
        toolCalls: [{ name: 'write', input: { path: '/memory/observations/new.md', content: '# new — REPLAY NOTE\n---\n## SUMMARY\nWritten by a replay.\n' } }],
      },
    },
    { expect: { toolResult: 'write', isError: false }, reply: { text: verdict('REPLAYED: hold E-900') } },
  ],
};

/** The app's wiring (host/core.ts) with the scripted model, recording every message the analyst is sent. */
function runner(model: Model, sent: string[], fredKey = false, maxMinutes?: number): ReplayRunner {
  const recording: Model = {
    id: model.id,
    isScripted: true,
    call: (r) => model.call(r),
    stream: (r, on) => {
      sent.push(JSON.stringify(r.messages));
      return model.stream(r, on);
    },
  };
  return replayRunner({
    fs: t.ws.fs,
    reports,
    providers: t.providers,
    model: () => recording,
    settings: () => ({ sessionTimeoutMinutes: 30, timezone: ZONE }),
    zone: () => ZONE,
    fredKey: () => fredKey,
    maxMinutes,
  });
}

describe('replaying a past morning review', () => {
  it('sees memory as it stood that morning, is refused later data, sits beside the original and what followed, and leaves live memory untouched', async () => {
    const before = dump(t);
    const sent: string[] = [];
    const r = await runner(new ScriptedModel(scenario), sent)({ date: '2026-10-10' });

    // If the replay read the live latest, the PM would be shown a morning judged with hindsight.
    expect(r.replay.error).toBeNull();
    expect(r.replay.stop).toBe('answered');
    expect(sent.join('\n')).toContain('OLD THESIS');
    expect(sent.join('\n')).not.toContain('NEW THESIS');
    expect(sent.join('\n')).not.toContain('LATER OBSERVATION');
    expect(r.cutoff).toBe(MORNING);
    expect(r.memory.earlierVersions).toBeGreaterThanOrEqual(1);
    // The as-of guard: a fetch for payrolls after the date is refused, and said so.
    const fetch = r.replay.toolCalls.find((c) => c.name === 'fetch')!;
    expect(fetch).toMatchObject({ isError: true, refusedAsOf: true });
    expect(r.notes.join('\n')).toContain('FRED vintages unavailable without a key');
    expect(r.notes.join('\n')).toContain('refused 1 fetch');
    // Three columns: the replay, what was said that morning, what happened since.
    expect(r.label).toBe('REPLAY');
    expect(r.replay.report.views.map((v) => [v.id, v.note])).toEqual([['V-900', 'REPLAYED: hold E-900']]);
    expect(r.original?.report.views[0]?.note).toBe('ORIGINAL: hold E-900');
    expect(r.since.outcomes).toMatchObject([{ id: 'OUT-900', expression: 'E-900', hit: false, exitReason: 'stop' }]);
    expect(r.since.fired).toMatchObject([{ viewId: 'V-900', text: 'Two consecutive payroll prints above 200k.', matched: true }]);

    // The replay's write succeeded in its scratch copy, yet live memory is row-for-row the same.
    expect(r.replay.toolCalls.find((c) => c.name === 'write')).toMatchObject({ isError: false });
    expect(dump(t)).toEqual(before);
    expect(t.ws.fs.listDir('/memory/observations/', 'REPLAY').entries).toEqual([]);
  });

  it('finds the morning by its run, and refuses a run that is not a morning review, a future date or a malformed one', async () => {
    const sent: string[] = [];
    const byRun = await runner(new ScriptedModel(scenario), sent)({ runId: 1 });
    expect(byRun.date).toBe('2026-10-10');
    expect(byRun.original?.runId).toBe(1);
    const o = runner(new ScriptedModel(scenario), sent);
    await expect(o({ date: '2999-01-01' })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(o({ date: '2026-02-30' })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(o({ runId: 99 })).rejects.toMatchObject({ code: 'not_found' });
    await expect(o({ runId: 1, date: '2026-10-11' })).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('stops a replay that runs past its time budget and says so, instead of holding the PM forever', async () => {
    // A model that never answers until it is stopped.
    const silent: Model = {
      id: 'scripted:silent',
      isScripted: true,
      call: () => new Promise(() => undefined),
      stream: (r) =>
        new Promise((_, reject) => {
          r.signal?.addEventListener('abort', () => reject(new ModelError('cancelled', 'Stopped.')), { once: true });
        }),
    };
    const r = await runner(silent, [], false, 0.002)({ date: '2026-10-10' });
    expect(r.replay.stop).toBe('cancelled');
    expect(r.replay.report.warnings.join(' ')).toContain("the morning review's time budget");
  });
});
