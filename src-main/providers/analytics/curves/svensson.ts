import { fail, finite, positive } from '../numeric/validate';
import { type NelsonSiegelParams, nelsonSiegelForward, nelsonSiegelYield } from './nelson-siegel';
import { forwardParYield, parYield } from './par-yield';

/**
 * A Svensson (1994) curve from its six parameters, in the form the Federal Reserve's
 * Gürkaynak–Sack–Wright (2007) dataset publishes them (BETA0..BETA3, TAU1, TAU2):
 *   y(n) = β0 + β1·(1 − e^{−n/τ1})/(n/τ1) + β2·[(1 − e^{−n/τ1})/(n/τ1) − e^{−n/τ1}]
 *             + β3·[(1 − e^{−n/τ2})/(n/τ2) − e^{−n/τ2}]                  (continuous zero yield)
 *   f(n) = β0 + β1·e^{−n/τ1} + β2·(n/τ1)·e^{−n/τ1} + β3·(n/τ2)·e^{−n/τ2}    (instantaneous forward)
 * Par yields and forward par yields follow from the discount function P(n) = e^{−y(n)·n} with
 * semiannual coupons (GSW's SVENPY and SVEN1F columns, "coupon-equivalent"). τ = 1/λ of the
 * Diebold–Li form used by the fitter. On days GSW fitted plain Nelson–Siegel, β3 is 0 and τ2 is
 * a placeholder (−999.99): with β3 = 0, τ2 is ignored.
 */

export interface SvenssonParams {
  beta0: number;
  beta1: number;
  beta2: number;
  beta3: number;
  /** Years. */
  tau1: number;
  /** Years; ignored when beta3 is 0. */
  tau2: number;
}

export interface SvenssonCurve {
  zero(n: number): number;
  forward(n: number): number;
  discount(n: number): number;
  parYield(n: number, frequency?: number): number;
  /** Par yield of a bond starting in `start` years and running `length` years. */
  forwardParYield(start: number, length: number, frequency?: number): number;
}

export function svenssonCurve(p: SvenssonParams): SvenssonCurve {
  (['beta0', 'beta1', 'beta2', 'beta3'] as const).forEach((k) => {
    finite(k, p[k]);
  });
  // β0 is the long rate and β0 + β1 the short rate: rates, so beyond ±100% they are percent typed
  // as decimals (GSW's BETA0 of 3.9 is 0.039 here). β2 and β3 are left free: when τ1 ≈ τ2 GSW's
  // fits carry large offsetting humps (1987: β2 −6.2, β3 +6.2) that are real.
  if (Math.abs(p.beta0) > 1 || Math.abs(p.beta0 + p.beta1) > 1)
    fail(
      `the long rate β0 = ${p.beta0} or short rate β0 + β1 = ${p.beta0 + p.beta1} is beyond ±100%; give the betas as decimals (GSW's BETA0 of 3.9 is 0.039).`,
    );
  positive('tau1', p.tau1);
  if (p.beta3 !== 0) positive('tau2', p.tau2);
  const ns: NelsonSiegelParams = {
    model: p.beta3 === 0 ? 'ns' : 'nss',
    beta0: p.beta0,
    beta1: p.beta1,
    beta2: p.beta2,
    lambda1: 1 / p.tau1,
    ...(p.beta3 === 0 ? {} : { beta3: p.beta3, lambda2: 1 / p.tau2 }),
  };
  const zero = (n: number) => nelsonSiegelYield(ns, positive('maturity', n));
  // P(0) = 1 exactly (the zero yield has a finite limit there).
  const discount = (n: number) => (n === 0 ? 1 : Math.exp(-zero(n) * n));
  return {
    zero,
    forward: (n) => nelsonSiegelForward(ns, finite('maturity', n)),
    discount,
    parYield: (n, frequency = 2) => parYield(discount, n, frequency),
    forwardParYield: (start, length, frequency = 2) => forwardParYield(discount, start, length, frequency),
  };
}
