import { REPORT_INSTRUCTION } from './review-report';
import { formatLocal, localDate } from './time';

export const JOB_NAMES = ['morning_review', 'end_of_day', 'weekly_retrospective', 'hourly_monitoring'] as const;
export type JobName = (typeof JOB_NAMES)[number];

/**
 * What one run may spend. `analyses` is the seed's figure (morning 8, end of day 6); rounds,
 * tokens and cost follow from it at about five analyst rounds and ~50k tokens (~$0.50) per
 * analysis, so a run that loops is stopped long before it costs real money.
 */
export interface AnalysisBudget {
  analyses: number;
  maxRounds: number;
  maxTokens: number;
  maxCostUsd: number;
  /** A run still going after this long is stopped and logged as failed. */
  maxMinutes: number;
}

export interface ScheduledJob {
  name: JobName;
  /** What the Schedule screen calls it. */
  title: string;
  description: string;
  /** Five-field cron pattern in the configured time zone. */
  cron: string;
  /**
   * `analyst`: each run starts its own analyst session with the trigger text.
   * `monitor`: mechanical checks (outcome exits, counterfactual resolutions); no model call.
   */
  kind: 'analyst' | 'monitor';
  /**
   * How late a missed slot is still worth running (machine asleep, app closed). Past it the slot
   * is logged as skipped: a morning review at 3 pm, say, only repeats what end of day will do.
   */
  catchUpWindowMs: number;
  budget: AnalysisBudget;
}

const HOUR = 3_600_000;

/** The schedules of seed §15 (times per the seed configuration, in the configured zone). */
export const JOBS: readonly ScheduledJob[] = [
  {
    name: 'morning_review',
    title: 'Morning review',
    description: 'Overnight moves, stale Views, priorities for the day.',
    cron: '0 7 * * 1-5',
    kind: 'analyst',
    // Until midday: after that the overnight scan is stale and end of day is the next look.
    catchUpWindowMs: 5 * HOUR,
    budget: { analyses: 8, maxRounds: 40, maxTokens: 400_000, maxCostUsd: 4, maxMinutes: 30 },
  },
  {
    name: 'end_of_day',
    title: 'End-of-day review',
    description: "Today's moves, View updates, Observations, items for tomorrow.",
    cron: '30 16 * * 1-5',
    kind: 'analyst',
    // Through the evening (22:30); overnight, the next morning review covers the same ground.
    catchUpWindowMs: 6 * HOUR,
    budget: { analyses: 6, maxRounds: 30, maxTokens: 300_000, maxCostUsd: 3, maxMinutes: 25 },
  },
  {
    name: 'weekly_retrospective',
    title: 'Weekly retrospective',
    description: 'Outcomes and counterfactuals of the week, Process Knowledge, calibration.',
    cron: '0 17 * * 5',
    kind: 'analyst',
    // Friday 17:00 until about Monday 07:00: a laptop closed over the weekend still gets its
    // retrospective before the new week's first review.
    catchUpWindowMs: 62 * HOUR,
    // The seed sets no figure for the retrospective; it reads a week of results, so it gets the most.
    budget: { analyses: 10, maxRounds: 50, maxTokens: 600_000, maxCostUsd: 6, maxMinutes: 45 },
  },
  {
    name: 'hourly_monitoring',
    title: 'Hourly monitoring',
    description: 'Active Expressions against their exit rules; tracked counterfactuals that are due.',
    // Every hour on weekdays, not only New York hours: rates and FX trade round the clock on
    // weekdays, so a stop or target can be hit at 03:00; at weekends prices do not move.
    cron: '0 * * * 1-5',
    kind: 'monitor',
    // The next hour's check does the same work, so a missed one is worth at most an hour.
    catchUpWindowMs: HOUR,
    budget: { analyses: 0, maxRounds: 0, maxTokens: 0, maxCostUsd: 0, maxMinutes: 10 },
  },
];

export function isJobName(name: unknown): name is JobName {
  return typeof name === 'string' && (JOB_NAMES as readonly string[]).includes(name);
}

