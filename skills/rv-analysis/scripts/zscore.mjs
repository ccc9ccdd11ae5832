#!/usr/bin/env node
// Where a spread sits against its own history. JSON in on stdin, JSON out on stdout.
//
// Input, one of:
//   {"series": [1.2, 1.5, ...]}                          // a spread already computed (oldest first)
//   {"a": [...], "b": [...], "hedge_ratio": 1.0}         // spread = a − hedge_ratio · b
//   {"a": [...], "b": [...], "hedge_ratio": "ols"}       // hedge ratio fitted by least squares of a on b
// Options: "lookback" (use only the last N points), "entry_z" (default 2: the stretch that counts as a signal).
// Output: mean, sample stdev, current value, z-score, percentile, and AR(1) mean-reversion half-life.
import { pathToFileURL } from 'node:url';

export class InputError extends Error {}

const numbers = (v, name) => {
  if (!Array.isArray(v)) throw new InputError(`"${name}" must be a list of numbers`);
  if (v.length > 100000) throw new InputError(`"${name}" is longer than 100000 points`);
  return v.map((x, i) => {
    if (typeof x !== 'number' || !Number.isFinite(x)) throw new InputError(`${name}[${i}] is not a finite number`);
    return x;
  });
};

const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** Least squares y = intercept + slope · x; slope is null when x does not vary. */
export function ols(x, y) {
  const mx = mean(x);
  const my = mean(y);
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < x.length; i++) {
    sxx += (x[i] - mx) ** 2;
    sxy += (x[i] - mx) * (y[i] - my);
  }
  if (sxx === 0) return { slope: null, intercept: null };
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx };
}

/** AR(1) fit s_t = c + φ·s_{t−1}; half-life of a deviation = ln(0.5) / ln|φ| when |φ| < 1. */
export function ar1(series) {
  if (series.length < 3) return { phi: null, intercept: null, half_life: null, mean_reverting: false };
  const { slope, intercept } = ols(series.slice(0, -1), series.slice(1));
  if (slope === null) return { phi: null, intercept: null, half_life: null, mean_reverting: false };
  const reverting = Math.abs(slope) < 1 && slope !== 0;
  return {
    phi: slope,
    intercept,
    half_life: reverting ? Math.log(0.5) / Math.log(Math.abs(slope)) : slope === 0 ? 0 : null,
    mean_reverting: reverting || slope === 0,
    oscillating: slope < 0,
  };
}

export function zscore(input) {
  if (typeof input !== 'object' || input === null) throw new InputError('input must be an object');
  let series;
  let hedgeRatio = null;
  if (input.series !== undefined) {
    series = numbers(input.series, 'series');
  } else if (input.a !== undefined && input.b !== undefined) {
    let a = numbers(input.a, 'a');
    let b = numbers(input.b, 'b');
    if (a.length !== b.length) throw new InputError(`"a" has ${a.length} points and "b" has ${b.length}; they must align`);
    if (Number.isInteger(input.lookback) && input.lookback > 0) {
      a = a.slice(-input.lookback);
      b = b.slice(-input.lookback);
    }
    if (input.hedge_ratio === 'ols') {
      if (a.length < 3) throw new InputError('fitting a hedge ratio needs at least 3 points');
      hedgeRatio = ols(b, a).slope;
      if (hedgeRatio === null) throw new InputError('"b" does not move over the window, so no hedge ratio can be fitted');
    } else if (input.hedge_ratio === undefined) hedgeRatio = 1;
    else if (typeof input.hedge_ratio === 'number' && Number.isFinite(input.hedge_ratio)) hedgeRatio = input.hedge_ratio;
    else throw new InputError('"hedge_ratio" must be a number or "ols"');
    series = a.map((x, i) => x - hedgeRatio * b[i]);
  } else {
    throw new InputError('give either "series" or both "a" and "b"');
  }
  if (input.lookback !== undefined) {
    if (!Number.isInteger(input.lookback) || input.lookback < 3) throw new InputError('"lookback" must be an integer of at least 3');
    series = series.slice(-input.lookback);
  }
  if (series.length < 3) throw new InputError(`need at least 3 observations; got ${series.length}`);
  const entryZ = input.entry_z === undefined ? 2 : input.entry_z;
  if (typeof entryZ !== 'number' || !(entryZ > 0)) throw new InputError('"entry_z" must be a positive number');

  const m = mean(series);
  const sd = Math.sqrt(series.reduce((s, x) => s + (x - m) ** 2, 0) / (series.length - 1));
  const current = series[series.length - 1];
  const z = sd > 0 ? (current - m) / sd : null;
  const atOrBelow = series.filter((x) => x <= current).length;
  const fit = ar1(series);
  const out = {
    n: series.length,
    hedge_ratio: hedgeRatio,
    mean: m,
    stdev: sd,
    min: Math.min(...series),
    max: Math.max(...series),
    current,
    z,
    percentile: (100 * atOrBelow) / series.length,
    ar1: fit,
    stretched: z !== null && Math.abs(z) >= entryZ,
    direction: z === null ? 'flat' : z > 0 ? 'above mean' : z < 0 ? 'below mean' : 'at mean',
    notes: [],
  };
  if (sd === 0) out.notes.push('The spread never moved over the window; a z-score is meaningless.');
  if (!fit.mean_reverting) out.notes.push('AR(1) shows no mean reversion over this window (phi >= 1): a stretched z may keep stretching.');
  if (series.length < 60) out.notes.push(`Only ${series.length} observations: treat the z-score and half-life as rough.`);
  return out;
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
    process.stdout.write(JSON.stringify(zscore(input)) + '\n');
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    process.stdout.write(JSON.stringify({ error: e.message }) + '\n');
    process.exitCode = 2;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
