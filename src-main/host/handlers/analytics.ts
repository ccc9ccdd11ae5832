import { analyseCurve, analyseOption } from '../../providers/analytics';
import type { PartialHandlerMap } from './types';

/**
 * Analytics for the UI: pure local calculations, no state. Inputs the math refuses (a price
 * outside the no-arbitrage bounds, a bond no zero rate can reprice) come back as invalid_input
 * with the library's message.
 */
export const analyticsHandlers: PartialHandlerMap = {
  'analytics/option': (input) =>
    analyseOption({
      model: input.model,
      type: input.type,
      underlying: input.underlying,
      strike: input.strike,
      expiry: input.expiryYears,
      rate: input.rate,
      ...(input.dividendYield !== undefined ? { dividendYield: input.dividendYield } : {}),
      ...(input.vol !== undefined ? { vol: input.vol } : {}),
      ...(input.price !== undefined ? { price: input.price } : {}),
      ...(input.spots !== undefined ? { spots: input.spots } : {}),
    }),
  'analytics/curve': (input) => analyseCurve({ bonds: input.bonds, points: input.points, model: input.model, chartPoints: input.chartPoints }),
};
