import { fail, finite } from '../numeric/validate';

/**
 * Interpolation on a curve's nodes. Both methods pass through every node and extrapolate flat
 * (a curve is not extended beyond what the instruments say). Monotone cubic is Fritsch & Carlson
 * (1980) with Hyman's (1983) filter: on monotone data it never overshoots, so a rising curve
 * never shows a spurious dip (and forwards built from it stay well behaved).
 */

export type Interpolator = (x: number) => number;
export type InterpolationMethod = 'linear' | 'monotone_cubic';

function checkNodes(xs: readonly number[], ys: readonly number[]): void {
  if (xs.length !== ys.length) fail(`the curve has ${xs.length} maturities and ${ys.length} values; they must pair up.`);
  if (xs.length < 1) fail('the curve needs at least one node.');
  for (let i = 0; i < xs.length; i++) {
    finite(`maturity[${i}]`, xs[i]);
    finite(`value[${i}]`, ys[i]);
    if (i > 0 && !(xs[i]! > xs[i - 1]!)) fail(`maturities must increase strictly (maturity[${i}] = ${xs[i]} follows ${xs[i - 1]}).`);
  }
}

/** Index of the segment [xs[i], xs[i+1]] holding x (binary search); x is inside the node range. */
function segment(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! <= x) lo = mid;
    else hi = mid;
  }
  return lo;
}

export function linearInterpolator(xs: readonly number[], ys: readonly number[]): Interpolator {
  checkNodes(xs, ys);
  const n = xs.length;
  return (x) => {
    if (x <= xs[0]!) return ys[0]!;
    if (x >= xs[n - 1]!) return ys[n - 1]!;
    const i = segment(xs, x);
    const w = (x - xs[i]!) / (xs[i + 1]! - xs[i]!);
    return ys[i]! + w * (ys[i + 1]! - ys[i]!);
  };
}

/** Hermite slopes: three-point averages, zero at local extrema, clipped by Hyman's bound |m| ≤ 3·min|δ|. */
export function monotoneSlopes(xs: readonly number[], ys: readonly number[]): number[] {
  const n = xs.length;
  if (n < 2) return [0];
  const delta: number[] = [];
  for (let i = 0; i < n - 1; i++) delta.push((ys[i + 1]! - ys[i]!) / (xs[i + 1]! - xs[i]!));
  const m: number[] = new Array(n);
  m[0] = delta[0]!;
  m[n - 1] = delta[n - 2]!;
  for (let i = 1; i < n - 1; i++) {
    const a = delta[i - 1]!;
    const b = delta[i]!;
    if (a * b <= 0) m[i] = 0;
    else {
      const h0 = xs[i]! - xs[i - 1]!;
      const h1 = xs[i + 1]! - xs[i]!;
      // Three-point slope weighted by the spacings (exact for a parabola through the nodes).
      const s = (h1 * a + h0 * b) / (h0 + h1);
      const bound = 3 * Math.min(Math.abs(a), Math.abs(b));
      m[i] = Math.sign(s) * Math.min(Math.abs(s), bound);
    }
  }
  // Ends: one-sided slope, clipped the same way.
  for (const [i, d] of [
    [0, delta[0]!],
    [n - 1, delta[n - 2]!],
  ] as const) {
    if (m[i]! * d <= 0) m[i] = 0;
    else m[i] = Math.sign(d) * Math.min(Math.abs(m[i]!), 3 * Math.abs(d));
  }
  return m;
}

export function monotoneCubicInterpolator(xs: readonly number[], ys: readonly number[]): Interpolator {
  checkNodes(xs, ys);
  const n = xs.length;
  if (n === 1) return () => ys[0]!;
  const m = monotoneSlopes(xs, ys);
  return (x) => {
    if (x <= xs[0]!) return ys[0]!;
    if (x >= xs[n - 1]!) return ys[n - 1]!;
    const i = segment(xs, x);
    const h = xs[i + 1]! - xs[i]!;
    const t = (x - xs[i]!) / h;
    const t2 = t * t;
    const t3 = t2 * t;
    return (2 * t3 - 3 * t2 + 1) * ys[i]! + (t3 - 2 * t2 + t) * h * m[i]! + (-2 * t3 + 3 * t2) * ys[i + 1]! + (t3 - t2) * h * m[i + 1]!;
  };
}

export function interpolator(method: InterpolationMethod, xs: readonly number[], ys: readonly number[]): Interpolator {
  return method === 'linear' ? linearInterpolator(xs, ys) : monotoneCubicInterpolator(xs, ys);
}
