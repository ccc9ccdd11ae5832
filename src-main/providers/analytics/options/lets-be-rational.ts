import { mills, normalisedBlackAtInflection, normalisedBlackGivenVega, normalisedComplementGivenVega, normalisedVega } from './normalised-black';

/**
 * Implied total volatility from a normalised Black price, after P. Jäckel, "Let's be rational"
 * (Wilmott, January 2015), written from the paper's description:
 *
 * 1. Two points split (0, b_max): the inflection point s_c = √(2|x|) of b(s), and the points where
 *    the tangent there meets 0 (s_l) and b_max (s_h). That gives four segments in price.
 * 2. On each segment a rational cubic (Delbourgo & Gregory, 1985) that preserves convexity gives the
 *    starting guess: in the two middle segments it interpolates s(β) directly; in the lowest it
 *    interpolates a transform f_l(β) that behaves like the price's small-s asymptotics; in the highest
 *    a transform f_u(β) = Φ(−s/2) that behaves like its large-s asymptotics. The guess is typically
 *    right to 1e−4 or better.
 * 3. Householder steps of order 4 on an objective chosen per segment (1/ln b in the lowest,
 *    ln(b_max − b) in the highest, b itself in between) so that it is nearly linear in s. Two steps
 *    reach machine precision; a step that leaves the bracket is replaced by bisection, and further
 *    steps are only taken while the last step was still large.
 *
 * Nothing here allocates: numbers in, numbers out through a caller's Float64Array.
 */

const DBL_EPSILON = 2.220446049250313e-16;
/** The control parameter range of the rational cubic: above R_MAX it is the straight line. */
const R_MIN = -(1 - Math.sqrt(DBL_EPSILON));
const R_MAX = 2 / (DBL_EPSILON * DBL_EPSILON);
const INV_SQRT_2PI = 0.3989422804014327;
const SQRT_2PI = 2.5066282746310002;
const SQRT3 = 1.7320508075688772;
/** 2π/√27: the lower transform's scale, f_l ~ b as s → 0. */
const LOWER_SCALE = 1.2091995761561452;
/** Steps after the second are taken only while the last step exceeded this fraction of s. */
const SETTLED = 1e-4;
const MAX_ITERATIONS = 16;

/**
 * The Delbourgo–Gregory rational cubic through (xl, yl) and (xr, yr) with slopes dl and dr, at the
 * point with t = (x − xl)/(xr − xl) and omt = 1 − t given separately (so a point very near xr keeps
 * its distance digits). r = 3 is the ordinary cubic; r → ∞ tends to the straight line.
 */
function rationalCubic(t: number, omt: number, h: number, yl: number, yr: number, dl: number, dr: number, r: number): number {
  if (!(h > 0)) return 0.5 * (yl + yr);
  if (r >= R_MAX) return yr * t + yl * omt;
  const t2 = t * t;
  const omt2 = omt * omt;
  return (yr * t2 * t + (r * yr - h * dr) * t2 * omt + (r * yl + h * dl) * t * omt2 + yl * omt2 * omt) / (1 + (r - 3) * t * omt);
}

/** The control parameter giving the interpolant second derivative d2 at its left (atLeft) or right end. */
function controlForCurvature(h: number, yl: number, yr: number, dl: number, dr: number, d2: number, atLeft: boolean): number {
  const numerator = 0.5 * h * d2 + (dr - dl);
  if (numerator === 0) return 0;
  const slope = (yr - yl) / h;
  const denominator = atLeft ? slope - dl : dr - slope;
  if (denominator === 0) return numerator > 0 ? R_MAX : R_MIN;
  return numerator / denominator;
}

/**
 * The least control parameter that keeps the interpolant monotone (if the data are) and convex or
 * concave (if the data are), Delbourgo & Gregory's conditions. Where a condition cannot be met
 * smoothly and shape matters more (preferShape), the straight line is forced.
 */
function minimumControl(dl: number, dr: number, slope: number, preferShape: boolean): number {
  const monotonic = dl * slope >= 0 && dr * slope >= 0;
  const convex = dl <= slope && slope <= dr;
  const concave = dl >= slope && slope >= dr;
  if (!monotonic && !convex && !concave) return R_MIN;
  let r1 = -Number.MAX_VALUE;
  let r2 = r1;
  if (monotonic) {
    if (slope !== 0) r1 = (dr + dl) / slope;
    else if (preferShape) r1 = R_MAX;
  }
  if (convex || concave) {
    const left = slope - dl;
    const right = dr - slope;
    if (left !== 0 && right !== 0) r2 = Math.max(Math.abs((dr - dl) / right), Math.abs((dr - dl) / left));
    else if (preferShape) r2 = R_MAX;
  } else if (monotonic && preferShape) r2 = R_MAX;
  return Math.max(R_MIN, r1, r2);
}

