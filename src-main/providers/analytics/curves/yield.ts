import { brentRoot } from '../numeric/roots';
import { fail, finite, positive, show } from '../numeric/validate';
import { type BondInput, bondCashFlows } from './bootstrap';
import { bondRisk, type YieldCompounding } from './bond-risk';

/**
 * Yield to maturity of a fixed-coupon bond, and its price from a yield, in the street convention
 * (the one Bloomberg's YAS "street" yield and Excel's YIELD/PRICE use):
 *   dirty = Σ CF_i / (1 + y/f)^{f·t_i},  clean = dirty − accrued,  accrued = 100·(c/f)·(1 − f·t_1),
 * where f is the coupon frequency (the yield compounds at it), t_i are the cash-flow times in years
 * from settlement, coupons fall every 1/f years counted back from maturity, and t_1 is the time to
 * the next coupon. Time is whatever year fraction the maturity was given in: count it 30/360 to
 * match a 30/360 bond, ACT/ACT for Treasuries; accrued interest is linear within the period.
 */

export interface BondTerms {
  /** Years from settlement to maturity. */
  maturity: number;
  /** Annual coupon, decimal. */
  coupon: number;
  /** Coupons a year (default 2). */
  frequency?: 1 | 2 | 4 | 12;
}

export interface BondYield {
  /** Yield compounded at the coupon frequency (the quoted yield). */
  yield: number;
  /** The same yield continuously compounded: f·ln(1 + y/f). */
  yieldContinuous: number;
  /** The same yield compounded once a year: (1 + y/f)^f − 1. */
  yieldAnnual: number;
  cleanPrice: number;
  dirtyPrice: number;
  accrued: number;
  /** Years to the next coupon. */
  nextCoupon: number;
  macaulayDuration: number;
  modifiedDuration: number;
  /** Price change per 100 face for a 1bp fall in yield. */
  dv01: number;
  convexity: number;
  iterations: number;
}

const COMPOUNDING: Record<number, YieldCompounding> = { 1: 'annual', 2: 'semiannual', 4: 'quarterly', 12: 'monthly' };

function terms(b: BondTerms): Required<BondTerms> {
  positive('maturity', b.maturity);
  if (b.maturity > 100) fail(`maturity is ${b.maturity} years; give it in years (0.5 = six months).`);
  const c = finite('coupon', b.coupon);
  if (c < 0 || c > 1) fail(`coupon is ${c}; give it as a decimal between 0 and 1 (0.04 = 4%).`);
  const frequency = b.frequency ?? 2;
  if (!COMPOUNDING[frequency]) fail(`frequency must be 1, 2, 4 or 12 coupons a year (got ${String(b.frequency)}).`);
  return { maturity: b.maturity, coupon: c, frequency };
}

/** Accrued interest per 100 face at settlement, and the time to the next coupon. */
export function accruedInterest(b: BondTerms): { accrued: number; nextCoupon: number } {
  const t = terms(b);
  const first = bondCashFlows(t)[0]!.time;
  const period = 1 / t.frequency;
  // A settlement on a coupon date (within rounding of the schedule) accrues nothing.
  const fraction = first >= period - 1e-9 ? 0 : 1 - first / period;
  return { accrued: (100 * t.coupon * fraction) / t.frequency, nextCoupon: first };
}

/** Dirty price per 100 face at yield y (compounded at the coupon frequency). */
export function dirtyPriceFromYield(b: BondTerms, y: number): number {
  const t = terms(b);
  const g = 1 + y / t.frequency;
  if (!(g > 0)) fail(`a yield of ${y} compounded ${t.frequency} times a year is below −100%.`);
  let pv = 0;
  for (const cf of bondCashFlows(t)) pv += cf.amount * g ** (-t.frequency * cf.time);
  return pv;
}

function analyse(t: Required<BondTerms>, y: number, iterations: number): BondYield {
  const { accrued, nextCoupon } = accruedInterest(t);
  const dirty = dirtyPriceFromYield(t, y);
  const risk = bondRisk(t as BondInput, y, COMPOUNDING[t.frequency]!);
  const f = t.frequency;
  return {
    yield: y,
    yieldContinuous: f * Math.log1p(y / f),
    yieldAnnual: Math.expm1(f * Math.log1p(y / f)),
    cleanPrice: dirty - accrued,
    dirtyPrice: dirty,
    accrued,
    nextCoupon,
    macaulayDuration: risk.macaulayDuration,
    modifiedDuration: risk.modifiedDuration,
    dv01: risk.dv01,
    convexity: risk.convexity,
    iterations,
  };
}

/** The bond's price (clean and dirty) and risk at a given yield. */
export function priceFromYield(b: BondTerms, y: number): BondYield {
  const t = terms(b);
  finite('yield', y);
  if (Math.abs(y) > 1) fail(`yield is ${y}; give it as a decimal (0.05 = 5%).`);
  return analyse(t, y, 0);
}

/** Yield to maturity from a clean (quoted) or dirty price per 100 face. */
export function yieldFromPrice(b: BondTerms, price: number, kind: 'clean' | 'dirty' = 'clean'): BondYield {
  const t = terms(b);
  positive(`${kind} price`, price);
  const dirty = kind === 'clean' ? price + accruedInterest(t).accrued : price;
  // Price falls strictly as the yield rises, so the root is unique. The bracket spans −99% to
  // 100%: a price outside it is a typo (a price per 1 instead of per 100) or a defaulted bond.
  const lo = -0.99;
  const hi = 1;
  const r = brentRoot((y) => dirtyPriceFromYield(t, y) - dirty, lo, hi, 1e-15);
  if (!r) {
    const shift = kind === 'clean' ? accruedInterest(t).accrued : 0;
    const cheapest = dirtyPriceFromYield(t, hi) - shift;
    const dearest = dirtyPriceFromYield(t, lo) - shift;
    fail(
      `a ${kind} price of ${show(price)} implies a yield outside −99% to 100% (${kind} prices from ${show(cheapest)} to ${show(dearest)} do); give the price per 100 face.`,
    );
  }
  return analyse(t, r.root, r.iterations);
}
