import { z } from 'zod';
import { priceSourceProcedure } from './price-source';

/**
 * Calibration and trade tracking (the Calibration screen): stated confidence against realised hit
 * rates, computed from resolved Outcomes and completed Counterfactuals — never typed in. Pure zod.
 */

const interval = z.object({ lo: z.number(), hi: z.number() });

export const calibrationBand = z.object({
  band: z.string(),
  lower: z.number(),
  upper: z.number(),
  n: z.number().int(),
  counterfactuals: z.number().int(),
  stated: z.number(),
  realised: z.number(),
  /** stated − realised: above 0.5 positive = overconfident; below 0.5 negative = too extreme toward No. */
  bias: z.number(),
  brier: z.number(),
  /** 95% interval of the bias, family-wise across the bands judged; null when not computed. */
  biasInterval: interval.nullable(),
  /** Fewer than minBandCount forecasts: drawn lighter, never quoted. */
  sparse: z.boolean(),
});

/** Brier = reliability − resolution + uncertainty + withinBin, each with a bootstrap 95% interval. */
export const decompositionView = z.object({
  n: z.number().int(),
  brier: z.number(),
  reliability: z.number(),
  resolution: z.number(),
  uncertainty: z.number(),
  withinBin: z.number(),
  baseRate: z.number(),
  intervals: z.object({ brier: interval, reliability: interval, resolution: interval, uncertainty: interval }),
});

/** Logistic recalibration logit P(hit) = intercept + slope·logit(p), with 95% Wald intervals. */
export const recalibrationView = z.object({
  intercept: z.number(),
  interceptInterval: interval,
  slope: z.number(),
  slopeInterval: interval,
  iterations: z.number().int(),
});

export const calibrationVerdictView = z.object({
  kind: z.enum(['none', 'not_enough', 'no_skill', 'overconfident', 'underconfident', 'band_off', 'leans', 'matches']),
  /** The sentence the screen, the analyst's prompt, the reviewer and the category files all use. */
  text: z.string(),
});

const groupStats = {
  decomposition: decompositionView.nullable(),
  recalibration: recalibrationView.nullable(),
  verdict: calibrationVerdictView,
};

export const categoryCalibration = z.object({
  category: z.string(),
  n: z.number().int(),
  counterfactuals: z.number().int(),
  stated: z.number(),
  realised: z.number(),
  bias: z.number(),
  brier: z.number(),
  bands: z.array(calibrationBand),
  asOf: z.string().nullable(),
  ...groupStats,
});

export const calibrationView = z.object({
  n: z.number().int(),
  brier: z.number().nullable(),
  categories: z.array(categoryCalibration),
  /** All categories together. */
  overall: z.object({ bands: z.array(calibrationBand), ...groupStats }),
  /** By holding period (days from entry to exit, in buckets). */
  horizons: z.array(z.object({ horizon: z.string(), n: z.number().int(), brier: z.number(), ...groupStats })),
  /** The band furthest from the diagonal among those whose interval excludes it; null when none does. */
  worst: calibrationBand.extend({ category: z.string() }).nullable(),
  minBandCount: z.number().int(),
  bins: z.number().int(),
  bootstrap: z.object({ resamples: z.number().int(), seed: z.number().int() }),
  /** The line the analyst's prompt and the reviewer read. */
  summary: z.string(),
  /** Brier score per month of exit (all categories, and per category), oldest first. */
  history: z.array(z.object({ month: z.string(), category: z.string(), n: z.number().int(), brier: z.number() })),
});
export type CalibrationView = z.infer<typeof calibrationView>;

export const trackingRunView = z.object({
  /** Active Expressions checked against their exit rules. */
  checked: z.number().int(),
  /** Expressions closed by a triggered exit (their Outcomes recorded). */
  closed: z.array(z.object({ id: z.string(), reason: z.string() })),
  /** Checked, nothing triggered: the series each follows, from which file or vendor, as of when. */
  open: z.array(z.object({ id: z.string(), series: z.string() })),
  /** Expressions that could not be checked, with why (no market data, missing terms). */
  skipped: z.array(z.object({ id: z.string(), reason: z.string() })),
  counterfactualsCompleted: z.array(z.string()),
  counterfactualsExpired: z.array(z.string()),
  calibrationFilesWritten: z.array(z.string()),
  summary: z.string(),
});
export type TrackingRunView = z.infer<typeof trackingRunView>;

export const calibrationProcedures = {
  'calibration/get': { input: z.object({}).strict(), output: calibrationView },
  /** Checks exits and counterfactuals now (the hourly monitoring does the same) and regenerates the calibration files. */
  'tracking/run': { input: z.object({}).strict(), output: trackingRunView },
  /**
   * Where an Expression's prices come from: each `price_series` entry resolved now through the
   * tracker's own market port and window (provider, file or vendor, as-of, last close), or why
   * none; `not_found` for an unknown id.
   */
  'expressions/price-source': priceSourceProcedure,
} as const;
