import { seededRng } from '../providers/analytics/numeric/random';

/**
 * The statistics of calibration, pure (no store, no I/O): equal-width bins, the Brier score with
 * its Murphy decomposition, bootstrap 95% percentile intervals, and the calibration slope and
 * intercept by logistic recalibration with Wald intervals. Everything here is seeded and
 * deterministic, so the same forecasts always give the same intervals and the same words.
 */

// The seeded generator (mulberry32) is the analytics library's: one implementation, the same
// sequence the bootstrap always drew, so stored intervals do not move.

export interface Interval {
  lo: number;
  hi: number;
}

/** Bin of a probability among `bins` equal bins over [0, 1]; lower bound inclusive, the top bin includes 1. */
export function binIndex(p: number, bins: number): number {
  return Math.max(0, Math.min(bins - 1, Math.floor(p * bins + 1e-9)));
}

/**
 * Sufficient statistics per (bin, outcome) cell: cell 2k holds bin k's misses, 2k+1 its hits.
 * count, Σp and Σp² per cell are all the decomposition and the bootstrap need.
 */
export interface Cells {
  bins: number;
  count: Float64Array;
  sumP: Float64Array;
  sumP2: Float64Array;
}

export function emptyCells(bins: number): Cells {
  return { bins, count: new Float64Array(2 * bins), sumP: new Float64Array(2 * bins), sumP2: new Float64Array(2 * bins) };
}

/** Adds `count` forecasts of probability p with the same outcome (SQL hands them over grouped). */
export function addForecast(cells: Cells, p: number, hit: boolean, count = 1): void {
  const j = 2 * binIndex(p, cells.bins) + (hit ? 1 : 0);
  cells.count[j]! += count;
  cells.sumP[j]! += count * p;
  cells.sumP2[j]! += count * p * p;
}

export function cellsOf(ps: ArrayLike<number>, ys: ArrayLike<number>, bins: number): Cells {
  const cells = emptyCells(bins);
  for (let i = 0; i < ps.length; i++) addForecast(cells, ps[i]!, ys[i] === 1);
  return cells;
}

export interface Decomposition {
  n: number;
  brier: number;
  reliability: number;
  resolution: number;
  uncertainty: number;
  /** BS − (REL − RES + UNC): what binning the forecasts leaves out (WBV − WBC below). */
  withinBin: number;
  baseRate: number;
}

/**
 * The Murphy (1973) decomposition with binned forecasts, in the generalised form of Stephenson,
 * Coelho, Doblas-Reyes & Balmaseda (2008):
 *   BS = REL − RES + UNC + WBV − WBC
 * with p̄ₖ the mean forecast and ōₖ the hit rate of bin k (nₖ forecasts, N in all, ō overall),
 *   REL = Σ nₖ(p̄ₖ − ōₖ)²/N,  RES = Σ nₖ(ōₖ − ō)²/N,  UNC = ō(1 − ō),
 *   WBV = Σₖ Σᵢ (pᵢ − p̄ₖ)²/N (within-bin variance of the forecasts),
 *   WBC = 2 Σₖ Σᵢ (oᵢ − ōₖ)(pᵢ − p̄ₖ)/N (within-bin covariance with the outcomes).
 * `withinBin` reports WBV − WBC (= BS − REL + RES − UNC), so the four figures always add up.
 *
 * REL and RES are the bias-corrected estimators of Ferro & Fricker (2012): the plain ones are
 * biased upward by the sampling noise of each ōₖ (a perfectly calibrated record of 10,000 shows
 * REL ≈ 0.0002 > 0, which would never let an interval cover 0). Each subtracts
 * Σ nₖ ōₖ(1 − ōₖ)/(nₖ − 1)/N, RES adds back ō(1 − ō)/(N − 1), and UNC becomes N ō(1 − ō)/(N − 1);
 * REL − RES + UNC is unchanged by the correction.
 */
