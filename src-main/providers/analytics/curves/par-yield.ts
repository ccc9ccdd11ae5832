import { fail, finite, positive, show } from '../numeric/validate';
import { zeroCurve } from './bootstrap';

/**
 * Par yields: the coupon rate at which a bond prices at par off a discount curve (Hull, *Options,
 * Futures, and Other Derivatives*, §4.6). With f coupons a year paid every 1/f years counted back
 * from the tenor T, t_1 the first of them and P(t) the discount factor, a bond quoted at a clean
 * price of 100 satisfies  (c/f)·Σ P(t_i) + P(T) = 1 + (c/f)·(1 − f·t_1)  (the last term is the
 * accrued interest, zero when T is a whole number of periods), so
 *   c = f·(1 − P(T)) / (Σ P(t_i) − (1 − f·t_1)).
 * The yield is "coupon-equivalent": compounded f times a year, as Treasury par curves are quoted.
 * A forward par yield is the coupon of a bond that starts at a future date a and runs n periods:
 *   c = f·(P(a) − P(a + n/f)) / Σ_{i=1..n} P(a + i/f).
 */

export type Discount = (t: number) => number;

const FREQUENCIES = [1, 2, 4, 12];

function checkFrequency(frequency: number): number {
  if (!FREQUENCIES.includes(frequency)) fail(`frequency must be 1, 2, 4 or 12 coupons a year (got ${frequency}).`);
  return frequency;
}

/** The par coupon (decimal, compounded `frequency` times a year) of a bond maturing at `tenor` years. */
export function parYield(discount: Discount, tenor: number, frequency = 2): number {
  positive('tenor', tenor);
  checkFrequency(frequency);
  const period = 1 / frequency;
  let annuity = 0;
  let first = tenor;
  // Coupon times from the tenor back; computed from the tenor so 30 years do not accumulate rounding.
  for (let k = 0; ; k++) {
    const t = tenor - k * period;
    if (t <= 1e-9) break;
    annuity += discount(t);
    first = t;
  }
  const accruedFraction = first >= period - 1e-9 ? 0 : 1 - first / period;
  const denominator = annuity - accruedFraction;
  if (!(denominator > 0)) fail(`no par coupon exists at ${show(tenor)} years on this curve (the coupon annuity is not positive).`);
  return (frequency * (1 - discount(tenor))) / denominator;
}

/** The par coupon of a bond that starts in `start` years and pays `frequency` coupons a year for `length` years. */
export function forwardParYield(discount: Discount, start: number, length: number, frequency = 2): number {
  finite('forward start', start);
  if (start < 0) fail(`the forward start must not be negative (got ${start}).`);
  positive('forward tenor', length);
  checkFrequency(frequency);
  const periods = length * frequency;
  if (Math.abs(periods - Math.round(periods)) > 1e-9)
    fail(`a forward bond of ${show(length)} years is not a whole number of ${frequency === 1 ? 'annual' : `1/${frequency}-year`} coupon periods.`);
  const n = Math.round(periods);
  let annuity = 0;
  for (let i = 1; i <= n; i++) annuity += discount(start + i / frequency);
  return (frequency * (discount(start) - discount(start + length))) / annuity;
}

export interface ParYieldRow {
  tenor: number;
  /** Continuously compounded zero rate at the tenor. */
  zero: number;
  discountFactor: number;
  parYield: number;
}

export type ZeroCompounding = 'continuous' | 'annual' | 'semiannual' | 'quarterly' | 'monthly';

const PER_YEAR: Record<ZeroCompounding, number> = { continuous: 0, annual: 1, semiannual: 2, quarterly: 4, monthly: 12 };

/** A zero rate compounded m times a year as the continuous rate with the same discount factor: m·ln(1 + r/m). */
export function toContinuous(rate: number, compounding: ZeroCompounding): number {
  const m = PER_YEAR[compounding];
  if (m === undefined) fail(`compounding must be continuous, annual, semiannual, quarterly or monthly (got ${String(compounding)}).`);
  if (m === 0) return rate;
  if (!(1 + rate / m > 0)) fail(`a zero rate of ${rate} compounded ${compounding} is below −100%.`);
  return m * Math.log1p(rate / m);
}

/**
 * Par yields from zero rates given at nodes (in any compounding; converted to continuous), the
 * continuous rates interpolated linearly between nodes and held flat outside them (the curve the
 * bootstrap builds), one row per tenor.
 */
export function parYieldsFromZeros(
  points: readonly { maturity: number; rate: number }[],
  tenors: readonly number[] | undefined,
  frequency = 2,
  compounding: ZeroCompounding = 'continuous',
): ParYieldRow[] {
  if (!Array.isArray(points) || points.length < 1) fail('give at least one zero rate (maturity, rate).');
  if (points.length > 2000) fail(`at most 2000 zero rates are accepted (got ${points.length}).`);
  const sorted = [...points].sort((a, b) => a.maturity - b.maturity);
  sorted.forEach((p, i) => {
    positive(`points[${i}].maturity`, p.maturity);
    finite(`points[${i}].rate`, p.rate);
    if (Math.abs(p.rate) > 1) fail(`points[${i}].rate is ${p.rate}; give rates as decimals (0.05 = 5%).`);
    if (i > 0 && p.maturity === sorted[i - 1]!.maturity) fail(`two zero rates are given for ${p.maturity} years; give one per maturity.`);
  });
  const curve = zeroCurve(
    sorted.map((p) => p.maturity),
    sorted.map((p) => toContinuous(p.rate, compounding)),
  );
  const asked = tenors?.length ? tenors : sorted.map((p) => p.maturity);
  if (asked.length > 500) fail(`at most 500 tenors are accepted (got ${asked.length}).`);
  return asked.map((tenor, i) => {
    positive(`tenors[${i}]`, tenor);
    return { tenor, zero: curve.zero(tenor), discountFactor: curve.discount(tenor), parYield: parYield(curve.discount, tenor, frequency) };
  });
}
