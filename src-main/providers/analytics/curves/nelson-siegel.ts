import { leastSquares } from '../numeric/least-squares';
import { goldenMin, nelderMead } from '../numeric/roots';
import { fail, finite, positive } from '../numeric/validate';

/**
 * Nelson & Siegel (1987) and Svensson (1994) yield curves, in the Diebold & Li (2006) form with
 * λ as a decay rate per year:
 *   y(τ) = β0 + β1·L1(λτ) + β2·L2(λτ) [+ β3·L2(λ2τ)],  L1(x) = (1 − e^{−x})/x,  L2(x) = L1(x) − e^{−x}.
 * β0 is the long rate, β0 + β1 the short rate, β2 (β3) the hump. Given λ the model is linear in
 * the betas, so the fit is a grid over λ with least squares for the betas, then a golden-section
 * refinement of λ around the best grid point: no starting values to guess, and fast.
 */

export interface NelsonSiegelParams {
  model: 'ns' | 'nss';
  beta0: number;
  beta1: number;
  beta2: number;
  lambda1: number;
  /** Svensson only. */
  beta3?: number;
  lambda2?: number;
}

export interface CurveFit {
  params: NelsonSiegelParams;
  /** Root mean squared error of the fit, in the units of the rates given. */
  rmse: number;
  /** Largest absolute residual. */
  maxError: number;
  residuals: number[];
}

/** (1 − e^{−x})/x, with its series near 0 where the formula loses digits. */
export function slopeLoading(x: number): number {
  if (Math.abs(x) < 1e-6) return 1 - x / 2 + (x * x) / 6;
  return -Math.expm1(-x) / x;
}

export function curvatureLoading(x: number): number {
  return slopeLoading(x) - Math.exp(-x);
}

/** The model's zero rate at maturity τ (years). */
export function nelsonSiegelYield(p: NelsonSiegelParams, tau: number): number {
  let y = p.beta0 + p.beta1 * slopeLoading(p.lambda1 * tau) + p.beta2 * curvatureLoading(p.lambda1 * tau);
  if (p.model === 'nss') y += (p.beta3 ?? 0) * curvatureLoading((p.lambda2 ?? 1) * tau);
  return y;
}

/** The model's instantaneous forward rate at τ: β0 + β1·e^{−λτ} + β2·λτ·e^{−λτ} [+ β3·λ2τ·e^{−λ2τ}]. */
export function nelsonSiegelForward(p: NelsonSiegelParams, tau: number): number {
  const e1 = Math.exp(-p.lambda1 * tau);
  let f = p.beta0 + p.beta1 * e1 + p.beta2 * p.lambda1 * tau * e1;
  if (p.model === 'nss') {
    const l2 = p.lambda2 ?? 1;
    f += (p.beta3 ?? 0) * l2 * tau * Math.exp(-l2 * tau);
  }
  return f;
}

// λ from 0.05 (hump near 36 years) to 5 (hump near 4 months), log-spaced.
const LAMBDA_MIN = 0.05;
const LAMBDA_MAX = 5;
const grid = (n: number) => Array.from({ length: n }, (_, i) => LAMBDA_MIN * (LAMBDA_MAX / LAMBDA_MIN) ** (i / (n - 1)));

interface Profile {
  ssr: number;
  beta: number[];
}

function profile(taus: readonly number[], ys: readonly number[], l1: number, l2?: number): Profile | null {
  const n = taus.length;
  const ones = new Float64Array(n).fill(1);
  const c1 = new Float64Array(n);
  const c2 = new Float64Array(n);
  const c3 = l2 === undefined ? null : new Float64Array(n);
  for (let i = 0; i < n; i++) {
    c1[i] = slopeLoading(l1 * taus[i]!);
    c2[i] = curvatureLoading(l1 * taus[i]!);
    if (c3) c3[i] = curvatureLoading(l2! * taus[i]!);
  }
  const fit = leastSquares(c3 ? [ones, c1, c2, c3] : [ones, c1, c2], ys);
  return fit ? { ssr: fit.ssr, beta: fit.beta } : null;
}

