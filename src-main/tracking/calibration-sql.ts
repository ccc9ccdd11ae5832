// The SQL that defines which forecasts calibration counts (over migration 010's index), apart from the statistics computed on its rows in calibration.ts.

export const UNCATEGORISED = 'uncategorised';

/**
 * The forecasts calibration counts, as (category, p, outcome) rows; the WHERE clause is the
 * definition in calibration.ts's opening comment. Every header field is read with the exact
 * expression migration 010 indexes, so the scan is answered from that index (no record row is read).
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
// the few columns copied out of the index does not. Identical forecasts (same category,
// confidence and result) come back as one row with their count: confidences are stated to a few
// decimals, so 50,000 forecasts are a few hundred rows, and every figure below is exact on them.
export const GROUPED_SQL = `
  WITH f AS MATERIALIZED (${FORECASTS_SQL})
  SELECT coalesce(cat, '${UNCATEGORISED}') AS cat, p, hit, count(*) AS n, sum(kind = 'counterfactuals') AS cfs, max(exit_date) AS as_of
  FROM f
  GROUP BY 1, 2, 3`;

/**
 * Holding period per forecast, in whole days from entry (an Outcome's entry_date, a declined idea's
 * reference_date) to exit_date, bucketed as HORIZONS (-1: no readable dates). Outcomes carry no
 * horizon field of their own, so this is the horizon. The entry date is not in the index, so this
 * reads the record rows: its result is cached per store until the data changes (horizonsOf in calibration.ts).
 */
export const HORIZON_SQL = `
  WITH f AS (${FORECASTS_SQL.replace('AS exit_date', "AS exit_date, coalesce(json_extract(header, '$.entry_date'), json_extract(header, '$.reference_date')) AS entry_date")}),
  d AS (SELECT p, hit, CAST(julianday(substr(exit_date, 1, 10)) - julianday(substr(entry_date, 1, 10)) AS INTEGER) AS days FROM f)
  SELECT p, hit, CASE WHEN days IS NULL OR days < 0 THEN -1 WHEN days <= 7 THEN 0 WHEN days <= 30 THEN 1 WHEN days <= 90 THEN 2 ELSE 3 END AS h,
         count(*) AS n
  FROM d GROUP BY 1, 2, 3`;

/** Horizon buckets (days held, inclusive upper bounds). */
export const HORIZONS: readonly string[] = ['≤ 7 days', '8–30 days', '31–90 days', '> 90 days'];
