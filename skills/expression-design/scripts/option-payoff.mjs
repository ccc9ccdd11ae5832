#!/usr/bin/env node
// Payoff at expiry of an option structure, premium included. JSON in on stdin, JSON out on stdout.
//
// Input:
//   {"legs": [{"type": "call", "strike": 100, "premium": 3, "quantity": 1},
//             {"type": "call", "strike": 110, "premium": 1, "quantity": -1}],
//    "prices": [90, 100, 105, 120]          // optional; or "range": {"from": 80, "to": 130, "steps": 50}
//    "multiplier": 1}                        // optional contract multiplier / notional per unit
// quantity > 0 is long (premium paid), < 0 is short (premium received).
// {"type": "underlying", "entry": 100, "quantity": 1} adds a linear position (a covered call, a hedge).
// Output: net premium, a payoff table, exact breakevens, max profit / max loss ("unbounded" when so).
import { pathToFileURL } from 'node:url';

export class InputError extends Error {}

const num = (v, name) => {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new InputError(`"${name}" must be a finite number`);
  return v;
};

function parseLegs(legs) {
  if (!Array.isArray(legs) || legs.length === 0) throw new InputError('"legs" must be a non-empty list');
  if (legs.length > 50) throw new InputError('at most 50 legs');
  return legs.map((l, i) => {
    if (typeof l !== 'object' || l === null) throw new InputError(`legs[${i}] must be an object`);
    const type = l.type;
    const quantity = num(l.quantity ?? 1, `legs[${i}].quantity`);
    if (quantity === 0) throw new InputError(`legs[${i}].quantity must not be 0`);
    if (type === 'call' || type === 'put') {
      const strike = num(l.strike, `legs[${i}].strike`);
      if (strike < 0) throw new InputError(`legs[${i}].strike must not be negative`);
      const premium = num(l.premium ?? 0, `legs[${i}].premium`);
      if (premium < 0) throw new InputError(`legs[${i}].premium is a price and must not be negative; use a negative quantity to sell`);
      return { type, strike, premium, quantity };
    }
    if (type === 'underlying') return { type, entry: num(l.entry, `legs[${i}].entry`), quantity };
    throw new InputError(`legs[${i}].type must be "call", "put" or "underlying"`);
  });
}

export function legPayoff(leg, price) {
  if (leg.type === 'call') return leg.quantity * (Math.max(price - leg.strike, 0) - leg.premium);
  if (leg.type === 'put') return leg.quantity * (Math.max(leg.strike - price, 0) - leg.premium);
  return leg.quantity * (price - leg.entry);
}

export function optionPayoff(input) {
  if (typeof input !== 'object' || input === null) throw new InputError('input must be an object');
  const legs = parseLegs(input.legs);
  const multiplier = input.multiplier === undefined ? 1 : num(input.multiplier, 'multiplier');
  if (multiplier <= 0) throw new InputError('"multiplier" must be positive');
  const payoff = (s) => multiplier * legs.reduce((sum, l) => sum + legPayoff(l, s), 0);

  const kinks = [...new Set(legs.map((l) => (l.type === 'underlying' ? l.entry : l.strike)))].sort((a, b) => a - b);
  const top = Math.max(...kinks, 0);

  let prices;
  if (Array.isArray(input.prices)) {
    if (input.prices.length === 0 || input.prices.length > 2000) throw new InputError('"prices" must hold 1 to 2000 prices');
    prices = input.prices.map((p, i) => num(p, `prices[${i}]`));
  } else {
    const lo0 = Math.min(...kinks);
    const from = input.range ? num(input.range.from, 'range.from') : Math.max(0, lo0 * 0.8);
    const to = input.range ? num(input.range.to, 'range.to') : top * 1.2 || 1;
    const steps = input.range?.steps === undefined ? 20 : num(input.range.steps, 'range.steps');
    if (!(to > from) || from < 0) throw new InputError('"range" needs 0 <= from < to');
    if (!Number.isInteger(steps) || steps < 1 || steps > 2000) throw new InputError('"range.steps" must be an integer from 1 to 2000');
    prices = Array.from({ length: steps + 1 }, (_, i) => from + ((to - from) * i) / steps);
    prices.push(...kinks.filter((k) => k > from && k < to)); // show the payoff exactly at each strike
  }
  prices = [...new Set(prices.map((p) => +p.toPrecision(12)))].sort((a, b) => a - b);

  // Payoff is piecewise linear with kinks at the strikes: exact extremes sit at 0, a kink, or the right tail.
  const slopeRight = multiplier * legs.reduce((s, l) => s + (l.type === 'put' ? 0 : l.quantity), 0);
  const points = [0, ...kinks.filter((k) => k > 0)];
  const values = points.map(payoff);
  let maxProfit = Math.max(...values);
  let maxLoss = Math.min(...values);
  if (slopeRight > 1e-12) maxProfit = 'unbounded';
  if (slopeRight < -1e-12) maxLoss = 'unbounded';

  const breakevens = [];
  const add = (x) => {
    if (x >= 0 && !breakevens.some((b) => Math.abs(b - x) < 1e-9)) breakevens.push(x);
  };
  for (let i = 0; i < points.length; i++) {
    if (Math.abs(values[i]) < 1e-12) add(points[i]);
    if (i + 1 < points.length) {
      const [x0, x1, y0, y1] = [points[i], points[i + 1], values[i], values[i + 1]];
      if (y0 * y1 < 0) add(x0 + (-y0 * (x1 - x0)) / (y1 - y0));
    }
  }
  const lastX = points[points.length - 1];
  const lastY = values[values.length - 1];
  if (Math.abs(slopeRight) > 1e-12 && lastY * slopeRight < 0) add(lastX - lastY / slopeRight);
  breakevens.sort((a, b) => a - b);

  // Premium: positive = paid (debit), negative = received (credit).
  const netPremium = multiplier * legs.reduce((s, l) => s + (l.type === 'underlying' ? 0 : l.quantity * l.premium), 0);
  return {
    net_premium: netPremium,
    premium_side: netPremium > 0 ? 'debit' : netPremium < 0 ? 'credit' : 'zero',
    table: prices.map((price) => ({ price, payoff: payoff(price) })),
    breakevens,
    max_profit: maxProfit,
    max_loss: maxLoss,
    reward_to_risk: typeof maxProfit === 'number' && typeof maxLoss === 'number' && maxLoss < 0 ? maxProfit / -maxLoss : null,
  };
}

async function main() {
  let raw = '';
  for await (const chunk of process.stdin) raw += chunk;
  try {
    let input;
    try {
      input = JSON.parse(raw || 'null');
    } catch {
      throw new InputError('the input is not valid JSON');
    }
    process.stdout.write(JSON.stringify(optionPayoff(input)) + '\n');
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    process.stdout.write(JSON.stringify({ error: e.message }) + '\n');
    process.exitCode = 2;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