function checkPoints(taus: readonly number[], ys: readonly number[], min: number, model: string): void {
  if (taus.length !== ys.length) fail(`${taus.length} maturities and ${ys.length} rates; they must pair up.`);
  if (taus.length < min) fail(`a ${model} fit needs at least ${min} points (got ${taus.length}).`);
  if (taus.length > 2000) fail(`at most 2000 points can be fitted (got ${taus.length}).`);
  taus.forEach((t, i) => {
    positive(`maturity[${i}]`, t);
  });
  ys.forEach((y, i) => {
    finite(`rate[${i}]`, y);
    if (Math.abs(y) > 1) fail(`rate[${i}] is ${y}; give rates as decimals (0.05 = 5%).`);
  });
  if (new Set(taus).size < Math.min(min, taus.length)) fail(`a ${model} fit needs at least ${min} distinct maturities.`);
}

function finish(taus: readonly number[], ys: readonly number[], params: NelsonSiegelParams): CurveFit {
  const residuals = taus.map((t, i) => ys[i]! - nelsonSiegelYield(params, t));
  const rmse = Math.sqrt(residuals.reduce((s, r) => s + r * r, 0) / residuals.length);
  return { params, rmse, maxError: Math.max(...residuals.map(Math.abs)), residuals };
}

/** Nelson–Siegel fit of zero (or par) rates by maturity. */
export function fitNelsonSiegel(taus: readonly number[], ys: readonly number[]): CurveFit {
  checkPoints(taus, ys, 4, 'Nelson–Siegel');
  const lambdas = grid(41);
  let best = -1;
  let bestSsr = Infinity;
  for (let i = 0; i < lambdas.length; i++) {
    const p = profile(taus, ys, lambdas[i]!);
    if (p && p.ssr < bestSsr) {
      bestSsr = p.ssr;
      best = i;
    }
  }
  if (best < 0) fail('the Nelson–Siegel loadings are degenerate for these maturities; give more distinct maturities.');
  // Refine ln λ between the neighbouring grid points (the profile is smooth there).
  const lo = Math.log(lambdas[Math.max(0, best - 1)]!);
  const hi = Math.log(lambdas[Math.min(lambdas.length - 1, best + 1)]!);
  const m = goldenMin((u) => profile(taus, ys, Math.exp(u))?.ssr ?? Infinity, lo, hi, 1e-7);
  const lambda1 = Math.exp(m.x);
  const p = profile(taus, ys, lambda1)!;
  return finish(taus, ys, { model: 'ns', beta0: p.beta[0]!, beta1: p.beta[1]!, beta2: p.beta[2]!, lambda1 });
}

/**
 * Svensson fit: λ1 and λ2 over a grid (λ2 kept apart from λ1, else the two humps are the same
 * column and the betas are not identified), then a Nelder–Mead refinement of (ln λ1, ln λ2).
 */
export function fitSvensson(taus: readonly number[], ys: readonly number[]): CurveFit {
  checkPoints(taus, ys, 6, 'Svensson');
  const lambdas = grid(25);
  let best: { i: number; j: number; ssr: number } | null = null;
  for (let i = 0; i < lambdas.length; i++) {
    for (let j = 0; j < i - 2; j++) {
      const p = profile(taus, ys, lambdas[i]!, lambdas[j]!);
      if (p && (!best || p.ssr < best.ssr)) best = { i, j, ssr: p.ssr };
    }
  }
  if (!best) fail('the Svensson loadings are degenerate for these maturities; give more distinct maturities or fit Nelson–Siegel.');
  const step = Math.log(lambdas[1]! / lambdas[0]!);
  // λ2 stays at most λ1 / 1.5 so the two curvature columns remain distinct.
  const gap = Math.log(1.5);
  const m = nelderMead(
    ([a, b]) => (a! - b! < gap ? Infinity : (profile(taus, ys, Math.exp(a!), Math.exp(b!))?.ssr ?? Infinity)),
    [Math.log(lambdas[best.i]!), Math.log(lambdas[best.j]!)],
    step / 2,
    1e-9,
  );
  const [u1, u2] = m.x as [number, number];
  const p = profile(taus, ys, Math.exp(u1), Math.exp(u2));
  if (!p) fail('the Svensson fit is degenerate for these maturities; fit Nelson–Siegel instead.');
  return finish(taus, ys, {
    model: 'nss',
    beta0: p.beta[0]!,
    beta1: p.beta[1]!,
    beta2: p.beta[2]!,
    beta3: p.beta[3]!,
    lambda1: Math.exp(u1),
    lambda2: Math.exp(u2),
  });
}
