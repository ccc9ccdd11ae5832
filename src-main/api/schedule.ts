import { z } from 'zod';

/**
 * The Schedule screen's API: the scheduled jobs (morning review, end of day, weekly
 * retrospective, hourly monitoring) with their next run in the configured time zone, their run
 * history, pause/resume and Run now. Pure zod.
 */

export const scheduleJobName = z.enum(['morning_review', 'end_of_day', 'weekly_retrospective', 'hourly_monitoring']);

export const scheduleRunView = z.object({
  id: z.number().int(),
  job: scheduleJobName,
  /** schedule: on time; catch_up: a slot missed while Forge was closed or the computer slept; manual: Run now. */
  trigger: z.enum(['schedule', 'catch_up', 'manual']),
  /** The slot (ISO, UTC) the run was for; null for Run now. */
  scheduledFor: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** skipped: missed past its catch-up window, never run; interrupted: Forge stopped during it. */
  status: z.enum(['running', 'ok', 'failed', 'skipped', 'interrupted']),
  /** The analyst session the run started (open it from the Chat screen's history). */
  sessionId: z.string().nullable(),
  costUsd: z.number().nullable(),
  summary: z.string().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().nullable(),
});
export type ScheduleRunView = z.infer<typeof scheduleRunView>;

export const scheduleJobView = z.object({
  job: scheduleJobName,
  title: z.string(),
  description: z.string(),
  /** Five-field cron pattern, read in `timeZone`. */
  cron: z.string(),
  timeZone: z.string(),
  /** ISO (UTC); null while paused. */
  nextRun: z.string().nullable(),
  /** The same instant as the PM reads it, e.g. "Mon 2026-03-09 07:00 EDT". */
  nextRunLocal: z.string().nullable(),
  paused: z.boolean(),
  running: z.boolean(),
  lastRun: scheduleRunView.nullable(),
  /** How late a missed slot is still run on wake or start; later ones are logged skipped. */
  catchUpWindowMinutes: z.number(),
  budget: z.object({
    analyses: z.number().int(),
    maxRounds: z.number().int(),
    maxTokens: z.number().int(),
    maxCostUsd: z.number(),
    maxMinutes: z.number(),
  }),
});
export type ScheduleJobView = z.infer<typeof scheduleJobView>;

const jobRef = z.object({ job: scheduleJobName }).strict();

/** One instrument's move since the previous morning review (daily closes, from market data). */
export const reviewMoveView = z.object({
  instrument: z.string(),
  expressions: z.array(z.string()),
  /** yield: in %, change in bp; spread: in bp; price: in its currency, change in %. */
  kind: z.enum(['price', 'yield', 'spread']),
  from: z.object({ date: z.string(), value: z.number() }),
  to: z.object({ date: z.string(), value: z.number() }),
  change: z.number(),
  unit: z.enum(['bp', '%']),
  asOf: z.string(),
  source: z.string(),
});

/** The morning review's structured report: per live View, what moved and which invalidation conditions fired. */
export const reviewReportView = z.object({
  runId: z.number().int().optional(),
  sessionId: z.string().nullable(),
  at: z.string(),
  /** Moves are measured from here: the previous morning review's start, or 24 h before `at`. */
  since: z.string(),
  sinceSource: z.enum(['previous_review', 'default_24h']),
  /** False: the answer had no readable report block; the moves are still there. */
  parsed: z.boolean(),
  views: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      status: z.string(),
      moves: z.array(reviewMoveView),
      /** Linked Expressions (or the View itself) with nothing to measure, and why. */
      missing: z.array(z.object({ expression: z.string().nullable(), why: z.string() })),
      /** matched: false — not one of the View's own INVALIDATION bullets. */
      invalidationsFired: z.array(z.object({ text: z.string(), matched: z.boolean() })),
      action: z.enum(['hold', 'review', 'retire', 'update']).nullable(),
      note: z.string().nullable(),
    }),
  ),
  warnings: z.array(z.string()),
});
export type ReviewReportView = z.infer<typeof reviewReportView>;

