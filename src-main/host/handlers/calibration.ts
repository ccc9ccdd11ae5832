import type { TrackingRunView } from '../../api/calibration';
import type { ForgeFS } from '../../fs';
import { brierHistory, computeCalibration, expressionPriceSources, type MarketPort, summaryLineOf } from '../../tracking';
import type { PartialHandlerMap } from './types';

/** The Calibration screen: computed from resolved Outcomes and Counterfactuals at each call (SQL over an index). */
export function calibrationHandlers(deps: { fs: () => ForgeFS; track: () => Promise<TrackingRunView>; market: () => MarketPort }): PartialHandlerMap {
  return {
    'calibration/get': () => {
      const store = deps.fs().store;
      const c = computeCalibration(store);
      return { ...c, summary: summaryLineOf(c), history: brierHistory(store) };
    },
    'tracking/run': () => deps.track(),
    // The tracker's market port, not a second lookup: the page and "Check exits now" read alike.
    'expressions/price-source': async (input, ctx) => {
      await ctx.memory.ready;
      return expressionPriceSources(deps.fs(), deps.market(), input.id, { today: new Date().toISOString().slice(0, 10) });
    },
  };
}
