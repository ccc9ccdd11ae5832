import type { RunOutcome, TriggerType } from '../agent';
import { InvalidInputError, NotFoundError } from '../common/errors';
import type { ForgeFS } from '../fs';
import type { MarketPort } from '../tracking';
import { JOBS, staleViews } from './jobs';
import { movesBrief } from './morning-review';
import { liveViewDates } from './runner';
import { movesSinceLastReview, type ViewMoves } from './review-moves';
import { buildReviewReport, type ReviewReport } from './review-report';
import type { ReviewReports } from './review-reports';
import { expressionsIn, sinceThen, type SinceThen } from './replay-since';
import { openReplayWorkspace } from './replay-workspace';
import type { ScheduleRun } from './run-log';
import { triggerMessage } from './jobs';
import { localDate } from './time';

/** The part of an Analyst a replay drives: one built over the scratch workspace, closed after. */
export interface ReplayAnalyst {
  send(input: { message: string; trigger?: TriggerType; asOf?: string }): Promise<{ runId: string; sessionId: string }>;
  wait(runId: string): Promise<RunOutcome>;
  cancel(runId: string): boolean;
  close(): Promise<void>;
}

export interface ReplayOptions {
  /** The live workspace: read (copied, and for what happened since), never written. */
  live: ForgeFS;
  reports: Pick<ReviewReports, 'get'>;
  runs: { get(id: number): ScheduleRun | undefined };
  /** An analyst over the scratch copy, whose clock reads the replayed instant. */
  openAnalyst(fs: ForgeFS, now: () => Date): ReplayAnalyst;
  market: MarketPort;
  /** Whether FRED has a key: its vintages (realtime_start = realtime_end = the date) need one. */
  fredKey: () => boolean;
  zone: () => string;
  now?: () => Date;
  nativeBinding?: string;
  /** Stop the replay after this long (default: the morning review's budget). */
  maxMinutes?: number;
}

export interface ReplayToolCall {
  name: string;
  isError: boolean;
  /** The tool's first line (a fetch's label and as-of, or why it was refused). */
  result: string;
  /** A fetch the as-of guard refused: it asked for data after the replayed date. */
  refusedAsOf: boolean;
}

export interface ReplayResult {
  label: 'REPLAY';
  /** The replayed morning (the PM's local date). */
  date: string;
  /** Memory is read as it stood at this instant: the original review's start, else the end of the date. */
  cutoff: string;
  original: { runId: number; report: ReviewReport } | null;
  replay: { report: ReviewReport; answer: string; stop: string; rounds: number; toolCalls: ReplayToolCall[]; error: string | null };
  since: SinceThen;
  memory: { records: number; earlierVersions: number; leftOut: { path: string; why: string }[] };
  notes: string[];
}

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const AS_OF_REFUSAL = /is not used in a session as of|after the session as-of date|as_of/i;

function isDay(s: string): boolean {
  const d = new Date(`${s}T00:00:00Z`);
  return DATE.test(s) && !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** The last instant of a day as the PM's clock reads it (the date picker's day, in the schedule's zone). */
export function endOfLocalDay(date: string, zone: string): Date {
  const guess = Date.parse(`${date}T23:59:59.999Z`);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(guess))
      .map((p) => [p.type, p.value]),
  );
  // What the zone's wall clock reads at `guess`, taken as UTC: the difference is the zone's offset then.
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second), 999);
  return new Date(guess - (wall - guess));
}

/** The morning review saved that day (the latest, if it ran twice), found by SQL on the live database. */
function originalOn(live: ForgeFS, date: string, zone: string): number | null {
  const from = new Date(Date.parse(`${date}T00:00:00Z`) - DAY_MS).toISOString();
  const to = new Date(Date.parse(`${date}T00:00:00Z`) + 2 * DAY_MS).toISOString();
  const has = live.store.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'review_reports'").get();
  if (!has) return null;
  const rows = live.store.db.prepare('SELECT run_id, at FROM review_reports WHERE at >= ? AND at < ? ORDER BY at DESC, run_id DESC').all(from, to) as {
    run_id: number;
    at: string;
  }[];
  return rows.find((r) => localDate(new Date(r.at), zone) === date)?.run_id ?? null;
}

/**
 * Issue 29 §4: re-runs a past morning review as of its date — memory at its versions of then (a
 * scratch copy; see openReplayWorkspace), the analyst's as-of guard on (fetch refuses data after the
 * date; FRED answers with that date's vintage where a key exists; news and research stop at it) —
 * and sets the answer beside what was said that morning and what happened since. Nothing is
 * written to the live workspace: the scratch copy takes every write and is removed afterwards.
 */