export function decompose(cells: Cells): Decomposition {
  const K = cells.bins;
  let N = 0;
  let hits = 0;
  let sq = 0;
  for (let k = 0; k < K; k++) {
    const c0 = cells.count[2 * k]!;
    const c1 = cells.count[2 * k + 1]!;
    N += c0 + c1;
    hits += c1;
    // (p − y)² = p² − 2py + y
    sq += cells.sumP2[2 * k]! + cells.sumP2[2 * k + 1]! - 2 * cells.sumP[2 * k + 1]! + c1;
  }
  if (N === 0)
    return { n: 0, brier: Number.NaN, reliability: Number.NaN, resolution: Number.NaN, uncertainty: Number.NaN, withinBin: Number.NaN, baseRate: Number.NaN };
  const o = hits / N;
  let rel = 0;
  let res = 0;
  let noise = 0;
  for (let k = 0; k < K; k++) {
    const c0 = cells.count[2 * k]!;
    const c1 = cells.count[2 * k + 1]!;
    const nk = c0 + c1;
    if (nk === 0) continue;
    const pk = (cells.sumP[2 * k]! + cells.sumP[2 * k + 1]!) / nk;
    const ok = c1 / nk;
    rel += nk * (pk - ok) ** 2;
    res += nk * (ok - o) ** 2;
    if (nk > 1) noise += (nk * ok * (1 - ok)) / (nk - 1);
  }
  const brier = sq / N;
  const uncRaw = o * (1 - o);
  const reliability = (rel - noise) / N;
  const resolution = N > 1 ? (res - noise) / N + uncRaw / (N - 1) : res / N;
  const uncertainty = N > 1 ? (N * uncRaw) / (N - 1) : uncRaw;
  return { n: N, brier, reliability, resolution, uncertainty, withinBin: brier - (reliability - resolution + uncertainty), baseRate: o };
}

/** Standard normal draws from `rand` (Box–Muller; the second value of each pair is kept for the next call). */
export function normals(rand: () => number): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const z = spare;
      spare = null;
      return z;
    }
    const r = Math.sqrt(-2 * Math.log(1 - rand()));
    const t = 2 * Math.PI * rand();
    spare = r * Math.sin(t);
    return r * Math.cos(t);
  };
}

/**
 * Binomial(n, q). Exact by inversion when the smaller tail's mean is under 25; otherwise the
 * normal approximation with continuity rounding (mean and variance exact, skew negligible at that
 * size) — what keeps 1,000 resamples of 50,000 forecasts in a few milliseconds.
 */
export function binomial(n: number, q: number, rand: () => number, gauss: () => number = normals(rand)): number {
  if (n <= 0 || q <= 0) return 0;
  if (q >= 1) return n;
  const flip = q > 0.5;
  const r = flip ? 1 - q : q;
  let x: number;
  if (n * r < 25) {
    // Inversion of the CDF: P(0) = (1−r)ⁿ, P(k+1) = P(k)·(n−k)/(k+1)·r/(1−r).
    const u = rand();
    let pk = (1 - r) ** n;
    let cdf = pk;
    x = 0;
    const ratio = r / (1 - r);
    while (u > cdf && x < n) {
      pk *= ((n - x) / (x + 1)) * ratio;
      x++;
      cdf += pk;
    }
  } else {
    x = Math.round(n * r + Math.sqrt(n * r * (1 - r)) * gauss());
    x = Math.max(0, Math.min(n, x));
  }
  return flip ? n - x : x;
}

/** One bootstrap resample of the cells: N draws with replacement, as a multinomial over cells. */
export function resampleCells(cells: Cells, rand: () => number, out: Cells, gauss: () => number = normals(rand)): void {
  let remaining = 0;
  for (let j = 0; j < cells.count.length; j++) remaining += cells.count[j]!;
  let mass = remaining;
  for (let j = 0; j < cells.count.length; j++) {
    const c = cells.count[j]!;
    // Conditional binomials: cell j gets Binomial(draws left, its share of the mass left).
    const k = c === 0 ? 0 : j === cells.count.length - 1 || mass <= c ? remaining : binomial(remaining, c / mass, rand, gauss);
    out.count[j] = k;
    // A resampled cell keeps its forecasts' mean p and p² (the spread inside one 0.1-wide cell is
    // what resampling individual rows would add, and it is tiny next to the count noise).
    out.sumP[j] = c ? (k * cells.sumP[j]!) / c : 0;
    out.sumP2[j] = c ? (k * cells.sumP2[j]!) / c : 0;
    remaining -= k;
    mass -= c;
  }
}

