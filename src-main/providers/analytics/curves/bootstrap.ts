import { brentRoot } from '../numeric/roots';
import { fail, finite, positive, show } from '../numeric/validate';

/**
 * Zero rates from bond prices by bootstrapping (Hull, *Options, Futures, and Other Derivatives*,
 * §4.5): instruments in maturity order, each solved for the one zero rate at its maturity that
 * reprices it given the rates already found. Zero rates are interpolated linearly (continuous
 * compounding) between nodes and held flat before the first, both while solving and when pricing,
 * so every input bond reprices exactly.
 */

export interface BondInput {
  /** Years to maturity. */
  maturity: number;
  /** Annual coupon as a decimal (0.04 = 4%); 0 for a zero-coupon bill. */
  coupon: number;
  /** Full (dirty) price per 100 face. Omitted: a par bond (price 100), so `coupon` is the par yield. */
  price?: number;
  /** Coupons per year (default 2). */
  frequency?: number;
}

export interface CashFlow {
  time: number;
  amount: number;
}

export interface ZeroNode {
  maturity: number;
  /** Continuously compounded zero rate. */
  zeroContinuous: number;
  /** The same rate with annual compounding: e^r − 1. */
  zeroAnnual: number;
  discountFactor: number;
}

export interface ZeroCurve {
  nodes: ZeroNode[];
  /** Continuously compounded zero rate at time t (linear between nodes, flat outside). */
  zero(t: number): number;
  discount(t: number): number;
  /** Continuously compounded forward rate between t1 and t2. */
  forward(t1: number, t2: number): number;
}

const FREQUENCIES = [1, 2, 4, 12];

/** The cash flows of a bond per 100 face: coupons back from maturity every 1/frequency years. */
export function bondCashFlows(bond: BondInput): CashFlow[] {
  const frequency = bond.frequency ?? 2;
  const flows: CashFlow[] = [];
  if (bond.coupon === 0) return [{ time: bond.maturity, amount: 100 }];
  const c = (100 * bond.coupon) / frequency;
  // Times are computed from maturity so a 30-year bond does not accumulate rounding.
  for (let k = 0; ; k++) {
    const t = bond.maturity - k / frequency;
    if (t <= 1e-9) break;
    flows.push({ time: t, amount: k === 0 ? 100 + c : c });
  }
  return flows.reverse();
}

function checkBond(b: BondInput, i: number): void {
  const where = `bonds[${i}]`;
  positive(`${where}.maturity`, b.maturity);
  const c = finite(`${where}.coupon`, b.coupon);
  if (c < 0) fail(`${where}.coupon must not be negative (got ${c}).`);
  if (c > 1) fail(`${where}.coupon is ${c}; give it as a decimal (0.04 = 4%).`);
  if (b.price !== undefined) positive(`${where}.price`, b.price);
  if (b.frequency !== undefined && !FREQUENCIES.includes(b.frequency))
    fail(`${where}.frequency must be one of ${FREQUENCIES.join(', ')} coupons a year (got ${b.frequency}).`);
}

/** A zero curve from nodes (maturities increasing, continuous rates). */
export function zeroCurve(maturities: readonly number[], zeros: readonly number[]): ZeroCurve {
  const n = maturities.length;
  const zero = (t: number): number => {
    if (t <= maturities[0]!) return zeros[0]!;
    if (t >= maturities[n - 1]!) return zeros[n - 1]!;
    let lo = 0;
    let hi = n - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (maturities[mid]! <= t) lo = mid;
      else hi = mid;
    }
    const w = (t - maturities[lo]!) / (maturities[hi]! - maturities[lo]!);
    return zeros[lo]! + w * (zeros[hi]! - zeros[lo]!);
  };
  const discount = (t: number) => Math.exp(-zero(t) * t);
  return {
    nodes: maturities.map((m, i) => ({ maturity: m, zeroContinuous: zeros[i]!, zeroAnnual: Math.expm1(zeros[i]!), discountFactor: Math.exp(-zeros[i]! * m) })),
    zero,
    discount,
    forward: (t1, t2) => {
      if (!(t2 > t1) || t1 < 0) fail(`a forward rate needs 0 ≤ t1 < t2 (got ${t1}, ${t2}).`);
      return (zero(t2) * t2 - zero(t1) * t1) / (t2 - t1);
    },
  };
}

/** Price per 100 face of a bond on a curve. */
export function priceBond(curve: ZeroCurve, bond: BondInput): number {
  let pv = 0;
  for (const f of bondCashFlows(bond)) pv += f.amount * curve.discount(f.time);
  return pv;
}

export function bootstrapZeroCurve(bonds: readonly BondInput[]): ZeroCurve {
  if (!Array.isArray(bonds) || bonds.length === 0) fail('bootstrap needs at least one bond.');
  if (bonds.length > 200) fail(`bootstrap takes at most 200 bonds (got ${bonds.length}).`);
  bonds.forEach(checkBond);
  const sorted = [...bonds].sort((a, b) => a.maturity - b.maturity);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.maturity - sorted[i - 1]!.maturity < 1e-9) fail(`two bonds mature at ${sorted[i]!.maturity} years; give one instrument per maturity.`);
  }
  const maturities: number[] = [];
  const zeros: number[] = [];
  for (const bond of sorted) {
    const T = bond.maturity;
    const price = bond.price ?? 100;
    const flows = bondCashFlows(bond);
    const last = maturities.length ? maturities[maturities.length - 1]! : 0;
    const lastZero = zeros.length ? zeros[zeros.length - 1]! : 0;
    // Flows up to the last node are priced off the curve found so far; the rest depend on the new rate.
    let known = 0;
    const open: CashFlow[] = [];
    if (maturities.length) {
      const sofar = zeroCurve(maturities, zeros);
      for (const f of flows) {
        if (f.time <= last) known += f.amount * sofar.discount(f.time);
        else open.push(f);
      }
    } else open.push(...flows);
    const mismatch = (r: number) => {
      let pv = known;
      for (const f of open) {
        const z = maturities.length ? lastZero + ((f.time - last) / (T - last)) * (r - lastZero) : r;
        pv += f.amount * Math.exp(-z * f.time);
      }
      return pv - price;
    };
    const solved = brentRoot(mismatch, -1, 2, 1e-15);
    if (!solved) {
      fail(
        `no zero rate between −100% and 200% reprices the ${show(T)}-year bond (coupon ${show(bond.coupon * 100)}%, price ${show(price)}); ` +
          `check its price against the shorter bonds (their coupons alone are worth ${show(known)}).`,
      );
    }
    maturities.push(T);
    zeros.push(solved.root);
  }
  return zeroCurve(maturities, zeros);
}
