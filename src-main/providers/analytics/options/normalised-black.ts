import { erfcx, scaledPdf } from '../numeric/normal';

/**
 * Jäckel's normalised Black function ("Let's be rational", Wilmott 2015), the price the implied-vol
 * solver inverts: for x = ln(F/K) ≤ 0 (the out-of-the-money side: puts are reflected onto calls,
 * x → −x) and total volatility s = σ√T,
 *   b(x, s) = e^{x/2}·Φ(h + t) − e^{−x/2}·Φ(h − t),  h = x/s, t = s/2,
 * the undiscounted out-of-the-money price divided by √(F·K). It lies in (0, b_max), b_max = e^{x/2}.
 *
 * With M(y) = Φ(y)/φ(y) (a Mills ratio, from erfcx) and b'(s) = φ(h)·e^{−t²/2} (the normalised vega),
 *   b = b'·[M(h + t) − M(h − t)],   b_max − b = b'·[M(−h − t) + M(h − t)],
 * which factors the two nearly equal exponentials out exactly. The bracket [M(h+t) − M(h−t)] is the
 * only place digits can cancel (t small against max(1, |h|)); there it is summed as a series whose
 * terms do not cancel. Three regions:
 *  - far wing, short total vol (|h| − t ≥ 9, t ≤ |h|/7): the asymptotic series of the Mills ratio,
 *    differenced term by term in a form with only positive parts;
 *  - small t (t < 0.21): the odd Taylor series in t around h, 2·Σ M^{(k)}(h)·t^k/k!;
 *  - elsewhere the two Mills ratios directly, or b_max minus the two tails once h + t > 0 (at most
 *    ~4 bits lost at the region edges).
 * Relative accuracy is about 1e−14 (checked against 50-digit references and the cancellation-free
 * pricer in black-otm.ts); the solver needs less, since a relative error δ in b moves the implied
 * total vol by δ·b/(s·b') ≤ δ in the regions where cancellation could occur.
 *
 * Everything here is plain arithmetic on numbers: no objects, no closures, so a solve allocates nothing.
 */

const INV_SQRT_2PI = 0.3989422804014327;
const SQRT_HALF_PI = 1.2533141373155003;
/** Below this t the Taylor series in t is used (its terms fall by ≥ t²/3 ≈ 0.015 each). */
const SMALL_T = 0.21;
/** The asymptotic Mills series is used when both arguments lie at least this far in the tail. */
const ASYMPTOTIC_Z = 9;

/** M(y) = Φ(y)/φ(y), accurate in relative terms for every y (overflows above y ≈ 37.6). */
export function mills(y: number): number {
  const a = -y * Math.SQRT1_2;
  if (a > 0.46875 && a <= 4) return SQRT_HALF_PI * erfcxMid(a);
  if (a > 4 && a < 1e8) return SQRT_HALF_PI * erfcxLarge(a);
  return SQRT_HALF_PI * erfcx(a);
}

/**
 * erfcx on (0.46875, 4] and on (4, 1e8), the ranges nearly all solver calls land in: Cody's rational
 * functions exactly as numeric/normal.ts evaluates them (same coefficients, same Horner order, so the
 * same doubles), written out so that V8 keeps them in registers — about twice as fast as the general
 * routine's loops over coefficient arrays.
 */
function erfcxMid(x: number): number {
  const num =
    (((((((2.1531153547440383e-8 * x + 0.5641884969886701) * x + 8.883149794388377) * x + 66.11919063714163) * x + 298.6351381974001) * x + 881.952221241769) *
      x +
      1712.0476126340707) *
      x +
      2051.0783778260716) *
      x +
    1230.3393547979972;
  const den =
    (((((((x + 15.744926110709835) * x + 117.6939508913125) * x + 537.1811018620099) * x + 1621.3895745666903) * x + 3290.7992357334597) * x +
      4362.619090143247) *
      x +
      3439.3676741437216) *
      x +
    1230.3393548037495;
  return num / den;
}

function erfcxLarge(x: number): number {
  const y = 1 / (x * x);
  const num =
    ((((0.016315387137302097 * y + 0.30532663496123236) * y + 0.36034489994980445) * y + 0.12578172611122926) * y + 0.016083785148742275) * y +
    0.0006587491615298378;
  const den = ((((y + 2.568520192289822) * y + 1.8729528499234604) * y + 0.5279051029514285) * y + 0.06051834131244132) * y + 0.0023352049762686918;
  return (0.5641895835477563 - (y * num) / den) / x;
}

/** The normalised vega ∂b/∂s = φ(x/s)·e^{−s²/8}. */
export function normalisedVega(x: number, s: number): number {
  const h = x / s;
  const t = 0.5 * s;
  return INV_SQRT_2PI * Math.exp(-0.5 * (h * h + t * t));
}

/** 1/((k + 1)(k + 2)) for odd k: the factorial step between odd Taylor terms, as a product. */
const STEP = Float64Array.from({ length: 41 }, (_, k) => 1 / ((k + 1) * (k + 2)));

/**
 * M(h + t) − M(h − t) for h ≤ 0 by the odd Taylor series 2·Σ_{k odd} I_k·t^k/k!, I_k = M^{(k)}(h),
 * with the forward recurrence I_{k+1} = h·I_k + k·I_{k−1}. The recurrence loses digits as |h| grows,
 * but only in terms that the factor t^k/k! has already made negligible (t < 0.21, |h| < 9.3 here).
 */