export interface BootstrapResult {
  brier: Interval;
  reliability: Interval;
  resolution: Interval;
  uncertainty: Interval;
  /** Per bin: the interval of stated − realised (null where the bin is empty). */
  bandBias: (Interval | null)[];
  /** Per bin: the bootstrap standard deviation of stated − realised (null where the bin is empty). */
  bandSd: (number | null)[];
  resamples: number;
  seed: number;
}

/**
 * The 2.5th and 97.5th percentiles of the resampled values, shifted by the bootstrap's own bias
 * (mean of the resamples − the estimate). REL and RES are squares, so every resample adds its own
 * noise on top of the data's: unshifted, a perfectly calibrated record's REL interval would sit
 * wholly above 0. For the Brier score, UNC and a band's stated − realised the shift is ~0.
 */
function percentileInterval(values: Float64Array, count: number, estimate: number): Interval {
  if (count === 0) return { lo: Number.NaN, hi: Number.NaN };
  const v = values.subarray(0, count).slice().sort();
  let mean = 0;
  for (let i = 0; i < count; i++) mean += v[i]!;
  const shift = Number.isFinite(estimate) ? mean / count - estimate : 0;
  return { lo: v[Math.floor(0.025 * (count - 1))]! - shift, hi: v[Math.ceil(0.975 * (count - 1))]! - shift };
}

/**
 * Bootstrap 95% percentile intervals (bias-shifted, see above) for the decomposition and each bin's stated − realised:
 * `resamples` multinomial resamples of the (bin, outcome) cells — the same distribution as
 * drawing N forecasts with replacement, at a cost that does not grow with N.
 */
export function bootstrapCells(cells: Cells, options: { resamples?: number; seed?: number } = {}): BootstrapResult {
  const R = options.resamples ?? 1000;
  const seed = options.seed ?? 20_260_101;
  const rand = seededRng(seed).uniform;
  const gauss = normals(rand);
  const K = cells.bins;
  const out = emptyCells(K);
  const stats = { brier: new Float64Array(R), reliability: new Float64Array(R), resolution: new Float64Array(R), uncertainty: new Float64Array(R) };
  const bias = Array.from({ length: K }, () => new Float64Array(R));
  const biasCount = new Int32Array(K);
  for (let r = 0; r < R; r++) {
    resampleCells(cells, rand, out, gauss);
    const d = decompose(out);
    stats.brier[r] = d.brier;
    stats.reliability[r] = d.reliability;
    stats.resolution[r] = d.resolution;
    stats.uncertainty[r] = d.uncertainty;
    for (let k = 0; k < K; k++) {
      const nk = out.count[2 * k]! + out.count[2 * k + 1]!;
      if (nk === 0) continue;
      bias[k]![biasCount[k]!++] = (out.sumP[2 * k]! + out.sumP[2 * k + 1]!) / nk - out.count[2 * k + 1]! / nk;
    }
  }
  const d = decompose(cells);
  const bandBias = (k: number) => {
    const nk = cells.count[2 * k]! + cells.count[2 * k + 1]!;
    return (cells.sumP[2 * k]! + cells.sumP[2 * k + 1]!) / nk - cells.count[2 * k + 1]! / nk;
  };
  return {
    brier: percentileInterval(stats.brier, R, d.brier),
    reliability: percentileInterval(stats.reliability, R, d.reliability),
    resolution: percentileInterval(stats.resolution, R, d.resolution),
    uncertainty: percentileInterval(stats.uncertainty, R, d.uncertainty),
    bandBias: bias.map((b, k) => (cells.count[2 * k]! + cells.count[2 * k + 1]! === 0 ? null : percentileInterval(b, biasCount[k]!, bandBias(k)))),
    bandSd: bias.map((b, k) => (cells.count[2 * k]! + cells.count[2 * k + 1]! === 0 ? null : sd(b, biasCount[k]!))),
    resamples: R,
    seed,
  };
}

