import { normQuantile } from '../providers/analytics/risk/var';
import type { Store } from '../store';
import {
  addForecast,
  bootstrapCells,
  type Cells,
  type Decomposition,
  decompose,
  emptyCells,
  type Interval,
  logisticRecalibration,
  type Recalibration,
} from './calibration-stats';
import { calibrationVerdict, type Verdict, worstOffBand } from './calibration-words';
import { FORECASTS_SQL, GROUPED_SQL, HORIZON_SQL, HORIZONS, UNCATEGORISED } from './calibration-sql';
import { defaultTrackingSettings } from './settings';

/**
 * Calibration computed from the record, never written by hand (seed §7, §15; issue 13 item 3).
 *
 * Forecasts counted:
 *   - Outcomes with `status: resolved` (the tracker's, with `hit` and the stated `confidence`);
 *   - Counterfactuals with `status: completed` whose decision_type is `rejected_expression` or
 *     `alternative`: ideas the analyst put forward with a confidence and that were NOT taken. Leaving
 *     them out would score only the ideas the PM liked — a survivor's calibration. A `size_not_taken`
 *     is not counted: it is the same forecast as the trade that was taken (only the size differs),
 *     and counting it would score one idea twice. Expired ones have no result and are not counted.
 * A forecast is a hit when the trade made money (P&L > 0); its probability is the stated confidence.
 *
 * Bands: `bins` equal bins over [0, 1] (settings, default ten; lower bound inclusive, the top band
 * includes 1.0). Per band and category: mean stated confidence, realised hit rate,
 * bias = stated − realised, count, the Brier score — the mean of (p − outcome)², 0 is perfect,
 * 0.25 is what always saying 0.5 scores — and a bootstrap 95% interval of the bias. Per category,
 * overall and per horizon: the Murphy decomposition with intervals and the calibration slope and
 * intercept (calibration-stats.ts), and the words those numbers allow (calibration-words.ts).
 *
 * The forecasts are read with one SQL query over the typed columns (category, status, confidence)
 * and four header fields, all held by the partial index of migration 010: no record — let alone
 * its markdown — is read. Horizons need the entry date, which the index does not hold: a second
 * query reads it for the same forecasts (see HORIZON_SQL, calibration-sql.ts).
 */

export interface CalibrationBand {
  band: string;
  lower: number;
  upper: number;
  n: number;
  /** How many of `n` are Counterfactuals (the rest are Outcomes). */
  counterfactuals: number;
  stated: number;
  realised: number;
  bias: number;
  brier: number;
  /**
   * 95% interval of stated − realised, family-wise across the bands judged (Bonferroni: each at
   * 1 − 0.05/m for m bands with `minBandCount` forecasts, bias ± z·bootstrap sd). Pointwise 95%
   * intervals over ten bands would flag a noise band in a perfectly calibrated record 40% of the
   * time — the "0.6–0.7 underconfident by 2 pts" this replaces. It excludes 0 only for a real gap.
   */
  biasInterval: Interval | null;
  /** Fewer than `minBandCount` forecasts: drawn lighter and never quoted. */
  sparse: boolean;
}

/** The Murphy decomposition of one group's Brier score, with bootstrap 95% intervals. */
export interface DecompositionView {
  n: number;
  brier: number;
  reliability: number;
  resolution: number;
  uncertainty: number;
  /** BS − (REL − RES + UNC): the within-bin term (WBV − WBC) binning leaves out. */
  withinBin: number;
  baseRate: number;
  intervals: { brier: Interval; reliability: Interval; resolution: Interval; uncertainty: Interval };
}

export interface GroupStats {
  decomposition: DecompositionView | null;
  /** Calibration slope and intercept (logistic recalibration) with 95% Wald intervals; null when it cannot be fitted. */
  recalibration: Recalibration | null;
  verdict: Verdict;
}

export interface CategoryCalibration extends GroupStats {
  category: string;
  n: number;
  counterfactuals: number;
  stated: number;
  realised: number;
  bias: number;
  brier: number;
  bands: CalibrationBand[];
  /** The latest exit date among its forecasts (what the figures are as of). */
  asOf: string | null;
}