function shapeControl(h: number, yl: number, yr: number, dl: number, dr: number, d2: number, atLeft: boolean, preferShape: boolean): number {
  const r = controlForCurvature(h, yl, yr, dl, dr, d2, atLeft);
  return Math.max(r, minimumControl(dl, dr, (yr - yl) / h, preferShape));
}

/**
 * Φ⁻¹(p) for 0 < p < 1 by Acklam's rational approximation (relative error below 1.2e−9): only
 * starting guesses come from it, and the Householder steps take them to machine precision.
 */
function normQuantileGuess(p: number): number {
  if (p < 0.02425 || p > 0.97575) {
    const q = Math.sqrt(-2 * Math.log(p < 0.5 ? p : 1 - p));
    const x =
      (((((-0.007784894002430293 * q - 0.3223964580411365) * q - 2.400758277161838) * q - 2.549732539343734) * q + 4.374664141464968) * q + 2.938163982698783) /
      ((((0.007784695709041462 * q + 0.3224671290700398) * q + 2.445134137142996) * q + 3.754408661907416) * q + 1);
    return p < 0.5 ? x : -x;
  }
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((-39.69683028665376 * r + 220.9460984245205) * r - 275.9285104469687) * r + 138.357751867269) * r - 30.66479806614716) * r + 2.506628277459239) * q) /
    (((((-54.47609879822406 * r + 161.5858368580409) * r - 155.6989798598866) * r + 66.80131188771972) * r - 13.28068155288572) * r + 1)
  );
}

/**
 * The Householder factor of order 4: s_{n+1} = s_n + ν·(1 + ½ην)/(1 + ν(η + ιν/6)), with ν the Newton
 * step −g/g′, η = g″/g′ and ι = g‴/g′ of the objective g.
 */
function householder(newton: number, halley: number, third: number): number {
  return (newton * (1 + 0.5 * halley * newton)) / (1 + newton * (halley + (third * newton) / 6));
}

/**
 * Solves b(x, s) = beta for s, with x ≤ 0, 0 < beta < b_max = e^{x/2}, and gap = b_max − beta known
 * to full precision. Writes s to out[0] and the number of price evaluations in the iteration to out[1].
 */
