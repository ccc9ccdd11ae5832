/**
 * The standard normal distribution. The CDF is Hart's (1968) double-precision rational
 * approximation as given by West, "Better approximations to cumulative normal functions" (2005):
 * absolute error below 1e-14 everywhere, relative error below 1e-10 for x > −5 and about 1e-8
 * further out (values under 3e-7) — fast, which the implied-volatility solver needs, and far
 * more accurate than any option price or p-value needs.
 */

const SQRT_2PI = 2.506628274631;
const INV_SQRT_2PI = 0.3989422804014327;

/**
 * Φ(−z) for z ≥ 0, given e = exp(−z²/2). Taking the exponential from the caller lets the option
 * code serve d1 and d2 from one exp (e^{−d2²/2} = e^{−d1²/2}·F/K).
 */
export function normTail(z: number, e: number): number {
  if (z > 37) return 0;
  if (z < 7.07106781186547) {
    const n =
      (((((0.0352624965998911 * z + 0.700383064443688) * z + 6.37396220353165) * z + 33.912866078383) * z + 112.079291497871) * z + 221.213596169931) * z +
      220.206867912376;
    const d =
      ((((((0.0883883476483184 * z + 1.75566716318264) * z + 16.064177579207) * z + 86.7807322029461) * z + 296.564248779674) * z + 637.333633378831) * z +
        793.826512519948) *
        z +
      440.413735824752;
    return (e * n) / d;
  }
  // Continued fraction for the far tail.
  return e / (z + 1 / (z + 2 / (z + 3 / (z + 4 / (z + 0.65))))) / SQRT_2PI;
}

/** Φ(x), the standard normal cumulative distribution. */
export function normCdf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  const z = Math.abs(x);
  const tail = z > 37 ? 0 : normTail(z, Math.exp(-0.5 * z * z));
  return x > 0 ? 1 - tail : tail;
}

/** φ(x), the standard normal density. */
export function normPdf(x: number): number {
  return INV_SQRT_2PI * Math.exp(-0.5 * x * x);
}
