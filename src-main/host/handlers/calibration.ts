import type { TrackingRunView } from '../../api/calibration';
import type { ForgeFS } from '../../fs';
import { brierHistory, computeCalibration, summaryLineOf } from '../../tracking';
import type { PartialHandlerMap } from './types';

/** The Calibration screen: computed from resolved Outcomes and Counterfactuals at each call (SQL over an index). */
export function calibrationHandlers(deps: { fs: () => ForgeFS; track: () => Promise<TrackingRunView> }): PartialHandlerMap {
  return {
    'calibration/get': () => {
      const store = deps.fs().store;
      const c = computeCalibration(store);
      return { ...c, summary: summaryLineOf(c), history: brierHistory(store) };
    },
    'tracking/run': () => deps.track(),
  };
}