/** Calibration by holding period: days from entry (a declined idea's reference date) to exit. */
export interface HorizonCalibration extends GroupStats {
  horizon: string;
  n: number;
  brier: number;
}

export interface Calibration {
  n: number;
  /** Null when nothing is resolved. */
  brier: number | null;
  categories: CategoryCalibration[];
  /** All categories together: decomposition, slope, words and bands. */
  overall: GroupStats & { bands: CalibrationBand[] };
  horizons: HorizonCalibration[];
  /** The band furthest from the diagonal among those whose interval excludes it (and with `minBandCount` forecasts); null when none. */
  worst: (CalibrationBand & { category: string }) | null;
  minBandCount: number;
  bins: number;
  bootstrap: { resamples: number; seed: number };
}

/** Band index among `bins` equal bins (ten by default): 0 is 0.0–0.1 … 9 is 0.9–1.0. */
export function bandOf(p: number, bins = defaultTrackingSettings.calibrationBins): number {
  return Math.max(0, Math.min(bins - 1, Math.floor(p * bins + 1e-9)));
}

export function bandBounds(index: number, bins = defaultTrackingSettings.calibrationBins): { band: string; lower: number; upper: number } {
  const lower = index / bins;
  const upper = (index + 1) / bins;
  const digits = bins <= 10 ? 1 : 2;
  return { band: `${lower.toFixed(digits)}–${upper.toFixed(digits)}`, lower: r4(lower), upper: r4(upper) };
}

const r4 = (x: number) => Math.round(x * 10_000) / 10_000;
const r4i = (i: Interval): Interval => ({ lo: r4(i.lo), hi: r4(i.hi) });

interface Row {
  cat: string;
  p: number;
  hit: string;
  n: number;
  cfs: number;
  as_of: string | null;
}

export interface CalibrationOptions {
  minBandCount?: number;
  bins?: number;
  resamples?: number;
  seed?: number;
}

/** Accumulates one group's forecasts: cells for the decomposition, (p, y, count) for the slope. */
class Group {
  readonly cells: Cells;
  readonly cfs: Float64Array;
  readonly ps: number[] = [];
  readonly ys: number[] = [];
  readonly ws: number[] = [];
  sumP = 0;
  asOf: string | null = null;
  constructor(readonly bins: number) {
    this.cells = emptyCells(bins);
    this.cfs = new Float64Array(bins);
  }
  add(p: number, hit: boolean, count: number, counterfactuals: number, exitDate: string | null): void {
    addForecast(this.cells, p, hit, count);
    this.cfs[bandOf(p, this.bins)]! += counterfactuals;
    this.ps.push(p);
    this.ys.push(hit ? 1 : 0);
    this.ws.push(count);
    this.sumP += count * p;
    if (exitDate && (!this.asOf || exitDate > this.asOf)) this.asOf = exitDate;
  }
}

function statsOf(g: Group, o: Required<CalibrationOptions>): GroupStats & { bands: CalibrationBand[]; d: Decomposition } {
  const d = decompose(g.cells);
  const boot = d.n ? bootstrapCells(g.cells, { resamples: o.resamples, seed: o.seed }) : null;
  const bands: CalibrationBand[] = [];
  let judged = 0;
  for (let k = 0; k < g.bins; k++) if (g.cells.count[2 * k]! + g.cells.count[2 * k + 1]! >= o.minBandCount) judged++;
  const z = normQuantile(1 - 0.025 / Math.max(1, judged));
  for (let k = 0; k < g.bins; k++) {
    const c0 = g.cells.count[2 * k]!;
    const c1 = g.cells.count[2 * k + 1]!;
    const n = c0 + c1;
    if (!n) continue;
    const stated = (g.cells.sumP[2 * k]! + g.cells.sumP[2 * k + 1]!) / n;
    const sq = g.cells.sumP2[2 * k]! + g.cells.sumP2[2 * k + 1]! - 2 * g.cells.sumP[2 * k + 1]! + c1;
    const sd = boot?.bandSd[k];
    const interval = sd === undefined || sd === null ? null : { lo: stated - c1 / n - z * sd, hi: stated - c1 / n + z * sd };
    bands.push({
      ...bandBounds(k, g.bins),
      n,
      counterfactuals: g.cfs[k]!,
      stated: r4(stated),
      realised: r4(c1 / n),
      bias: r4(stated - c1 / n),
      brier: r4(sq / n),
      biasInterval: interval && r4i(interval),
      sparse: n < o.minBandCount,
    });
  }
  const recalibration = d.n ? logisticRecalibration(g.ps, g.ys, g.ws) : null;
  const decomposition: DecompositionView | null =
    boot && d.n
      ? {
          n: d.n,
          brier: r4(d.brier),
          reliability: r4(d.reliability),
          resolution: r4(d.resolution),
          uncertainty: r4(d.uncertainty),
          withinBin: r4(d.withinBin),
          baseRate: r4(d.baseRate),
          intervals: { brier: r4i(boot.brier), reliability: r4i(boot.reliability), resolution: r4i(boot.resolution), uncertainty: r4i(boot.uncertainty) },
        }
      : null;
  const fit = recalibration && {
    ...recalibration,
    intercept: r4(recalibration.intercept),
    slope: r4(recalibration.slope),
    interceptInterval: r4i(recalibration.interceptInterval),
    slopeInterval: r4i(recalibration.slopeInterval),
  };
  return { d, bands, decomposition, recalibration: fit, verdict: calibrationVerdict({ n: d.n, bands, recalibration: fit }, o.minBandCount) };
}