function sd(values: Float64Array, count: number): number {
  if (count < 2) return 0;
  let m = 0;
  for (let i = 0; i < count; i++) m += values[i]!;
  m /= count;
  let v = 0;
  for (let i = 0; i < count; i++) v += (values[i]! - m) ** 2;
  return Math.sqrt(v / (count - 1));
}

export interface Recalibration {
  /** a in logit P(y=1) = a + b·logit(p): 0 when calibrated in the large. */
  intercept: number;
  interceptInterval: Interval;
  /** b: 1 when calibrated, below 1 when too extreme (overconfident), 0 when p carries no information. */
  slope: number;
  slopeInterval: Interval;
  iterations: number;
}

const CLIP = 1e-6;
const Z95 = 1.959963984540054;

/**
 * Logistic recalibration (Cox 1958): fits logit P(y=1) = a + b·logit(p) by Newton–Raphson (IRLS),
 * p clipped to [1e-6, 1 − 1e-6]; 95% Wald intervals from the inverse of the Hessian at the fit.
 * `weights` counts identical forecasts once each (SQL groups them), with the same fit.
 * Null when it cannot be fitted: fewer than 3 forecasts, all hits or all misses (the fit runs to
 * infinity), or every p the same (no slope to estimate).
 */
export function logisticRecalibration(ps: ArrayLike<number>, ys: ArrayLike<number>, weights?: ArrayLike<number>): Recalibration | null {
  const n = ps.length;
  const wt = (i: number) => (weights ? weights[i]! : 1);
  let total = 0;
  for (let i = 0; i < n; i++) total += wt(i);
  if (total < 3) return null;
  const x = new Float64Array(n);
  let hits = 0;
  let xMin = Number.POSITIVE_INFINITY;
  let xMax = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const p = Math.min(1 - CLIP, Math.max(CLIP, ps[i]!));
    x[i] = Math.log(p / (1 - p));
    if (x[i]! < xMin) xMin = x[i]!;
    if (x[i]! > xMax) xMax = x[i]!;
    hits += ys[i] === 1 ? wt(i) : 0;
  }
  if (hits === 0 || hits === total || xMax - xMin < 1e-9) return null;
  let a = 0;
  let b = 0;
  let h00 = 0;
  let h01 = 0;
  let h11 = 0;
  let it = 0;
  for (; it < 100; it++) {
    let g0 = 0;
    let g1 = 0;
    h00 = 0;
    h01 = 0;
    h11 = 0;
    for (let i = 0; i < n; i++) {
      const xi = x[i]!;
      const mu = 1 / (1 + Math.exp(-(a + b * xi)));
      const wi = wt(i);
      const w = wi * mu * (1 - mu);
      const e = wi * ((ys[i] === 1 ? 1 : 0) - mu);
      g0 += e;
      g1 += e * xi;
      h00 += w;
      h01 += w * xi;
      h11 += w * xi * xi;
    }
    const det = h00 * h11 - h01 * h01;
    if (!(det > 0)) return null;
    const da = (h11 * g0 - h01 * g1) / det;
    const db = (h00 * g1 - h01 * g0) / det;
    a += da;
    b += db;
    if (!Number.isFinite(a) || !Number.isFinite(b) || Math.abs(b) > 1e3) return null; // separated: no finite fit
    if (Math.abs(da) < 1e-10 && Math.abs(db) < 1e-10) break;
  }
  const det = h00 * h11 - h01 * h01;
  const seA = Math.sqrt(h11 / det);
  const seB = Math.sqrt(h00 / det);
  return {
    intercept: a,
    interceptInterval: { lo: a - Z95 * seA, hi: a + Z95 * seA },
    slope: b,
    slopeInterval: { lo: b - Z95 * seB, hi: b + Z95 * seB },
    iterations: it + 1,
  };
}