/** Views older than this are flagged in the morning review (seed: staleness_days). */
export const STALENESS_DAYS = 14;
const DAY = 86_400_000;
/** Statuses of a View that still needs attention (an invalidated View is history, not stale). */
const LIVE_VIEW_STATUSES = new Set(['active', 'watching']);

export interface ViewDate {
  id: string;
  status: string | null;
  /** ISO time of the View's last update. */
  updatedAt: string;
}

export interface StaleView {
  id: string;
  ageDays: number;
}

/** Live Views not updated for more than `days` days, oldest first. */
export function staleViews(views: readonly ViewDate[], now: Date, days = STALENESS_DAYS): StaleView[] {
  const out: StaleView[] = [];
  for (const v of views) {
    if (!LIVE_VIEW_STATUSES.has(v.status ?? '')) continue;
    const updated = Date.parse(v.updatedAt);
    if (Number.isNaN(updated)) continue;
    const age = now.getTime() - updated;
    if (age > days * DAY) out.push({ id: v.id, ageDays: Math.floor(age / DAY) });
  }
  return out.sort((a, b) => b.ageDays - a.ageDays || a.id.localeCompare(b.id));
}

export interface TriggerContext {
  now: Date;
  zone: string;
  /** The slot this run is for; null for a PM's "Run now". */
  scheduledFor: Date | null;
  /** Morning review: the Views flagged by staleViews. */
  stale?: readonly StaleView[];
  /** Weekly retrospective: counts the analyst starts from. */
  week?: { outcomes: number; completedCounterfactuals: number };
  /** Morning review: the moves since the last review, measured from market data (movesBrief). */
  moves?: string;
}

/** The first message of a scheduled session: what the analyst is asked to do, and within what. */
export function triggerMessage(job: ScheduledJob, ctx: TriggerContext): string {
  const day = localDate(ctx.scheduledFor ?? ctx.now, ctx.zone);
  const lines = [`${job.title} — ${day}.`];
  if (ctx.scheduledFor && ctx.now.getTime() - ctx.scheduledFor.getTime() > 60_000) {
    lines.push(
      `Running late: it was due ${formatLocal(ctx.scheduledFor, ctx.zone)} (Forge was closed or the computer slept); it is now ${formatLocal(ctx.now, ctx.zone)}.`,
    );
  }
  if (job.budget.analyses > 0) lines.push(`Budget: about ${job.budget.analyses} analyses (at most ${job.budget.maxRounds} rounds).`);
  lines.push('');
  switch (job.name) {
    case 'morning_review': {
      const stale = ctx.stale ?? [];
      lines.push('Scan the overnight moves against the active Views and their invalidation conditions. Prioritise by position-weighted attention.');
      lines.push(
        stale.length
          ? `Stale Views (not updated for more than ${STALENESS_DAYS} days) — refresh, re-confirm or retire each: ${stale.map((s) => `${s.id} (${s.ageDays} days)`).join(', ')}.`
          : `No View is older than ${STALENESS_DAYS} days.`,
      );
      if (ctx.moves) lines.push('', ctx.moves);
      lines.push('', REPORT_INSTRUCTION);
      break;
    }
    case 'end_of_day':
      lines.push("Review today's moves. Update Views where the evidence warrants it, record Observations, and flag what needs a look tomorrow.");
      break;
    case 'weekly_retrospective':
      if (ctx.week) lines.push(`${ctx.week.outcomes} new Outcomes this week; ${ctx.week.completedCounterfactuals} completed Counterfactuals.`);
      lines.push(
        'Load the retrospective skill and analyse the week honestly: what worked, what did not, and why. Record Process Knowledge with its evidence, update calibration, and propose a skill edit only where the evidence is strong.',
      );
      break;
    case 'hourly_monitoring':
      lines.push('Check active Expressions against their exit rules (target, stop, time) and resolve tracked Counterfactuals that are due.');
      break;
  }
  return lines.join('\n');
}
