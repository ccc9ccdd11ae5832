import { Analyst } from '../../agent';
import type { ScheduleJobView, ScheduleRunView } from '../../api/schedule';
import { AppError, NotFoundError } from '../../common/errors';
import type { ForgeFS } from '../../fs';
import type { Model } from '../../llm';
import type { ProviderRegistry } from '../../providers';
import {
  formatLocal,
  JOBS,
  type JobStatus,
  type ReplayResult,
  replayMorning,
  type ReviewReports,
  type Scheduler,
  ScheduleLog,
  type ScheduleRun,
} from '../../scheduler';
import { limitsFromConstraints } from '../../tools';
import { marketPortFromRegistry } from '../../tracking';
import type { PartialHandlerMap } from './types';

/** A run as the Schedule screen shows it. */
export function toScheduleRunView(r: ScheduleRun, now: Date = new Date()): ScheduleRunView {
  const start = Date.parse(r.startedAt);
  const end = r.finishedAt ? Date.parse(r.finishedAt) : now.getTime();
  return {
    id: r.id,
    job: r.job as ScheduleRunView['job'],
    trigger: r.trigger,
    scheduledFor: r.scheduledFor,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    status: r.status,
    sessionId: r.sessionId,
    costUsd: r.costUsd,
    summary: r.summary,
    error: r.error,
    durationMs: Number.isNaN(start) ? null : Math.max(0, end - start),
  };
}

/** A job as schedule/list answers it (and `schedule/changed` carries it). */
export function toScheduleJobView(s: JobStatus, now: Date = new Date()): ScheduleJobView {
  return {
    job: s.job.name,
    title: s.job.title,
    description: s.job.description,
    cron: s.job.cron,
    timeZone: s.zone,
    nextRun: s.nextRun?.toISOString() ?? null,
    nextRunLocal: s.nextRun ? formatLocal(s.nextRun, s.zone) : null,
    paused: s.paused,
    running: s.running !== null,
    lastRun: s.lastRun && toScheduleRunView(s.lastRun, now),
    catchUpWindowMinutes: Math.round(s.job.catchUpWindowMs / 60_000),
    budget: { ...s.job.budget },
  };
}

type SchedulePort = Pick<Scheduler, 'list' | 'history' | 'pause' | 'resume' | 'runNow' | 'zone'>;

export type ReplayRunner = (input: { date?: string; runId?: number }) => Promise<ReplayResult>;

export interface ReplayWiring {
  /** The live workspace: copied and read, never written. */
  fs: ForgeFS;
  reports: Pick<ReviewReports, 'get'>;
  providers: ProviderRegistry;
  /** Claude (throws the missing-key error without a key: a replay never runs on a stand-in). */
  model: () => Model;
  settings: () => { timezone: string; sessionTimeoutMinutes: number };
  zone: () => string;
  fredKey: () => boolean;
  nativeBinding?: string;
  /** Stop a replay after this long (default: the morning review's time budget). */
  maxMinutes?: number;
}

/**
 * schedule/replay: an analyst of its own over the scratch copy (no sub-agents, reviewer or search
 * index — each of those would read or write the live workspace), its events kept off the bus so the
 * Chat screen never shows a replay as the PM's conversation.
 */
export function replayRunner(w: ReplayWiring): ReplayRunner {
  const runs = new ScheduleLog(w.fs.store.db);
  const maxRounds = JOBS.find((j) => j.name === 'morning_review')!.budget.maxRounds;
  return (input) =>
    replayMorning(
      {
        live: w.fs,
        reports: w.reports,
        runs,
        market: marketPortFromRegistry(w.providers),
        fredKey: w.fredKey,
        zone: w.zone,
        nativeBinding: w.nativeBinding,
        maxMinutes: w.maxMinutes,
        openAnalyst: (fs, now) =>
          new Analyst({
            fs,
            providers: w.providers,
            model: w.model,
            limits: () => limitsFromConstraints(fs.exists('/portfolio/constraints.md') ? fs.readFile('/portfolio/constraints.md') : null),
            settings: () => ({ ...w.settings(), maxRounds }),
            emit: () => undefined,
            now,
          }),
      },
      input,
    );
}

/**
 * Handlers for schedule/list, history, pause, resume and run-now over one core's scheduler, and
 * schedule/report(s) over the morning review reports.
 */
export function scheduleHandlers(scheduler: SchedulePort, reports?: Pick<ReviewReports, 'get' | 'list'>, replay?: ReplayRunner): PartialHandlerMap {
  const reportStore = () => {
    if (!reports) throw new AppError('unavailable', 'Morning review reports are not wired in this build.');
    return reports;
  };
  return {
    'schedule/list': () => {
      const zone = scheduler.zone();
      return { timeZone: zone.zone, timeZoneNote: zone.note, jobs: scheduler.list().map((s) => toScheduleJobView(s)) };
    },
    'schedule/history': (input) => ({ runs: scheduler.history({ job: input.job, limit: input.limit, before: input.before }).map((r) => toScheduleRunView(r)) }),
    'schedule/pause': (input) => ({ job: toScheduleJobView(scheduler.pause(input.job)) }),
    'schedule/resume': (input) => ({ job: toScheduleJobView(scheduler.resume(input.job)) }),
    'schedule/run-now': (input) => ({ run: toScheduleRunView(scheduler.runNow(input.job)) }),
    'schedule/report': (input) => {
      const report = reportStore().get(input.runId);
      if (!report) throw new NotFoundError(`Run ${input.runId} has no morning review report (only a finished morning review has one).`);
      return { report };
    },
    'schedule/reports': (input) => ({ reports: reportStore().list(input.limit ?? 20) }),
    'schedule/replay': async (input) => {
      if (!replay) throw new AppError('unavailable', 'Replaying a past morning is not wired in this build.');
      return { replay: await replay({ date: input.date, runId: input.runId }) };
    },
  };
}
