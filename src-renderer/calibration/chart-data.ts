import type { CalibrationView, TrackingRunView } from '../../src-main/api/calibration';

/**
 * The Calibration screen's figures shaped for its charts and table: reliability points sized by
 * count, Brier lines by month, bias in words. Pure (no chart.js, no DOM), tested on its own.
 */

type Category = CalibrationView['categories'][number];
type Band = Category['bands'][number];
type HistoryRow = CalibrationView['history'][number];
type Decomposition = NonNullable<Category['decomposition']>;
type Recalibration = NonNullable<Category['recalibration']>;

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
  /** Fewer forecasts than the per-band minimum: drawn lighter. */
  sparse: boolean;
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
  return bands.filter((b) => b.n > 0).map((b) => ({ x: b.stated, y: b.realised, n: b.n, band: b.band, r: pointRadius(b.n, maxN), sparse: b.sparse }));
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

/**
 * Bias (stated − realised) in words, both halves meaningful: above 0.5 "+18 pts overconfident" /
 * "−5 pts underconfident"; below 0.5 (stated < 0.5) a negative bias is "too extreme toward No"
 * (a 0.2 forecast that came true 40% of the time), a positive one "too timid toward No".
 */
export function biasWords(bias: number, stated = 1): string {
  const pts = Math.round(bias * 100);
  if (pts === 0) return 'on target';
  const size = pts > 0 ? `+${pts} pts` : `−${-pts} pts`;
  if (stated < 0.5) return `${size} ${pts < 0 ? 'too extreme toward No' : 'too timid toward No'}`;
  return `${size} ${pts > 0 ? 'overconfident' : 'underconfident'}`;
}

/** A band's bias as the table shows it: the words only when its interval excludes 0 and it has enough forecasts. */
export function bandBiasWords(b: Band): string {
  if (b.sparse) return 'too few to judge';
  const i = b.biasInterval;
  if (i && i.lo <= 0 && i.hi >= 0) return `${signedPts(b.bias)} (within noise)`;
  return biasWords(b.bias, b.stated);
}

const signedPts = (x: number) => {
  const pts = Math.round(x * 100);
  return pts > 0 ? `+${pts} pts` : pts < 0 ? `−${-pts} pts` : '0 pts';
};

/** "−3 to +6 pts" for a band's 95% interval of stated − realised. */
export function intervalPts(i: { lo: number; hi: number } | null): string {
  return i ? `${signedPts(i.lo)} to ${signedPts(i.hi)}` : '—';
}

/** The worst band as a sentence (only bands whose interval excludes the diagonal are ever given), or null. */
export function worstLine(worst: CalibrationView['worst']): string | null {
  if (!worst) return null;
  const range = worst.biasInterval ? `; 95% ${intervalPts(worst.biasInterval)}` : '';
  return `${categoryLabel(worst.category)}, ${worst.band} band: stated ${pct(worst.stated)}, hit ${pct(worst.realised)} (${biasWords(worst.bias, worst.stated)}${range}, n=${worst.n}).`;
}

/** The verdict sentence with its first letter capitalised (the core words it in lower case to follow a label). */
export function sentence(text: string): string {
  const t = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

export interface FigureRow {
  name: string;
  hint: string;
  value: string;
  interval: string;
}

const f3 = (x: number) => x.toFixed(3);
const f2 = (x: number) => x.toFixed(2);

/** Decomposition and slope as table rows: value and 95% interval, with what "good" looks like. */
export function figureRows(d: Decomposition | null, fit: Recalibration | null): FigureRow[] {
  const rows: FigureRow[] = [];
  if (d) {
    rows.push(
      {
        name: 'Brier score',
        hint: '0 is perfect; 0.25 is always saying 50%',
        value: f3(d.brier),
        interval: `${f3(d.intervals.brier.lo)} to ${f3(d.intervals.brier.hi)}`,
      },
      {
        name: 'Reliability',
        hint: 'gap between stated and realised; lower is better',
        value: f3(d.reliability),
        interval: `${f3(d.intervals.reliability.lo)} to ${f3(d.intervals.reliability.hi)}`,
      },
      {
        name: 'Resolution',
        hint: 'how far hit rates move with confidence; higher is better',
        value: f3(d.resolution),
        interval: `${f3(d.intervals.resolution.lo)} to ${f3(d.intervals.resolution.hi)}`,
      },
      {
        name: 'Uncertainty',
        hint: `base rate ${pct(d.baseRate)} hit; not up to the forecaster`,
        value: f3(d.uncertainty),
        interval: `${f3(d.intervals.uncertainty.lo)} to ${f3(d.intervals.uncertainty.hi)}`,
      },
    );
  }
  if (fit) {
    rows.push(
      {
        name: 'Calibration slope',
        hint: '1 is calibrated; below 1 too extreme; 0 no skill',
        value: f2(fit.slope),
        interval: `${f2(fit.slopeInterval.lo)} to ${f2(fit.slopeInterval.hi)}`,
      },
      {
        name: 'Calibration intercept',
        hint: '0 is no lean; below 0 states too high',
        value: f2(fit.intercept),
        interval: `${f2(fit.interceptInterval.lo)} to ${f2(fit.interceptInterval.hi)}`,
      },
    );
  }
  return rows;
}

/** What a screen reader hears for a reliability chart: each band's stated and realised figures. */
export function reliabilityDescription(category: Category): string {
  const parts = category.bands
    .filter((b) => b.n > 0)
    .map((b) => `${b.band}: stated ${pct(b.stated)}, hit ${pct(b.realised)}, n=${b.n}${b.sparse ? ' (too few to judge)' : ''}`)
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
