import type { Migration } from './types';

/**
 * Calibration is computed from resolved Outcomes and completed Counterfactuals (src-main/tracking):
 * per category and confidence band, stated confidence vs the realised hit rate and the Brier score.
 * The two fields it groups and scores by (`category`, `hit`) and the two it filters on
 * (`decision_type`, and `exit_date` for the as-of) live in the header JSON; this partial index
 * holds them next to the typed columns, so the calibration query reads the index alone — 50,000
 * forecasts without reading one record row. Only Outcomes and Counterfactuals are indexed; SQLite
 * keeps it in step in the same transaction as every write.
 */
export const calibrationForecasts: Migration = {
  version: 10,
  name: '010_calibration_forecasts',
  up(db) {
    db.exec(`
      CREATE INDEX memory_records_forecasts ON memory_records (
        category, status,
        json_extract(header, '$.category'), confidence, json_extract(header, '$.hit'),
        json_extract(header, '$.decision_type'), json_extract(header, '$.exit_date')
      ) WHERE category IN ('outcomes', 'counterfactuals');
    `);
  },
};
