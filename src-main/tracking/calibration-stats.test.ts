import { describe, expect, it } from 'vitest';
import { binIndex, binomial, bootstrapCells, cellsOf, decompose, type Interval, logisticRecalibration } from './calibration-stats';
import { seededRng } from '../providers/analytics/numeric/random';
import { normQuantile as normalQuantile } from '../providers/analytics/risk/var';

/**
 * If these fail, the Calibration screen, the category files and the analyst's prompt quote
 * decomposition figures and intervals that are wrong — a PM would be told a coin-flipper "matches"
 * or a calibrated record is "overconfident".
 */

const covers = (i: Interval, v: number) => i.lo <= v && v <= i.hi;

describe('decompose — hand-computed', () => {
  it('ten forecasts at 0.2 and 0.8: Brier, plain and bias-corrected REL/RES/UNC as worked by hand', () => {
    // 5 forecasts of 0.2 with 1 hit; 5 of 0.8 with 3 hits. N = 10, ō = 0.4.
    // BS = [0.64 + 4·0.04 + 3·0.04 + 2·0.64]/10 = 0.22.
    // Plain: REL = 5·(0.8 − 0.6)²/10 = 0.02; RES = [5·0.04 + 5·0.04]/10 = 0.04; UNC = 0.24 → 0.02 − 0.04 + 0.24 = 0.22.
    // Ferro–Fricker noise = [5·0.2·0.8/4 + 5·0.6·0.4/4]/10 = 0.05:
    // REL = −0.03, RES = 0.04 − 0.05 + 0.24/9 = 0.016667, UNC = 10·0.24/9 = 0.266667.
    const ps = [0.2, 0.2, 0.2, 0.2, 0.2, 0.8, 0.8, 0.8, 0.8, 0.8];
    const ys = [1, 0, 0, 0, 0, 1, 1, 1, 0, 0];
    const d = decompose(cellsOf(ps, ys, 10));
    expect(d.n).toBe(10);
    expect(d.brier).toBeCloseTo(0.22, 10);
    expect(d.reliability).toBeCloseTo(-0.03, 10);
    expect(d.resolution).toBeCloseTo(0.04 - 0.05 + 0.24 / 9, 10);
    expect(d.uncertainty).toBeCloseTo(2.4 / 9, 10);
    // One forecast value per bin: nothing is lost to binning.
    expect(d.withinBin).toBeCloseTo(0, 10);
  });

  it('within-bin term: 0.1 and 0.19 share a bin, and WBV − WBC is what the bin mean leaves out', () => {
    // Bin 1 holds p = 0.1 (miss) and 0.19 (hit): p̄ = 0.145, ō = 0.5. BS = (0.01 + 0.6561)/2 = 0.33305.
    // WBV = (0.045² + 0.045²)/2 = 0.002025; WBC = 2·[(−0.5)(−0.045) + (0.5)(0.045)]/2 = 0.045.
    const d = decompose(cellsOf([0.1, 0.19], [0, 1], 10));
    expect(d.brier).toBeCloseTo(0.33305, 10);
    expect(d.withinBin).toBeCloseTo(0.002025 - 0.045, 10);
    expect(d.reliability - d.resolution + d.uncertainty + d.withinBin).toBeCloseTo(d.brier, 12);
  });

  it('bins are equal over [0, 1], lower bound inclusive and 1.0 in the top bin', () => {
    expect([0, 0.0999, 0.1, 0.2, 0.49, 0.5, 0.7, 0.9999, 1].map((p) => binIndex(p, 10))).toEqual([0, 0, 1, 2, 4, 5, 7, 9, 9]);
    expect(binIndex(0.5, 5)).toBe(2);
  });

  it('normal quantiles behind the family-wise band intervals: 1.96 at 97.5%, 2.807 at 1 − 0.025/10', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.9975)).toBeCloseTo(2.807034, 5);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 10);
  });

  it('binomial draws have the right mean on both the exact and the approximate path', () => {
    const rand = seededRng(5).uniform;
    for (const [n, q] of [
      [40, 0.1],
      [5000, 0.3],
    ] as const) {
      let s = 0;
      for (let i = 0; i < 4000; i++) s += binomial(n, q, rand);
      expect(s / 4000 / n).toBeCloseTo(q, 2);
    }
  });
});

// ---- three seeded sets of 10,000 forecasts, against values derived analytically -----------------

const N = 10_000;
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
const logit = (p: number) => Math.log(p / (1 - p));

function seeded(kind: 'calibrated' | 'no_skill' | 'overconfident', seed: number): { ps: Float64Array; ys: Uint8Array } {
  const rand = seededRng(seed).uniform;
  const ps = new Float64Array(N);
  const ys = new Uint8Array(N);
  for (let i = 0; i < N; i++) {
    const q = rand();
    const p = kind === 'overconfident' ? sigmoid(2 * logit(q)) : q;
    const truth = kind === 'no_skill' ? 0.5 : q;
    ps[i] = p;
    ys[i] = rand() < truth ? 1 : 0;
  }
  return { ps, ys };
}

/** Simpson's rule on [a, b]. */
function integrate(f: (x: number) => number, a: number, b: number, m = 2000): number {
  const h = (b - a) / m;
  let s = f(a) + f(b);
  for (let i = 1; i < m; i++) s += f(a + i * h) * (i % 2 ? 4 : 2);
  return (s * h) / 3;
}