export async function replayMorning(o: ReplayOptions, input: { date?: string; runId?: number }): Promise<ReplayResult> {
  const zone = o.zone();
  const nowAt = (o.now ?? (() => new Date()))();
  const today = localDate(nowAt, zone);
  let runId = input.runId ?? null;
  let date = input.date ?? null;
  if (date !== null && !isDay(date)) throw new InvalidInputError(`The replay date must be a day YYYY-MM-DD (got "${date.slice(0, 30)}").`);
  let startedAt: string | null = null;
  if (runId !== null) {
    const run = o.runs.get(runId);
    if (run?.job !== 'morning_review') throw new NotFoundError(`Run ${runId} is not a morning review; pick one from the morning review's history.`);
    startedAt = run.startedAt;
    const runDate = localDate(new Date(run.startedAt), zone);
    if (date !== null && date !== runDate) throw new InvalidInputError(`Run ${runId} was the morning of ${runDate}, not ${date}; give one or the other.`);
    date = runDate;
  }
  if (date === null) throw new InvalidInputError('Give the date of the morning to replay (YYYY-MM-DD), or a morning review run.');
  if (date > today) throw new InvalidInputError(`${date} has not happened yet; a replay looks back (today is ${today}).`);
  runId ??= originalOn(o.live, date, zone);
  const originalReport = runId !== null ? o.reports.get(runId) : null;
  // A replay of today stops at now: the rest of the day has not happened.
  const cutoff = originalReport?.at ?? startedAt ?? new Date(Math.min(endOfLocalDay(date, zone).getTime(), nowAt.getTime())).toISOString();
  const at = new Date(cutoff);

  const scratch = openReplayWorkspace(o.live, cutoff, { nativeBinding: o.nativeBinding });
  const notes: string[] = [
    `Memory as it stood at ${cutoff}: ${scratch.counts.records} records, ${scratch.counts.earlierVersions} of them earlier versions than today's.`,
    o.fredKey()
      ? `FRED figures are the vintage of ${date} (realtime_start = realtime_end = ${date}): the numbers as published then.`
      : 'FRED vintages unavailable without a key: economic series come without their realtime dates (add a FRED key in Settings → Data).',
    `News and research stop at ${date}; fetch refuses data after it.`,
    'Writes went to a scratch copy, now removed: nothing in live memory changed.',
  ];
  if (scratch.leftOut.length)
    notes.push(`${scratch.leftOut.length} record(s) left out — their version of then was not kept: ${scratch.leftOut.map((l) => l.path).join(', ')}.`);
  // The analyst refuses an as-of date after its own day; east of UTC a 07:00 review is still the day before in UTC.
  const clock = at.toISOString().slice(0, 10) < date ? new Date(`${date}T00:00:00.000Z`) : at;
  const analyst = o.openAnalyst(scratch.fs, () => clock);
  try {
    const since = originalReport ? new Date(originalReport.since) : new Date(at.getTime() - DAY_MS);
    let moves: ViewMoves[] = [];
    const warnings: string[] = [];
    try {
      moves = await movesSinceLastReview({ fs: scratch.fs, market: o.market, since, now: at });
    } catch (e) {
      warnings.push(`The moves could not be measured: ${(e as Error)?.message ?? String(e)}`);
    }
    const job = JOBS.find((j) => j.name === 'morning_review')!;
    const trigger = triggerMessage(job, {
      now: at,
      zone,
      scheduledFor: null,
      stale: staleViews(liveViewDates(scratch.fs.store.records), at),
      moves: moves.length ? movesBrief(moves, since) : undefined,
    });
    const message = `REPLAY — the morning review of ${date}, re-run as of then. Use only what was known on ${date}.\n\n${trigger}`;
    const started = await analyst.send({ message, trigger: 'schedule', asOf: date });
    // The morning review's own time budget: a replay that runs on is stopped, and says so.
    const limitMs = (o.maxMinutes ?? job.budget.maxMinutes) * 60_000;
    let stopped = false;
    const timer = setTimeout(() => {
      stopped = analyst.cancel(started.runId);
    }, limitMs);
    const out = await analyst.wait(started.runId).finally(() => clearTimeout(timer));
    if (stopped) warnings.push(`Stopped after ${Math.round(limitMs / 60_000)} minutes, the morning review's time budget.`);
    const report = buildReviewReport({
      sessionId: null,
      at,
      since,
      sinceSource: originalReport?.sinceSource ?? 'default_24h',
      moves,
      answer: out.text,
      warnings,
    });
    const toolCalls = out.toolCalls.map((c) => ({
      name: c.name,
      isError: c.isError,
      result: c.result.split('\n')[0]!.slice(0, 300),
      refusedAsOf: c.isError && c.name === 'fetch' && AS_OF_REFUSAL.test(c.result),
    }));
    const refused = toolCalls.filter((c) => c.refusedAsOf).length;
    if (refused) notes.push(`The as-of guard refused ${refused} fetch(es) for data after ${date}.`);
    const viewIds = [...new Set([...report.views.map((v) => v.id), ...(originalReport?.views.map((v) => v.id) ?? [])])];
    const expressions = [...new Set([...expressionsIn(report, out.text), ...expressionsIn(originalReport)])];
    return {
      label: 'REPLAY',
      date,
      cutoff,
      original: originalReport && runId !== null ? { runId, report: originalReport } : null,
      replay: {
        report,
        answer: out.text,
        stop: out.stop,
        rounds: out.rounds,
        toolCalls,
        error: out.error ? `${out.error.code}: ${out.error.message}` : null,
      },
      since: sinceThen(o.live.store.db, cutoff, expressions, viewIds),
      memory: { ...scratch.counts, leftOut: scratch.leftOut },
      notes,
    };
  } finally {
    await analyst.close().catch(() => undefined);
    scratch.close();
  }
}