/** One group's bands, decomposition, slope and words from raw forecasts — the path every group takes (tests use it directly). */
export function groupCalibration(ps: ArrayLike<number>, ys: ArrayLike<number>, options: CalibrationOptions = {}): GroupStats & { bands: CalibrationBand[] } {
  const o = withDefaults(options);
  const g = new Group(o.bins);
  for (let i = 0; i < ps.length; i++) g.add(ps[i]!, ys[i] === 1, 1, 0, null);
  const { d: _d, ...stats } = statsOf(g, o);
  return stats;
}

function withDefaults(options: CalibrationOptions): Required<CalibrationOptions> {
  const s = defaultTrackingSettings;
  return {
    minBandCount: options.minBandCount ?? s.calibrationMinBandCount,
    bins: options.bins ?? s.calibrationBins,
    resamples: options.resamples ?? s.calibrationResamples,
    seed: options.seed ?? s.calibrationSeed,
  };
}

/** Calibration of every category, overall and per horizon, from the resolved record. */
export function computeCalibration(store: Pick<Store, 'db'>, options: CalibrationOptions = {}): Calibration {
  const o = withDefaults(options);
  const rows = store.db.prepare(GROUPED_SQL).all() as Row[];
  const all = new Group(o.bins);
  const byCat = new Map<string, Group>();
  for (const row of rows) {
    const cat = row.cat;
    let g = byCat.get(cat);
    if (!g) {
      g = new Group(o.bins);
      byCat.set(cat, g);
    }
    const hit = row.hit === 'true';
    g.add(row.p, hit, row.n, row.cfs, row.as_of);
    all.add(row.p, hit, row.n, row.cfs, row.as_of);
  }

  const categories: CategoryCalibration[] = [];
  let worst: Calibration['worst'] = null;
  for (const [category, g] of [...byCat].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const { d, bands, ...stats } = statsOf(g, o);
    const stated = g.sumP / d.n;
    categories.push({
      category,
      n: d.n,
      counterfactuals: bands.reduce((a, b) => a + b.counterfactuals, 0),
      stated: r4(stated),
      realised: r4(d.baseRate),
      bias: r4(stated - d.baseRate),
      brier: r4(d.brier),
      bands,
      asOf: g.asOf,
      ...stats,
    });
    const w = worstOffBand(bands, o.minBandCount);
    if (w && (!worst || Math.abs(w.bias) > Math.abs(worst.bias))) worst = { ...w, category };
  }
  const { d, ...overall } = statsOf(all, o);
  return {
    n: d.n,
    brier: d.n ? r4(d.brier) : null,
    categories,
    overall,
    horizons: d.n ? horizonsOf(store, o) : [],
    worst,
    minBandCount: o.minBandCount,
    bins: o.bins,
    bootstrap: { resamples: o.resamples, seed: o.seed },
  };
}

