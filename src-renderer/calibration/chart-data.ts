import type { CalibrationView, TrackingRunView } from '../../src-main/api/calibration';

/**
 * The Calibration screen's figures shaped for its charts and table: reliability points sized by
 * count, Brier lines by month, bias in words. Pure (no chart.js, no DOM), tested on its own.
 */

type Category = CalibrationView['categories'][number];
type Band = Category['bands'][number];
type HistoryRow = CalibrationView['history'][number];

const LABELS: Record<string, string> = {
  all: 'All categories',
  macro_regime: 'Macro regime',
  relative_value: 'Relative value',
  vol_surface: 'Vol surface',
  event_driven: 'Event driven',
  flow_driven: 'Flow driven',
  thematic: 'Thematic',
  uncategorised: 'No category',
};

/** `relative_value` → "Relative value"; unknown names are de-snaked the same way. */
export function categoryLabel(category: string): string {
  const known = LABELS[category];
  if (known) return known;
  const words = category.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : category;
}

export interface ReliabilityPoint {
  /** Mean stated confidence in the band (0–1). */
  x: number;
  /** Realised hit rate (0–1). */
  y: number;
  n: number;
  band: string;
  /** Point radius in px: the area grows with the count, so a band of 40 outweighs a band of 3 on sight. */
  r: number;
}

const MIN_R = 4;
const MAX_R = 16;

/** Radius for a band of `n` forecasts when the fullest band on the chart has `maxN`. */
export function pointRadius(n: number, maxN: number): number {
  if (n <= 0 || maxN <= 0) return 0;
  return Math.round((MIN_R + (MAX_R - MIN_R) * Math.sqrt(Math.min(n, maxN) / maxN)) * 10) / 10;
}

/** One point per band that has forecasts; bands with none are left off rather than drawn at 0. */
export function reliabilityPoints(bands: readonly Band[], maxN = Math.max(0, ...bands.map((b) => b.n))): ReliabilityPoint[] {
  return bands.filter((b) => b.n > 0).map((b) => ({ x: b.stated, y: b.realised, n: b.n, band: b.band, r: pointRadius(b.n, maxN) }));
}

/** The fullest band across every category, so point sizes compare across the charts. */
export function largestBand(categories: readonly Category[]): number {
  let max = 0;
  for (const c of categories) for (const b of c.bands) max = Math.max(max, b.n);
  return max;
}

export interface BrierSeries {
  category: string;
  /** One value per month of `months`; null where the category had no exits that month. */
  values: (number | null)[];
  counts: number[];
}

/**
 * Brier score by month of exit as chart lines: every month any category has, oldest first; the
 * overall line (`all`) first, then each category by name. Gaps stay gaps (null), not zeros.
 */
export function brierSeries(history: readonly HistoryRow[]): { months: string[]; series: BrierSeries[] } {
  const months = [...new Set(history.map((h) => h.month))].sort();
  const at = new Map(months.map((m, i) => [m, i]));
  const byCategory = new Map<string, BrierSeries>();
  for (const h of history) {
    let s = byCategory.get(h.category);
    if (!s) {
      s = { category: h.category, values: months.map(() => null), counts: months.map(() => 0) };
      byCategory.set(h.category, s);
    }
    const i = at.get(h.month)!;
    s.values[i] = h.brier;
    s.counts[i] = h.n;
  }
  const series = [...byCategory.values()].sort((a, b) => Number(b.category === 'all') - Number(a.category === 'all') || a.category.localeCompare(b.category));
  return { months, series };
}

/** `2026-03` → "Mar 2026". */
export function monthLabel(month: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m) return month;
  const names = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return `${names[Number(m[2]) - 1] ?? m[2]} ${m[1]}`;
}

export function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}

/** Bias (stated − realised) in words: "+18 pts overconfident", "−5 pts underconfident", "on target". */
export function biasWords(bias: number): string {
  const pts = Math.round(bias * 100);
  if (pts === 0) return 'on target';
  return pts > 0 ? `+${pts} pts overconfident` : `−${-pts} pts underconfident`;
}

/** The worst band as a sentence, or null when no band has enough forecasts to be quoted. */
export function worstLine(worst: CalibrationView['worst']): string | null {
  if (!worst) return null;
  return `${categoryLabel(worst.category)}, ${worst.band} band: stated ${pct(worst.stated)}, hit ${pct(worst.realised)} (${biasWords(worst.bias)}, n=${worst.n}).`;
}

/** What a screen reader hears for a reliability chart: each band's stated and realised figures. */
export function reliabilityDescription(category: Category): string {
  const parts = category.bands
    .filter((b) => b.n > 0)
    .map((b) => `${b.band}: stated ${pct(b.stated)}, hit ${pct(b.realised)}, n=${b.n}`)
    .join('; ');
  return `${categoryLabel(category.category)}, stated confidence against realised hit rate. ${parts || 'No resolved forecasts.'}`;
}

/** The result of "Check exits now" as short lines: what closed, what resolved, what could not be checked. */
export function trackingLines(r: TrackingRunView): string[] {
  const lines: string[] = [];
  lines.push(`Checked ${r.checked} active ${r.checked === 1 ? 'Expression' : 'Expressions'}.`);
  if (r.closed.length) lines.push(`Closed: ${r.closed.map((c) => `${c.id} (${c.reason})`).join(', ')}.`);
  if (r.open.length) lines.push(`Still open, followed on: ${r.open.map((o) => `${o.id} (${o.series})`).join(', ')}.`);
  if (r.counterfactualsCompleted.length) lines.push(`Counterfactuals resolved: ${r.counterfactualsCompleted.join(', ')}.`);
  if (r.counterfactualsExpired.length) lines.push(`Counterfactuals past the tracking window: ${r.counterfactualsExpired.join(', ')}.`);
  if (r.skipped.length) lines.push(`Not checked: ${r.skipped.map((s) => `${s.id} (${s.reason})`).join(', ')}.`);
  if (r.calibrationFilesWritten.length) lines.push(`Calibration files rewritten: ${r.calibrationFilesWritten.length}.`);
  return lines;
}