function taylorDifference(h: number, t: number): number {
  let i0 = mills(h);
  let i1 = 1 + h * i0;
  let sum = i1 * t;
  let power = t; // t^k/k!
  const t2 = t * t;
  for (let k = 1; k < 40; k += 2) {
    const i2 = h * i1 + k * i0;
    const i3 = h * i2 + (k + 1) * i1;
    power *= t2 * STEP[k]!;
    const term = i3 * power;
    sum += term;
    if (term <= 1e-17 * sum) break;
    i0 = i2;
    i1 = i3;
  }
  return 2 * sum;
}

/**
 * R(z1) − R(z2) for the Mills ratio R(z) = Φ(−z)/φ(z) ~ Σ_n (−1)^n·(2n−1)!!/z^{2n+1}, z2 = z1 + 2t,
 * both ≥ 9. Each difference z1^{−m} − z2^{−m} = (a − b)·e_m with a = 1/z1, b = 1/z2 and
 * e_m = Σ_j a^j·b^{m−1−j}, run as e_{m+2} = a²·e_m + b^m·(a + b): positive parts only, so the close
 * arguments cost no digits. The series is summed until its terms stop mattering (≤ 30 terms at z1 = 9).
 */
function asymptoticDifference(z1: number, z2: number, t: number): number {
  const a = 1 / z1;
  const b = 1 / z2;
  const a2 = a * a;
  const apb = a + b;
  const b2 = b * b;
  let e = 1; // e_1
  let bm = b; // b^1
  let coef = 1; // (−1)^n·(2n−1)!!
  let sum = 1;
  for (let n = 0; n < 60; n++) {
    e = a2 * e + bm * apb; // e_{2n+3}
    bm *= b2;
    coef *= -(2 * n + 1);
    const term = coef * e;
    sum += term;
    if (Math.abs(term) <= 1e-17 * sum) break;
  }
  return ((2 * t) / (z1 * z2)) * sum;
}

/** b(x, s) for x ≤ 0, s > 0. */
export function normalisedBlack(x: number, s: number): number {
  return normalisedBlackGivenVega(x, s, normalisedVega(x, s), 0);
}

/**
 * b(x, s) given its vega b′(x, s) and b_max = e^{x/2} (0 if not at hand: then it is computed where
 * needed), which the solver has anyway: two exponentials fewer per evaluation.
 */
export function normalisedBlackGivenVega(x: number, s: number, vega: number, bMax: number): number {
  const h = x / s;
  const t = 0.5 * s;
  const z = -h;
  // Deep in the wing e^{−h²/2} is tiny and a rounded exponent would cost ~|h|²/2 ulps: split it exactly.
  if (z - t >= ASYMPTOTIC_Z && 7 * t <= z) return scaledPdf(h, Math.exp(-0.5 * t * t) * asymptoticDifference(z - t, z + t, t));
  if (t < SMALL_T) return vega * taylorDifference(h, t);
  const d1 = h + t;
  // For d1 > 0, M(d1) = 1/φ(d1) − M(−d1) costs two more exponentials (and overflows past d1 ≈ 37
  // while b′ underflows): take b as b_max minus the two tails. With t ≥ 0.21 here, b ≥ erf(t/√2)·b_max
  // > b_max/6, so the subtraction costs under 3 bits.
  if (d1 > 0) return (bMax > 0 ? bMax : Math.exp(0.5 * x)) - vega * (mills(-d1) + mills(h - t));
  return vega * (mills(d1) - mills(h - t));
}

/**
 * b at the inflection point s_c = √(2|x|), where h + t = 0 and b′ = e^{x/2}/√(2π):
 * b_c = b_max/2 − b′·M(−s_c), one Mills ratio. (Small s_c would cancel: the general form is used.)
 */
export function normalisedBlackAtInflection(x: number, sc: number, bMax: number): number {
  if (0.5 * sc < SMALL_T) return normalisedBlack(x, sc);
  return 0.5 * bMax - INV_SQRT_2PI * bMax * mills(-sc);
}

/**
 * b_max − b(x, s) = e^{x/2}·Φ(−h − t) + e^{−x/2}·Φ(h − t), both terms positive: the distance to the
 * upper bound keeps its digits when the price is a hair below it. Below s = √(2|x|) (h + t < 0)
 * b < b_max/2, so b_max − b is formed directly.
 */
export function normalisedComplement(x: number, s: number): number {
  return normalisedComplementGivenVega(x, s, normalisedVega(x, s), 0);
}

/** b_max − b(x, s) given the vega b′(x, s) and b_max (or 0), as for normalisedBlackGivenVega. */
export function normalisedComplementGivenVega(x: number, s: number, vega: number, bMax: number): number {
  const h = x / s;
  const t = 0.5 * s;
  const d1 = h + t;
  if (d1 < 0) {
    const top = bMax > 0 ? bMax : Math.exp(0.5 * x);
    return top - normalisedBlackGivenVega(x, s, vega, top);
  }
  return vega * (mills(-d1) + mills(h - t));
}
