/**
 * The standard normal distribution, to full double precision in relative terms — also in the far
 * tail, where option wings and tiny p-values live.
 *
 * The complementary error function follows W. J. Cody, "Rational Chebyshev approximations for the
 * error function", Math. Comp. 23 (1969), with the coefficients published there (as used in his
 * SPECFUN routine CALERF): erf on |x| ≤ 0.46875, then the scaled erfcx(x) = e^{x²}·erfc(x) on
 * (0.46875, 4] and as x⁻¹·(1/√π − x⁻²·R(x⁻²)) beyond. Relative error is a few units in the last place.
 *
 * Φ(−z) = ½·e^{−z²/2}·erfcx(z/√2). Working from erfcx keeps the tail's relative accuracy: the
 * Gaussian factor is taken from an exactly representable split of z (no rounding in the large
 * exponent), and below the smallest normal double it is applied last, so Φ(−38) ≈ 2.885e−316 is
 * as accurate as a subnormal can be.
 */

const INV_SQRT_PI = 0.5641895835477563;
const INV_SQRT_2PI = 0.3989422804014327;
const SQRT_HALF_PI = 1.2533141373155003;

// Cody (1969), erf on [0, 0.46875]: erf(x) = x·A(x²)/B(x²).
const A = [3.1611237438705655, 113.86415415105016, 377.485237685302, 3209.3775891384694, 0.18577770618460315];
const B = [23.601290952344122, 244.02463793444417, 1282.6165260773723, 2844.236833439171];
// erfcx on (0.46875, 4]: C(x)/D(x).
const C = [
  0.5641884969886701, 8.883149794388377, 66.11919063714163, 298.6351381974001, 881.952221241769, 1712.0476126340707, 2051.0783778260716, 1230.3393547979972,
  2.1531153547440383e-8,
];
const D = [
  15.744926110709835, 117.6939508913125, 537.1811018620099, 1621.3895745666903, 3290.7992357334597, 4362.619090143247, 3439.3676741437216, 1230.3393548037495,
];
// erfcx beyond 4: (1/√π − y·P(y)/Q(y))/x with y = 1/x².
const P = [0.30532663496123236, 0.36034489994980445, 0.12578172611122926, 0.016083785148742275, 0.0006587491615298378, 0.016315387137302097];
const Q = [2.568520192289822, 1.8729528499234604, 0.5279051029514285, 0.06051834131244132, 0.0023352049762686918];

function erfSmall(x: number): number {
  const y = x * x;
  let num = A[4] * y;
  let den = y;
  for (let i = 0; i < 3; i++) {
    num = (num + A[i]) * y;
    den = (den + B[i]) * y;
  }
  return (x * (num + A[3])) / (den + B[3]);
}

/** e^{−x²} for x ≥ 0 with the exponent split so that its large part is exact (Cody's device). */
function expNegSquare(x: number): number {
  const xh = Math.trunc(x * 16) / 16;
  return Math.exp(-xh * xh) * Math.exp(-(x - xh) * (x + xh));
}

/** The scaled complementary error function e^{x²}·erfc(x); for x < 0 it overflows to Infinity below about −26.6. */
export function erfcx(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (x < 0) return x < -26.7 ? Number.POSITIVE_INFINITY : 2 / expNegSquare(-x) - erfcx(-x);
  if (x <= 0.46875) return Math.exp(x * x) * (1 - erfSmall(x));
  if (x <= 4) {
    let num = C[8] * x;
    let den = x;
    for (let i = 0; i < 7; i++) {
      num = (num + C[i]) * x;
      den = (den + D[i]) * x;
    }
    return (num + C[7]) / (den + D[7]);
  }
  // Beyond 1e8 the correction term is below half an ulp of 1/√π.
  if (x >= 1e8) return INV_SQRT_PI / x;
  const y = 1 / (x * x);
  let num = P[5] * y;
  let den = y;
  for (let i = 0; i < 4; i++) {
    num = (num + P[i]) * y;
    den = (den + Q[i]) * y;
  }
  return (INV_SQRT_PI - (y * (num + P[4])) / (den + Q[4])) / x;
}

/** The complementary error function erfc(x) = 1 − erf(x), accurate in relative terms for large x. */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  const y = Math.abs(x);
  if (y <= 0.46875) return 1 - erfSmall(x);
  const tail = y >= 27.3 ? 0 : expNegSquare(y) * erfcx(y);
  return x < 0 ? 2 - tail : tail;
}

/** The error function erf(x). */
export function erf(x: number): number {
  if (Math.abs(x) <= 0.46875) return erfSmall(x);
  return x < 0 ? erfc(-x) - 1 : 1 - erfc(x);
}

/**
 * The Mills ratio Φ(−z)/φ(z) = √(π/2)·erfcx(z/√2), accurate in relative terms for every z. For
 * z < 0 it grows like √(2π)·e^{z²/2} and overflows below about −37.6.
 */
export function millsRatio(z: number): number {
  return SQRT_HALF_PI * erfcx(z * Math.SQRT1_2);
}

/** φ(z) = e^{−z²/2}/√(2π) times a factor m, without rounding in the exponent and without a subnormal intermediate. */
export function scaledPdf(z: number, m: number): number {
  const a = Math.abs(z);
  if (a > 40) return 0;
  // zh has at most 11 significant bits, so zh² is exact and e^{−zh²/2} is rounded once.
  const zh = Math.trunc(a * 32) / 32;
  const small = Math.exp(-0.5 * (a - zh) * (a + zh)) * INV_SQRT_2PI * m;
  const big = -0.5 * zh * zh;
  // Below e^{−700} the factor would be subnormal and lose digits before m scales it up: apply it
  // as two halves (big/2 is exact), so only the final product can round into the subnormal range.
  if (big < -700) {
    const half = Math.exp(0.5 * big);
    return small * half * half;
  }
  return small * Math.exp(big);
}

/** Φ(−z) for z ≥ 0, to a few ulps in relative terms (0 below about 4.9e−324, i.e. z > 38.5). */
export function normTail(z: number): number {
  // Near the centre erf is direct and exact at 0 (Φ(0) = ½); beyond, the scaled form keeps the tail's digits.
  if (z <= 0.6629126073623883) return 0.5 * erfc(z * Math.SQRT1_2);
  return scaledPdf(z, millsRatio(z));
}

/** Φ(x), the standard normal cumulative distribution. */
export function normCdf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  return x > 0 ? 1 - normTail(x) : normTail(-x);
}

/** φ(x), the standard normal density. */
export function normPdf(x: number): number {
  return INV_SQRT_2PI * Math.exp(-0.5 * x * x);
}
