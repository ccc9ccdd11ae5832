import { fail, finite, nonNegative, positive } from '../numeric/validate';

/**
 * Payoff at expiry of an option strategy: each leg a call, put or the underlying itself, with a
 * signed quantity and the premium paid per unit. The total is piecewise linear with kinks at the
 * strikes, so breakevens, the maximum profit and loss, and whether either is unbounded are exact.
 */

export interface PayoffLeg {
  kind: 'call' | 'put' | 'underlying';
  /** Strike (options) or entry price (underlying). */
  strike: number;
  /** Signed: positive long, negative short. */
  quantity: number;
  /** Premium per unit paid (long) or received (short); 0 for the underlying. */
  premium?: number;
}

export interface PayoffRow {
  price: number;
  legs: number[];
  total: number;
}

export interface PayoffTable {
  rows: PayoffRow[];
  /** Premium paid (positive) or received (negative) for the whole structure, times the multiplier. */
  netPremium: number;
  breakevens: number[];
  /** Number, or 'unbounded'. */
  maxProfit: number | 'unbounded';
  maxLoss: number | 'unbounded';
}

function legPayoff(leg: PayoffLeg, s: number): number {
  const intrinsic = leg.kind === 'call' ? Math.max(s - leg.strike, 0) : leg.kind === 'put' ? Math.max(leg.strike - s, 0) : s - leg.strike;
  return leg.quantity * (intrinsic - (leg.premium ?? 0));
}

export function payoffTable(legs: readonly PayoffLeg[], prices?: readonly number[], multiplier = 1): PayoffTable {
  if (!Array.isArray(legs) || legs.length === 0) fail('a payoff table needs at least one leg.');
  if (legs.length > 20) fail(`at most 20 legs (got ${legs.length}).`);
  legs.forEach((l, i) => {
    if (!['call', 'put', 'underlying'].includes(l.kind)) fail(`legs[${i}].kind must be call, put or underlying (got ${String(l.kind)}).`);
    positive(`legs[${i}].strike`, l.strike);
    finite(`legs[${i}].quantity`, l.quantity);
    if (l.quantity === 0) fail(`legs[${i}].quantity is 0; drop the leg or give a signed size.`);
    if (l.premium !== undefined) nonNegative(`legs[${i}].premium`, l.premium);
  });
  positive('multiplier', multiplier);
  const strikes = [...new Set(legs.map((l) => l.strike))].sort((a, b) => a - b);
  let grid: number[];
  if (prices?.length) {
    if (prices.length > 500) fail(`at most 500 prices (got ${prices.length}).`);
    grid = prices.map((p, i) => nonNegative(`prices[${i}]`, p));
  } else {
    // Zero, the strikes, and an even spread out to twice the highest strike.
    const top = 2 * strikes[strikes.length - 1]!;
    grid = [...new Set([0, ...strikes, ...Array.from({ length: 21 }, (_, i) => (top * i) / 20)])].sort((a, b) => a - b);
  }
  const total = (s: number) => multiplier * legs.reduce((sum, l) => sum + legPayoff(l, s), 0);
  const rows = grid.map((price) => ({ price, legs: legs.map((l) => multiplier * legPayoff(l, price)), total: total(price) }));

  // Exact analysis on the kinks: value at 0 and each strike, and the slope beyond the last strike.
  const kinks = [0, ...strikes.filter((k) => k > 0)];
  const values = kinks.map(total);
  const slopeRight = multiplier * legs.reduce((s, l) => s + (l.kind === 'put' ? 0 : l.quantity), 0);
  const breakevens: number[] = [];
  const push = (x: number) => {
    const r = Math.round(x * 1e10) / 1e10;
    if (!breakevens.some((b) => Math.abs(b - r) < 1e-9)) breakevens.push(r);
  };
  for (let i = 0; i < kinks.length; i++) {
    const a = values[i]!;
    if (a === 0 && i > 0) push(kinks[i]!);
    if (i + 1 < kinks.length) {
      const b = values[i + 1]!;
      if (a * b < 0) push(kinks[i]! + ((kinks[i + 1]! - kinks[i]!) * -a) / (b - a));
      else if (b === 0) push(kinks[i + 1]!);
    }
  }
  if (values[0] === 0) push(0);
  const last = values[values.length - 1]!;
  if (slopeRight !== 0 && last * slopeRight < 0) push(kinks[kinks.length - 1]! - last / slopeRight);
  breakevens.sort((a, b) => a - b);
  const maxProfit = slopeRight > 0 ? 'unbounded' : Math.max(...values);
  const maxLoss = slopeRight < 0 ? 'unbounded' : Math.min(...values);
  const netPremium = multiplier * legs.reduce((s, l) => s + l.quantity * (l.premium ?? 0), 0);
  return { rows, netPremium, breakevens, maxProfit, maxLoss };
}