/**
 * Population values with ten bins.
 * Calibrated (p ~ U(0,1), y ~ Bernoulli(p)): bin k has p̄ₖ = ōₖ = (k + ½)/10, so REL = 0,
 * RES = Var of the bin midpoints = 1/12 − 1/1200 = 0.0825, UNC = ¼, BS = E[p(1 − p)] = 1/6;
 * WBV = 1/1200 and WBC = 2/1200 (E[o|p] = p), so WBV − WBC = −1/1200.
 * No skill (y ~ Bernoulli(½)): ōₖ = ½, RES = 0, REL = 0.0825, UNC = ¼, BS = E[p²] − E[p] + ½ = 1/3.
 * Twice overconfident (q ~ U(0,1), p = s(q) = q²/(q² + (1 − q)²), y ~ Bernoulli(q)): bin k in q is
 * [g(k/10), g((k+1)/10)) with g(p) = √p/(√p + √(1 − p)); wₖ its width, ōₖ = ∫q/wₖ, p̄ₖ = ∫s(q)/wₖ;
 * REL = Σ wₖ(p̄ₖ − ōₖ)², RES = Σ wₖ(ōₖ − ½)², UNC = ¼, BS = ∫(s² − 2sq + q) dq. Slope exactly ½.
 */
function analytic(kind: 'calibrated' | 'no_skill' | 'overconfident') {
  if (kind === 'calibrated') return { reliability: 0, resolution: 0.0825, uncertainty: 0.25, brier: 1 / 6, slope: 1 };
  if (kind === 'no_skill') return { reliability: 0.0825, resolution: 0, uncertainty: 0.25, brier: 1 / 3, slope: 0 };
  const s = (q: number) => (q * q) / (q * q + (1 - q) ** 2);
  const g = (p: number) => Math.sqrt(p) / (Math.sqrt(p) + Math.sqrt(1 - p));
  let reliability = 0;
  let resolution = 0;
  for (let k = 0; k < 10; k++) {
    const lo = g(k / 10);
    const hi = g((k + 1) / 10);
    const w = hi - lo;
    const o = (hi * hi - lo * lo) / 2 / w;
    const p = integrate(s, lo, hi) / w;
    reliability += w * (p - o) ** 2;
    resolution += w * (o - 0.5) ** 2;
  }
  const brier = integrate((q) => s(q) ** 2 - 2 * s(q) * q + q, 0, 1);
  return { reliability, resolution, uncertainty: 0.25, brier, slope: 0.5 };
}

describe.each([
  ['calibrated', 101],
  ['no_skill', 202],
  ['overconfident', 303],
] as const)('%s set of 10,000 seeded forecasts', (kind, seed) => {
  const { ps, ys } = seeded(kind, seed);
  const cells = cellsOf(ps, ys, 10);
  const d = decompose(cells);
  const boot = bootstrapCells(cells, { resamples: 1000, seed: 7 });
  const truth = analytic(kind);

  it('decomposition within ±0.005 of its analytic value', () => {
    expect(Math.abs(d.reliability - truth.reliability)).toBeLessThan(0.005);
    expect(Math.abs(d.resolution - truth.resolution)).toBeLessThan(0.005);
    expect(Math.abs(d.uncertainty - truth.uncertainty)).toBeLessThan(0.005);
    expect(Math.abs(d.brier - truth.brier)).toBeLessThan(0.005);
  });

  it('bootstrap 95% intervals cover the analytic values', () => {
    expect(covers(boot.brier, truth.brier), `Brier ${JSON.stringify(boot.brier)} vs ${truth.brier}`).toBe(true);
    expect(covers(boot.reliability, truth.reliability), `REL ${JSON.stringify(boot.reliability)} vs ${truth.reliability}`).toBe(true);
    expect(covers(boot.resolution, truth.resolution), `RES ${JSON.stringify(boot.resolution)} vs ${truth.resolution}`).toBe(true);
    expect(covers(boot.uncertainty, truth.uncertainty), `UNC ${JSON.stringify(boot.uncertainty)} vs ${truth.uncertainty}`).toBe(true);
  });

  it('the same seed gives the same intervals (reproducible words)', () => {
    expect(bootstrapCells(cells, { resamples: 1000, seed: 7 })).toEqual(boot);
  });

  it('calibration slope from logistic recalibration, with a Wald interval covering the true slope', () => {
    const fit = logisticRecalibration(ps, ys);
    expect(fit).not.toBeNull();
    expect(Math.abs(fit!.slope - truth.slope)).toBeLessThan(0.08);
    expect(covers(fit!.slopeInterval, truth.slope), `slope ${JSON.stringify(fit!.slopeInterval)} vs ${truth.slope}`).toBe(true);
    // The true intercept is 0 in all three; a 95% interval misses it 1 time in 20 (the no-skill draw
    // has 51% hits), so only its size is checked here.
    expect(Math.abs(fit!.intercept)).toBeLessThan(0.1);
  });
});

describe('logisticRecalibration edge cases', () => {
  it('refuses to fit when every forecast hit (the slope would run to infinity)', () => {
    expect(logisticRecalibration([0.6, 0.7, 0.8], [1, 1, 1])).toBeNull();
  });
});
