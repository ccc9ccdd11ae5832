import type { Store } from '../store';
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
 * Bands (lower bound inclusive, the top band includes 1.0): below 0.5, 0.5–0.6, 0.6–0.7, 0.7–0.8,
 * 0.8–0.9, 0.9–1.0. Per band and category: mean stated confidence, realised hit rate,
 * bias = stated − realised (positive = overconfident), count, and the Brier score — the mean of
 * (p − outcome)², 0 is perfect, 0.25 is what always saying 0.5 scores.
 *
 * One grouped SQL query over the typed columns (category, status, confidence) and four header
 * fields, all held by the partial index of migration 010: no record — let alone its markdown — is read.
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
}

export interface CategoryCalibration {
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

export interface Calibration {
  n: number;
  /** Null when nothing is resolved. */
  brier: number | null;
  categories: CategoryCalibration[];
  /** The band with the largest |bias| among those with at least `minBandCount` forecasts. */
  worst: (CalibrationBand & { category: string }) | null;
  minBandCount: number;
}

/** Band index 0 is "below 0.5"; 5..9 are 0.5–0.6 … 0.9–1.0. */
export function bandOf(p: number): number {
  if (p < 0.5) return 0;
  return Math.min(9, Math.floor(p * 10 + 1e-9));
}

export function bandBounds(index: number): { band: string; lower: number; upper: number } {
  if (index === 0) return { band: '0.0–0.5', lower: 0, upper: 0.5 };
  const lower = index / 10;
  const upper = (index + 1) / 10;
  return { band: `${lower.toFixed(1)}–${upper.toFixed(1)}`, lower, upper };
}

const UNCATEGORISED = 'uncategorised';

/**
 * The forecasts calibration counts, as (category, p, outcome) rows; the WHERE clause is the
 * definition above. Every header field is read with the exact expression migration 010 indexes,
 * so the scan is answered from that index (no record row is read).
 */
export const FORECASTS_SQL = `
  SELECT json_extract(header, '$.category') AS cat,
         confidence AS p,
         json_extract(header, '$.hit') AS hit,
         category AS kind,
         json_extract(header, '$.exit_date') AS exit_date
  FROM memory_records
  WHERE category IN ('outcomes', 'counterfactuals')
    AND ((category = 'outcomes' AND status = 'resolved')
      OR (category = 'counterfactuals' AND status = 'completed'
          AND json_extract(header, '$.decision_type') IN ('rejected_expression', 'alternative')))
    AND confidence BETWEEN 0 AND 1
    AND json_extract(header, '$.hit') IN ('true', 'false')`;

// MATERIALIZED: grouping by a header expression directly makes SQLite fetch every row; grouping
// the few columns copied out of the index does not.
const GROUPED_SQL = `
  WITH f AS MATERIALIZED (${FORECASTS_SQL})
  SELECT coalesce(cat, '${UNCATEGORISED}') AS cat,
         CASE WHEN p < 0.5 THEN 0 ELSE min(9, CAST(p * 10 + 1e-9 AS INTEGER)) END AS band,
         count(*) AS n, sum(kind = 'counterfactuals') AS cfs, avg(p) AS stated,
         avg(hit = 'true') AS realised, avg((p - (hit = 'true')) * (p - (hit = 'true'))) AS brier,
         max(exit_date) AS as_of
  FROM f
  GROUP BY 1, 2
  ORDER BY 1, 2`;

const r4 = (x: number) => Math.round(x * 10_000) / 10_000;

interface Row {
  cat: string;
  band: number;
  n: number;
  cfs: number;
  stated: number;
  realised: number;
  brier: number;
  as_of: string | null;
}

/** Calibration of every category from the resolved record. */
export function computeCalibration(store: Pick<Store, 'db'>, options: { minBandCount?: number } = {}): Calibration {
  const minBandCount = options.minBandCount ?? defaultTrackingSettings.calibrationMinBandCount;
  const rows = store.db.prepare(GROUPED_SQL).all() as Row[];
  const byCat = new Map<string, Row[]>();
  for (const row of rows) byCat.set(row.cat, [...(byCat.get(row.cat) ?? []), row]);

  const categories: CategoryCalibration[] = [];
  let total = 0;
  let brierSum = 0;
  let worst: Calibration['worst'] = null;
  for (const [category, list] of byCat) {
    const bands = list.map((row): CalibrationBand => {
      const b = bandBounds(row.band);
      return {
        ...b,
        n: row.n,
        counterfactuals: row.cfs,
        stated: r4(row.stated),
        realised: r4(row.realised),
        bias: r4(row.stated - row.realised),
        brier: r4(row.brier),
      };
    });
    // Category figures are the count-weighted means of the exact band figures (not the rounded ones).
    const n = list.reduce((s, x) => s + x.n, 0);
    const w = (f: (x: Row) => number) => list.reduce((s, x) => s + f(x) * x.n, 0) / n;
    const stated = w((x) => x.stated);
    const realised = w((x) => x.realised);
    const brier = w((x) => x.brier);
    total += n;
    brierSum += brier * n;
    categories.push({
      category,
      n,
      counterfactuals: list.reduce((s, x) => s + x.cfs, 0),
      stated: r4(stated),
      realised: r4(realised),
      bias: r4(stated - realised),
      brier: r4(brier),
      bands,
      asOf: list.reduce<string | null>((m, x) => (x.as_of && (!m || x.as_of > m) ? x.as_of : m), null),
    });
    for (const b of bands) {
      if (b.n >= minBandCount && (!worst || Math.abs(b.bias) > Math.abs(worst.bias))) worst = { ...b, category };
    }
  }
  return { n: total, brier: total ? r4(brierSum / total) : null, categories, worst, minBandCount };
}

/**
 * One short line for the analyst's system prompt and the reviewer, e.g.
 * "Calibration: thematic 0.8–0.9 band overconfident by 18 pts (stated 0.85, hit 0.67, n=12); Brier 0.21 over 140 resolved."
 */
export function calibrationSummaryLine(store: Pick<Store, 'db'>, options: { minBandCount?: number } = {}): string {
  return summaryLineOf(computeCalibration(store, options));
}

export function summaryLineOf(c: Calibration): string {
  if (!c.worst) {
    return c.n
      ? `Calibration: not enough data yet (${c.n} resolved; a band is quoted from ${c.minBandCount} forecasts).`
      : 'Calibration: no resolved Outcomes or Counterfactuals yet.';
  }
  const w = c.worst;
  const pts = Math.round(Math.abs(w.bias) * 100);
  const how = pts === 0 ? 'on target' : w.bias > 0 ? `overconfident by ${pts} pts` : `underconfident by ${pts} pts`;
  return `Calibration: ${w.category} ${w.band} band ${how} (stated ${w.stated.toFixed(2)}, hit ${w.realised.toFixed(2)}, n=${w.n}); Brier ${c.brier!.toFixed(2)} over ${c.n} resolved.`;
}

/**
 * The Brier score per month of exit, overall (`all`) and per category, oldest first — how the
 * PM's forecasting is moving. Same forecasts and index as `computeCalibration`.
 */
export function brierHistory(store: Pick<Store, 'db'>): { month: string; category: string; n: number; brier: number }[] {
  const rows = store.db
    .prepare(
      `WITH f AS MATERIALIZED (${FORECASTS_SQL})
       SELECT substr(exit_date, 1, 7) AS month, coalesce(cat, '${UNCATEGORISED}') AS category, count(*) AS n,
              avg((p - (hit = 'true')) * (p - (hit = 'true'))) AS brier
       FROM f WHERE exit_date IS NOT NULL GROUP BY 1, 2
       UNION ALL
       SELECT substr(exit_date, 1, 7), 'all', count(*), avg((p - (hit = 'true')) * (p - (hit = 'true')))
       FROM f WHERE exit_date IS NOT NULL GROUP BY 1
       ORDER BY 1, 2`,
    )
    .all() as { month: string; category: string; n: number; brier: number }[];
  return rows.map((r) => ({ ...r, brier: r4(r.brier) }));
}
