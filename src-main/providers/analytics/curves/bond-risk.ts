import { fail, finite, positive } from '../numeric/validate';
import { type BondInput, bondCashFlows, type ZeroCurve } from './bootstrap';

/**
 * Price sensitivity of a bond to its yield (Hull, §4.8–4.9): Macaulay duration, modified duration,
 * DV01 (price change per 100 face for a 1 basis point fall in yield) and convexity. With continuous
 * compounding modified duration equals Macaulay duration; with m payments a year it is D / (1 + y/m).
 */

export type YieldCompounding = 'continuous' | 'annual' | 'semiannual' | 'quarterly' | 'monthly';

const PER_YEAR: Record<Exclude<YieldCompounding, 'continuous'>, number> = { annual: 1, semiannual: 2, quarterly: 4, monthly: 12 };

export interface BondRisk {
  price: number;
  macaulayDuration: number;
  modifiedDuration: number;
  /** Price change per 100 face for a 1bp fall in yield. */
  dv01: number;
  convexity: number;
}

export function bondRisk(bond: BondInput, yieldRate: number, compounding: YieldCompounding = 'continuous'): BondRisk {
  positive('maturity', bond.maturity);
  const c = finite('coupon', bond.coupon);
  if (c < 0 || c > 1) fail(`coupon is ${c}; give it as a decimal between 0 and 1 (0.04 = 4%).`);
  const y = finite('yield', yieldRate);
  if (Math.abs(y) > 1) fail(`yield is ${y}; give it as a decimal (0.05 = 5%).`);
  const flows = bondCashFlows(bond);
  let price = 0;
  let tw = 0;
  let t2w = 0;
  if (compounding === 'continuous') {
    for (const f of flows) {
      const pv = f.amount * Math.exp(-y * f.time);
      price += pv;
      tw += f.time * pv;
      t2w += f.time * f.time * pv;
    }
    const d = tw / price;
    return { price, macaulayDuration: d, modifiedDuration: d, dv01: d * price * 1e-4, convexity: t2w / price };
  }
  const m = PER_YEAR[compounding];
  if (!m) fail(`compounding must be continuous, annual, semiannual, quarterly or monthly (got ${String(compounding)}).`);
  const g = 1 + y / m;
  if (!(g > 0)) fail(`a yield of ${y} with ${compounding} compounding is below −100%.`);
  for (const f of flows) {
    const pv = f.amount * g ** (-m * f.time);
    price += pv;
    tw += f.time * pv;
    // d²P/dy² = Σ t(t + 1/m)·CF·g^(−mt−2)
    t2w += f.time * (f.time + 1 / m) * pv;
  }
  const d = tw / price;
  const modified = d / g;
  return { price, macaulayDuration: d, modifiedDuration: modified, dv01: modified * price * 1e-4, convexity: t2w / (price * g * g) };
}

/** A bond against a whole zero curve: price, and DV01 for a parallel 1bp shift (central difference, so convexity does not leak in). */
export function curveDv01(curve: ZeroCurve, bond: BondInput): { price: number; dv01: number } {
  let price = 0;
  let down = 0;
  let up = 0;
  for (const f of bondCashFlows(bond)) {
    const z = curve.zero(f.time);
    price += f.amount * Math.exp(-z * f.time);
    down += f.amount * Math.exp(-(z - 1e-4) * f.time);
    up += f.amount * Math.exp(-(z + 1e-4) * f.time);
  }
  return { price, dv01: (down - up) / 2 };
}