export const reviewReportSummaryView = z.object({
  runId: z.number().int(),
  sessionId: z.string().nullable(),
  at: z.string(),
  since: z.string(),
  parsed: z.boolean(),
  counts: z.object({
    views: z.number().int(),
    /** Views with at least one measured move. */
    moved: z.number().int(),
    fired: z.number().int(),
    /** Fired conditions that are not among the View's own. */
    unmatched: z.number().int(),
    warnings: z.number().int(),
  }),
});
export type ReviewReportSummaryView = z.infer<typeof reviewReportSummaryView>;

/** Issue 29 §4: a past morning review re-run as of its date, beside the original and what followed. */
export const scheduleReplayView = z.object({
  /** Always REPLAY: the screen labels it so; nothing in it was written to live memory. */
  label: z.literal('REPLAY'),
  date: z.string(),
  /** Memory was read as it stood at this instant (the original review's start, else the end of the date). */
  cutoff: z.string(),
  original: z.object({ runId: z.number().int(), report: reviewReportView }).nullable(),
  replay: z.object({
    report: reviewReportView,
    answer: z.string(),
    stop: z.string(),
    rounds: z.number().int(),
    toolCalls: z.array(z.object({ name: z.string(), isError: z.boolean(), result: z.string(), refusedAsOf: z.boolean() })),
    error: z.string().nullable(),
  }),
  since: z.object({
    outcomes: z.array(
      z.object({
        id: z.string(),
        expression: z.string(),
        title: z.string(),
        recordedAt: z.string(),
        hit: z.boolean().nullable(),
        pnl: z.string().nullable(),
        exitReason: z.string().nullable(),
      }),
    ),
    fired: z.array(z.object({ viewId: z.string(), text: z.string(), matched: z.boolean(), reportedAt: z.string(), runId: z.number().int().nullable() })),
  }),
  memory: z.object({
    records: z.number().int(),
    earlierVersions: z.number().int(),
    leftOut: z.array(z.object({ path: z.string(), why: z.string() })),
  }),
  notes: z.array(z.string()),
});
export type ScheduleReplayView = z.infer<typeof scheduleReplayView>;

export const scheduleProcedures = {
  'schedule/list': {
    input: z.object({}).strict(),
    output: z.object({
      timeZone: z.string(),
      /** Set when the configured time zone is unknown and the default is in use. */
      timeZoneNote: z.string().nullable(),
      jobs: z.array(scheduleJobView),
    }),
  },
  'schedule/history': {
    input: z
      .object({
        job: scheduleJobName.optional(),
        limit: z.number().int().min(1).max(500).optional(),
        /** Page back: runs with a smaller id than this. */
        before: z.number().int().min(1).optional(),
      })
      .strict(),
    output: z.object({ runs: z.array(scheduleRunView) }),
  },
  'schedule/pause': { input: jobRef, output: z.object({ job: scheduleJobView }) },
  /** Slots missed while paused are not caught up. */
  'schedule/resume': { input: jobRef, output: z.object({ job: scheduleJobView }) },
  /** Starts the job now (even when paused) and returns at once; `conflict` while it is running. */
  'schedule/run-now': { input: jobRef, output: z.object({ run: scheduleRunView }) },
  /** The morning review report saved with a run; `not_found` when the run has none. */
  'schedule/report': { input: z.object({ runId: z.number().int().min(1) }).strict(), output: z.object({ report: reviewReportView }) },
  /** The latest morning review reports, newest first, with their counts. */
  'schedule/reports': {
    input: z.object({ limit: z.number().int().min(1).max(200).optional() }).strict(),
    output: z.object({ reports: z.array(reviewReportSummaryView) }),
  },
  /**
   * Re-runs a past morning review as of `date` (or of run `runId`) in a scratch copy of memory;
   * returns when it ends. Nothing is written to live memory.
   */
  'schedule/replay': {
    input: z
      .object({
        date: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD')
          .optional(),
        runId: z.number().int().min(1).optional(),
      })
      .strict(),
    output: z.object({ replay: scheduleReplayView }),
  },
} as const;

export const scheduleEvents = {
  /** A job was paused or resumed, a run started or finished, or next runs moved (time zone change). */
  'schedule/changed': scheduleJobView,
} as const;