export function totalVolFromNormalisedPrice(beta: number, gap: number, x: number, out: Float64Array): void {
  const bMax = Math.exp(0.5 * x);
  const sc = Math.sqrt(-2 * x);
  const bc = x === 0 ? 0 : normalisedBlackAtInflection(x, sc, bMax);
  const vc = INV_SQRT_2PI * bMax; // b′(s_c) = φ(h)·e^{−t²/2} with h² + t² = |x|
  let s: number;
  let left = Number.MIN_VALUE;
  let right = Number.MAX_VALUE;
  let objective: number; // 0: b − β, 1: 1/ln b − 1/ln β, 2: ln(b_max − β) − ln(b_max − b)
  if (beta < bc) {
    const sl = sc - bc / vc;
    const vl = normalisedVega(x, sl);
    const bl = normalisedBlackGivenVega(x, sl, vl, bMax);
    if (beta < bl) {
      // Lowest segment: interpolate f_l(β) = (2π/√27)·|x|·Φ(−z)³, z = |x|/(√3·s), with f_l(0) = 0, f_l′(0) = 1.
      const ax = -x;
      const z = ax / (SQRT3 * sl);
      const y = z * z;
      // With R = Φ(−z)/φ(z) and E = e^{−z²/2}: Φ(−z) = R·E/√(2π), and every factor below stays finite.
      const R = mills(-z);
      const E = Math.exp(-0.5 * y);
      const phiTail = (R * E) / SQRT_2PI;
      const fl = LOWER_SCALE * ax * phiTail * phiTail * phiTail;
      // df/dβ = (df/ds)/(db/ds) = y·R²·e^{s²/8}; d²f/dβ² from the logarithmic derivative of df/dβ in s.
      const g = Math.exp(0.125 * sl * sl);
      const fp = y * R * R * g;
      const fpp = ((SQRT_2PI * fp * g) / (E * E * E)) * ((2 * z) / (sl * R) - (2 * (1 + y)) / sl + 0.25 * sl);
      const r = shapeControl(bl, 0, fl, 1, fp, fpp, false, true);
      let f = rationalCubic(beta / bl, 1 - beta / bl, bl, 0, fl, 1, fp, r);
      if (!(f > 0)) {
        const t = beta / bl;
        f = (fl * t + bl * (1 - t)) * t;
      }
      s = ax / (SQRT3 * -normQuantileGuess(Math.cbrt(f / (LOWER_SCALE * ax))));
      right = sl;
      objective = 1;
    } else {
      const h = bc - bl;
      const r = shapeControl(h, sl, sc, 1 / vl, 1 / vc, 0, false, false);
      s = rationalCubic((beta - bl) / h, (bc - beta) / h, h, sl, sc, 1 / vl, 1 / vc, r);
      left = sl;
      right = sc;
      objective = 0;
    }
  } else {
    const sh = vc > Number.MIN_VALUE ? sc + (bMax - bc) / vc : sc;
    const vh = normalisedVega(x, sh);
    const qh = normalisedComplementGivenVega(x, sh, vh, bMax);
    const bh = bMax - qh;
    if (beta <= bh) {
      const h = bh - bc;
      const r = shapeControl(h, sc, sh, 1 / vc, 1 / vh, 0, true, false);
      s = rationalCubic((beta - bc) / h, (bh - beta) / h, h, sc, sh, 1 / vc, 1 / vh, r);
      left = sc;
      right = sh;
      objective = 0;
    } else {
      // Highest segment: interpolate f_u(β) = Φ(−s/2), with f_u(b_max) = 0 and f_u′(b_max) = −½.
      const fh = (mills(-0.5 * sh) * Math.exp(-0.125 * sh * sh)) / SQRT_2PI; // Φ(−s_h/2)
      const w = (x / sh) * (x / sh);
      const fp = -0.5 * Math.exp(0.5 * w);
      const fpp = 1.2533141373155003 * Math.exp(w + 0.125 * sh * sh) * (w / sh);
      const omt = gap / qh;
      let f = 0;
      if (Number.isFinite(fpp)) {
        const r = shapeControl(qh, fh, 0, fp, -0.5, fpp, true, true);
        f = rationalCubic(1 - omt, omt, qh, fh, 0, fp, -0.5, r);
      }
      if (!(f > 0)) f = (fh * omt + 0.5 * qh * (1 - omt)) * omt;
      s = -2 * normQuantileGuess(f);
      left = sh;
      // Below half of b_max the price itself is the better objective (b_max − b has no digits to keep).
      objective = beta > 0.5 * bMax ? 2 : 0;
    }
  }
  if (!(s > left && s < right)) s = right < Number.MAX_VALUE ? 0.5 * (left + right) : 2 * left; // a guess off its segment
  const lnBeta = objective === 1 ? Math.log(beta) : 0;
  let ds = Number.MAX_VALUE;
  let iterations = 0;
  while (iterations < MAX_ITERATIONS && Math.abs(ds) > DBL_EPSILON * s && (iterations < 2 || Math.abs(ds) > SETTLED * s)) {
    // The bracket's midpoint (doubling when there is no upper end yet), used when a step cannot be trusted.
    const mid = right < Number.MAX_VALUE ? 0.5 * (left + right) : 2 * left;
    if (iterations > 0 && !(s > left && s < right)) s = mid;
    const h = x / s;
    const vega = normalisedVega(x, s);
    const b2 = (h * h) / s - 0.25 * s; // b″/b′
    const b3 = b2 * b2 - 3 * (h / s) * (h / s) - 0.25; // b‴/b′
    if (objective === 2) {
      const q = normalisedComplementGivenVega(x, s, vega, bMax);
      if (q > gap) left = s;
      else if (q < gap) right = s;
      const g1 = vega / q;
      if (q === gap) ds = 0;
      else ds = g1 > 0 && q > 0 ? householder(Math.log(q / gap) / g1, b2 + g1, b3 + g1 * (2 * g1 + 3 * b2)) : mid - s;
    } else {
      const b = normalisedBlackGivenVega(x, s, vega, bMax);
      if (b < beta) left = s;
      else if (b > beta) right = s;
      if (b === beta) ds = 0;
      else if (objective === 1) {
        if (b > 0 && vega > 0) {
          const lnB = Math.log(b);
          const u = vega / b;
          const newton = ((lnBeta - lnB) * lnB) / (lnBeta * u);
          const halley = b2 - u * (1 + 2 / lnB);
          const third = b3 + 2 * u * u * (1 + (3 / lnB) * (1 + 1 / lnB)) - 3 * b2 * u * (1 + 2 / lnB);
          ds = householder(newton, halley, third);
        } else ds = mid - s;
      } else ds = vega > 0 ? householder((beta - b) / vega, b2, b3) : mid - s;
    }
    ds = Math.max(-0.5 * s, ds);
    s += ds;
    iterations++;
  }
  out[0] = s;
  out[1] = iterations;
}
