import type { Interval, Recalibration } from './calibration-stats';

/**
 * What calibration SAYS, decided from its numbers and their intervals — the one function behind
 * the Calibration screen's sentence, the analyst's prompt line, the reviewer and the
 * /memory/calibration files. A word is only used when the interval behind it supports it:
 *   - fewer than `minBandCount` forecasts in every band → "not enough resolved forecasts yet";
 *   - slope interval holding both 0 and 1 → also "not enough": chance and calibration both fit;
 *   - slope interval reaching 0 (but not 1) → "no better than a coin" (no resolution), never "matches";
 *   - slope interval wholly below 1 → overconfident (too extreme); wholly above 1 → underconfident;
 *   - otherwise a band (with enough forecasts) whose stated − realised interval excludes 0 is named;
 *   - otherwise an intercept interval off 0 → "leans too high/low" (miscalibrated in the large);
 *   - otherwise "matches realised hit rates within the noise".
 * Below 0.5 a departure is named toward No: a 0.2 forecast that comes true 40% of the time is
 * "too extreme toward No", one that comes true 5% of the time "too timid toward No".
 */

export interface WordedBand {
  band: string;
  n: number;
  stated: number;
  realised: number;
  /** stated − realised. */
  bias: number;
  /** Bootstrap 95% interval of stated − realised; null when not computed. */
  biasInterval: Interval | null;
}

export type VerdictKind = 'none' | 'not_enough' | 'no_skill' | 'overconfident' | 'underconfident' | 'band_off' | 'leans' | 'matches';

export interface Verdict {
  kind: VerdictKind;
  /** One sentence, starting lower case so it can follow "thematic: " or "Calibration: ". */
  text: string;
}

const pts = (x: number) => Math.round(Math.abs(x) * 100);
const f2 = (x: number) => x.toFixed(2);
const ci = (i: Interval) => `95% ${f2(i.lo)} to ${f2(i.hi)}`;

/** A band's interval excludes the diagonal: its stated − realised is told apart from 0. */
export function bandIsOff(b: WordedBand, minBandCount: number): boolean {
  return b.n >= minBandCount && b.biasInterval !== null && (b.biasInterval.lo > 0 || b.biasInterval.hi < 0);
}

/** The direction of one band's departure, in the PM's words (both halves meaningful). */
export function bandDirection(b: Pick<WordedBand, 'stated' | 'bias'>): string {
  if (b.stated < 0.5) return b.bias < 0 ? 'too extreme toward No' : 'too timid toward No';
  return b.bias > 0 ? 'overconfident (too extreme toward Yes)' : 'underconfident (too timid toward Yes)';
}

export function bandSentence(b: WordedBand): string {
  const range = b.biasInterval ? ` (stated − hit 95% ${Math.round(b.biasInterval.lo * 100)} to ${Math.round(b.biasInterval.hi * 100)} pts)` : '';
  return `the ${b.band} band is ${bandDirection(b)} by ${pts(b.bias)} pts${range}: stated ${f2(b.stated)}, hit ${f2(b.realised)}, n=${b.n}`;
}

/** The band furthest from the diagonal among those whose interval excludes it; null when none does. */
export function worstOffBand<B extends WordedBand>(bands: readonly B[], minBandCount: number): B | null {
  return bands.filter((b) => bandIsOff(b, minBandCount)).reduce<B | null>((w, b) => (!w || Math.abs(b.bias) > Math.abs(w.bias) ? b : w), null);
}

export function calibrationVerdict(group: { n: number; bands: readonly WordedBand[]; recalibration: Recalibration | null }, minBandCount: number): Verdict {
  if (group.n === 0) return { kind: 'none', text: 'no resolved forecasts yet' };
  const enough = group.bands.some((b) => b.n >= minBandCount);
  const fit = group.recalibration;
  if (!enough || !fit) {
    return {
      kind: 'not_enough',
      text: `not enough resolved forecasts yet (${group.n} resolved; a band is judged from ${minBandCount}${fit ? '' : ', and the slope needs both hits and misses at different confidences'})`,
    };
  }
  const s = fit.slopeInterval;
  const slope = `slope ${f2(fit.slope)}, ${ci(s)}; 1 is calibrated`;
  const worst = worstOffBand(group.bands, minBandCount);
  const also = worst ? `; ${bandSentence(worst)}` : '';
  if (s.lo <= 0 && s.hi >= 1) {
    // The interval holds both "no skill" and "calibrated": the record cannot tell them apart yet.
    return { kind: 'not_enough', text: `not enough resolved forecasts yet to tell skill from chance (${group.n} resolved; ${slope})${also}` };
  }
  if (s.lo <= 0) {
    return {
      kind: 'no_skill',
      text: `no better than a coin: hit rates do not rise with stated confidence (no resolution; ${slope.replace('1 is calibrated', '0 is no skill')})${also}`,
    };
  }
  // The intercept is the lean at 0.5 (logit 0): an interval off 0 means hits come systematically
  // less (or more) often than stated, whatever the slope.
  const a = fit.interceptInterval;
  const at50 = 1 / (1 + Math.exp(-fit.intercept));
  const lean =
    a.hi < 0
      ? `leans too high: a 0.50 forecast comes true ${f2(at50)} of the time`
      : a.lo > 0
        ? `leans too low: a 0.50 forecast comes true ${f2(at50)} of the time`
        : null;
  const leanClause = lean ? `, and ${lean}` : '';
  if (s.hi < 1) return { kind: 'overconfident', text: `overconfident: stated confidence is too extreme (${slope})${leanClause}${also}` };
  if (s.lo > 1) return { kind: 'underconfident', text: `underconfident: stated confidence is too timid (${slope})${leanClause}${also}` };
  if (worst) return { kind: 'band_off', text: `${bandSentence(worst)} (overall ${slope})${leanClause}` };
  if (lean) return { kind: 'leans', text: `${lean} (intercept ${f2(fit.intercept)}, ${ci(a)}; ${slope})` };
  return { kind: 'matches', text: `stated confidence matches realised hit rates within the noise (${slope}; no band's interval excludes the diagonal)` };
}
