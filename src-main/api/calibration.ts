import { z } from 'zod';
import { priceSourceProcedure } from './price-source';

/**
 * Calibration and trade tracking (the Calibration screen): stated confidence against realised hit
 * rates, computed from resolved Outcomes and completed Counterfactuals — never typed in. Pure zod.
 */

export const calibrationBand = z.object({
  band: z.string(),
  lower: z.number(),
  upper: z.number(),
  n: z.number().int(),
  counterfactuals: z.number().int(),
  stated: z.number(),
  realised: z.number(),
  /** stated − realised: positive = overconfident. */
  bias: z.number(),
  brier: z.number(),
});

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
});

export const calibrationView = z.object({
  n: z.number().int(),
  brier: z.number().nullable(),
  categories: z.array(categoryCalibration),
  worst: calibrationBand.extend({ category: z.string() }).nullable(),
  minBandCount: z.number().int(),
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
