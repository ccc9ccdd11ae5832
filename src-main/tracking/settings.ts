/**
 * The learning loop's numbers, as the seed configuration states them (§14 `counterfactuals`).
 * Kept here until Settings carries them; every function takes an override.
 */
export interface TrackingSettings {
  /** A declined idea is judged no earlier than this many days after it was declined. */
  counterfactualMinDays: number;
  /** Declined ideas stated below this confidence are not tracked (too weak to teach much). */
  counterfactualMinConfidence: number;
  /** The window a declined idea is followed for; unresolved after it, it expires. */
  counterfactualTrackingDays: number;
  /** A calibration band needs this many resolved forecasts before its bias is quoted. */
  calibrationMinBandCount: number;
  /** Equal-width confidence bins over [0, 1] for the reliability diagram and the decomposition. */
  calibrationBins: number;
  /** Bootstrap resamples behind every calibration interval. */
  calibrationResamples: number;
  /** Seed of the bootstrap: the same record always gives the same intervals and the same words. */
  calibrationSeed: number;
}

export const defaultTrackingSettings: TrackingSettings = {
  counterfactualMinDays: 14,
  counterfactualMinConfidence: 0.6,
  counterfactualTrackingDays: 90,
  calibrationMinBandCount: 5,
  calibrationBins: 10,
  calibrationResamples: 1000,
  calibrationSeed: 20_260_101,
};

/** The View categories calibration is kept for (seed §9.1); a calibration file exists for each. */
export const CALIBRATION_CATEGORIES = ['macro_regime', 'relative_value', 'vol_surface', 'event_driven', 'flow_driven', 'thematic'] as const;
export type CalibrationCategory = (typeof CALIBRATION_CATEGORIES)[number];
