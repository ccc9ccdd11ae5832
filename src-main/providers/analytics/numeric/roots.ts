/**
 * Scalar root finding and minimisation used across the library: Brent's method (bracketing,
 * superlinear, never leaves the bracket) and golden-section search for one-dimensional minima.
 */

export interface RootResult {
  root: number;
  iterations: number;
}

/**
 * Brent (1973) root of f in [a, b], where f(a) and f(b) differ in sign. Returns null when they
 * do not (the caller turns that into an error a user can act on).
 */
export function brentRoot(f: (x: number) => number, a: number, b: number, xtol = 1e-14, maxIter = 200): RootResult | null {
  let fa = f(a);
  let fb = f(b);
  if (fa === 0) return { root: a, iterations: 0 };
  if (fb === 0) return { root: b, iterations: 0 };
  if (Number.isNaN(fa) || Number.isNaN(fb) || fa * fb > 0) return null;
  let c = a;
  let fc = fa;
  let d = b - a;
  let e = d;
  for (let i = 1; i <= maxIter; i++) {
    if (fb * fc > 0) {
      c = a;
      fc = fa;
      d = b - a;
      e = d;
    }
    if (Math.abs(fc) < Math.abs(fb)) {
      a = b;
      b = c;
      c = a;
      fa = fb;
      fb = fc;
      fc = fa;
    }
    const tol = 2 * Number.EPSILON * Math.abs(b) + 0.5 * xtol;
    const m = 0.5 * (c - b);
    if (Math.abs(m) <= tol || fb === 0) return { root: b, iterations: i };
    if (Math.abs(e) >= tol && Math.abs(fa) > Math.abs(fb)) {
      // Inverse quadratic interpolation, or the secant when only two points are distinct.
      const s = fb / fa;
      let p: number;
      let q: number;
      if (a === c) {
        p = 2 * m * s;
        q = 1 - s;
      } else {
        const qa = fa / fc;
        const r = fb / fc;
        p = s * (2 * m * qa * (qa - r) - (b - a) * (r - 1));
        q = (qa - 1) * (r - 1) * (s - 1);
      }
      if (p > 0) q = -q;
      else p = -p;
      if (2 * p < Math.min(3 * m * q - Math.abs(tol * q), Math.abs(e * q))) {
        e = d;
        d = p / q;
      } else {
        d = m;
        e = m;
      }
    } else {
      d = m;
      e = m;
    }
    a = b;
    fa = fb;
    b += Math.abs(d) > tol ? d : m > 0 ? tol : -tol;
    fb = f(b);
  }
  return { root: b, iterations: maxIter };
}

/** Golden-section search for the minimum of a unimodal f on [a, b]. */
export function goldenMin(f: (x: number) => number, a: number, b: number, xtol = 1e-9, maxIter = 200): { x: number; value: number } {
  const g = (Math.sqrt(5) - 1) / 2;
  let x1 = b - g * (b - a);
  let x2 = a + g * (b - a);
  let f1 = f(x1);
  let f2 = f(x2);
  for (let i = 0; i < maxIter && Math.abs(b - a) > xtol; i++) {
    if (f1 <= f2) {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = b - g * (b - a);
      f1 = f(x1);
    } else {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + g * (b - a);
      f2 = f(x2);
    }
  }
  return f1 <= f2 ? { x: x1, value: f1 } : { x: x2, value: f2 };
}

/**
 * Nelder–Mead simplex minimisation (Nelder & Mead, 1965) with the standard coefficients
 * (reflection 1, expansion 2, contraction ½, shrink ½). For small, smooth problems where
 * derivatives are not at hand; f may return Infinity to fence off a region.
 */
export function nelderMead(
  f: (x: number[]) => number,
  start: number[],
  step: number,
  xtol = 1e-10,
  maxIter = 2000,
): { x: number[]; value: number; iterations: number } {
  const n = start.length;
  let simplex = [start, ...start.map((_, i) => start.map((v, j) => (i === j ? v + step : v)))].map((x) => ({ x, v: f(x) }));
  let it = 0;
  for (; it < maxIter; it++) {
    simplex.sort((a, b) => a.v - b.v);
    const best = simplex[0]!;
    const worst = simplex[n]!;
    let size = 0;
    for (const p of simplex) for (let j = 0; j < n; j++) size = Math.max(size, Math.abs(p.x[j]! - best.x[j]!));
    if (size <= xtol) break;
    const centroid = Array.from({ length: n }, (_, j) => simplex.slice(0, n).reduce((s, p) => s + p.x[j]!, 0) / n);
    const along = (t: number) => centroid.map((c, j) => c + t * (worst.x[j]! - c));
    const r = along(-1);
    const fr = f(r);
    if (fr < best.v) {
      const e = along(-2);
      const fe = f(e);
      simplex[n] = fe < fr ? { x: e, v: fe } : { x: r, v: fr };
    } else if (fr < simplex[n - 1]!.v) simplex[n] = { x: r, v: fr };
    else {
      const c = fr < worst.v ? along(-0.5) : along(0.5);
      const fcv = f(c);
      if (fcv < Math.min(fr, worst.v)) simplex[n] = { x: c, v: fcv };
      else simplex = simplex.map((p, i) => (i === 0 ? p : ((x) => ({ x, v: f(x) }))(p.x.map((v, j) => best.x[j]! + 0.5 * (v - best.x[j]!)))));
    }
  }
  simplex.sort((a, b) => a.v - b.v);
  return { x: simplex[0]!.x, value: simplex[0]!.v, iterations: it };
}
