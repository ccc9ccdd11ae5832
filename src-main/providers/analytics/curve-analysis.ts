import { type BondInput, bootstrapZeroCurve, type ZeroNode } from './curves/bootstrap';
import { linearInterpolator, monotoneCubicInterpolator } from './curves/interpolation';
import { type CurveFit, fitNelsonSiegel, fitSvensson, nelsonSiegelForward, nelsonSiegelYield } from './curves/nelson-siegel';
import { fail } from './numeric/validate';

/**
 * A yield curve from instruments: bootstrapped zero rates (when bonds are given), Nelson–Siegel
 * and/or Svensson fits, forwards between nodes, and evenly spaced points for a chart. Shared by
 * the analytics provider and the `analytics/curve` procedure.
 */

/** 'none': zero rates and the interpolated chart only. */
export type CurveModel = 'ns' | 'nss' | 'both' | 'none';

export interface CurveRequest {
  bonds?: BondInput[];
  /** Zero rates by maturity, when no bonds are given. */
  points?: { maturity: number; rate: number }[];
  model?: CurveModel;
  /** Points on the chart grid (default 61). */
  chartPoints?: number;
}

export interface CurveChartPoint {
  maturity: number;
  linear: number;
  monotone: number;
  ns: number | null;
  nss: number | null;
  nsForward: number | null;
}

export interface CurveAnalysis {
  /** Continuous and annual zero rates at each node (from the bonds, or the points given). */
  zeros: ZeroNode[];
  /** Continuously compounded forward rate between consecutive nodes. */
  forwards: { from: number; to: number; rate: number }[];
  ns: CurveFit | null;
  nss: CurveFit | null;
  chart: CurveChartPoint[];
}

export function analyseCurve(req: CurveRequest): CurveAnalysis {
  const model = req.model ?? 'ns';
  if (!req.bonds?.length === !req.points?.length) fail('give either bonds (to bootstrap) or points (zero rates by maturity), not both.');
  let zeros: ZeroNode[];
  if (req.bonds?.length) zeros = bootstrapZeroCurve(req.bonds).nodes;
  else {
    const pts = [...req.points!].sort((a, b) => a.maturity - b.maturity);
    zeros = pts.map((p) => ({ maturity: p.maturity, zeroContinuous: p.rate, zeroAnnual: Math.expm1(p.rate), discountFactor: Math.exp(-p.rate * p.maturity) }));
  }
  const taus = zeros.map((z) => z.maturity);
  const rates = zeros.map((z) => z.zeroContinuous);
  const ns = model === 'ns' || model === 'both' ? fitNelsonSiegel(taus, rates) : null;
  const nss = model === 'nss' || model === 'both' ? fitSvensson(taus, rates) : null;
  const linear = linearInterpolator(taus, rates);
  const monotone = monotoneCubicInterpolator(taus, rates);
  const count = req.chartPoints ?? 61;
  if (!Number.isInteger(count) || count < 2 || count > 1000) fail(`chartPoints must be a whole number from 2 to 1000 (got ${count}).`);
  const top = taus[taus.length - 1]!;
  const chart: CurveChartPoint[] = Array.from({ length: count }, (_, i) => {
    // Starts a little above 0: the models' short end is their limit β0 + β1, the nodes' the first rate.
    const m = Math.max((top * i) / (count - 1), Math.min(taus[0]!, top / (count - 1)) / 4);
    return {
      maturity: m,
      linear: linear(m),
      monotone: monotone(m),
      ns: ns ? nelsonSiegelYield(ns.params, m) : null,
      nss: nss ? nelsonSiegelYield(nss.params, m) : null,
      nsForward: ns ? nelsonSiegelForward(ns.params, m) : null,
    };
  });
  const forwards = zeros.slice(1).map((z, i) => {
    const prev = zeros[i]!;
    return { from: prev.maturity, to: z.maturity, rate: (z.zeroContinuous * z.maturity - prev.zeroContinuous * prev.maturity) / (z.maturity - prev.maturity) };
  });
  return { zeros, forwards, ns, nss, chart };
}