/**
 * Horizon rows, cached per store and keyed by its data version: SQLite's total_changes() (every
 * write through this connection) and PRAGMA data_version (commits by any other connection) plus
 * the options. Any write, related or not, drops the cache, so a horizon is never older than the
 * record; between writes (the screen re-opened, the prompt rebuilt) the row scan is not repeated.
 */
const horizonCache = new WeakMap<object, { key: string; horizons: HorizonCalibration[] }>();

function horizonsOf(store: Pick<Store, 'db'>, o: Required<CalibrationOptions>): HorizonCalibration[] {
  const version = store.db.prepare('SELECT total_changes() AS t').get() as { t: number };
  const key = `${version.t}|${String(store.db.pragma('data_version', { simple: true }))}|${JSON.stringify(o)}`;
  const hit = horizonCache.get(store.db);
  if (hit?.key === key) return hit.horizons;
  const groups = HORIZONS.map(() => new Group(o.bins));
  for (const row of store.db.prepare(HORIZON_SQL).all() as { p: number; hit: string; h: number; n: number }[]) {
    if (row.h >= 0) groups[row.h]!.add(row.p, row.hit === 'true', row.n, 0, null); // -1: no readable entry date, in no horizon
  }
  const horizons = groups.flatMap((g, i) => {
    if (!g.ps.length) return [];
    const { d, bands: _b, ...stats } = statsOf(g, o);
    return [{ horizon: HORIZONS[i]!, n: d.n, brier: r4(d.brier), ...stats }];
  });
  horizonCache.set(store.db, { key, horizons });
  return horizons;
}

/**
 * One short line for the analyst's system prompt and the reviewer, in the words the numbers allow
 * (calibration-words.ts), overall and per category, e.g.
 * "Calibration (140 resolved, Brier 0.212, 95% 0.19 to 0.23): overconfident: … | thematic: …".
 */
export function calibrationSummaryLine(store: Pick<Store, 'db'>, options: CalibrationOptions = {}): string {
  return summaryLineOf(computeCalibration(store, options));
}

export function summaryLineOf(c: Calibration): string {
  if (!c.n) return 'Calibration: no resolved Outcomes or Counterfactuals yet.';
  const d = c.overall.decomposition;
  const brier = d ? `Brier ${d.brier.toFixed(3)}, 95% ${d.intervals.brier.lo.toFixed(3)} to ${d.intervals.brier.hi.toFixed(3)}` : `Brier ${c.brier}`;
  const cats = c.categories.length > 1 ? c.categories.map((x) => ` | ${x.category} (n=${x.n}): ${x.verdict.text}`).join('') : '';
  return `Calibration (${c.n} resolved, ${brier}): ${c.overall.verdict.text}.${cats}`;
}

/**
 * The Brier score per month of exit, overall (`all`) and per category, oldest first — how the
 * PM's forecasting is moving. Same forecasts and index as `computeCalibration`.
 */
export function brierHistory(store: Pick<Store, 'db'>): { month: string; category: string; n: number; brier: number }[] {
  const rows = store.db
    .prepare(
      // The outcome as 1.0/0.0 spelled out (not SQLite's 0/1 comparison), so a desk's PostgreSQL reads it the same.
      `WITH f AS MATERIALIZED (${FORECASTS_SQL})
       SELECT substr(exit_date, 1, 7) AS month, coalesce(cat, '${UNCATEGORISED}') AS category, count(*) AS n,
              avg((p - CASE WHEN hit = 'true' THEN 1.0 ELSE 0.0 END) * (p - CASE WHEN hit = 'true' THEN 1.0 ELSE 0.0 END)) AS brier
       FROM f WHERE exit_date IS NOT NULL GROUP BY 1, 2
       UNION ALL
       SELECT substr(exit_date, 1, 7), 'all', count(*), avg((p - CASE WHEN hit = 'true' THEN 1.0 ELSE 0.0 END) * (p - CASE WHEN hit = 'true' THEN 1.0 ELSE 0.0 END))
       FROM f WHERE exit_date IS NOT NULL GROUP BY 1
       ORDER BY 1, 2`,
    )
    .all() as { month: string; category: string; n: number; brier: number }[];
  return rows.map((r) => ({ ...r, brier: r4(r.brier) }));
}
