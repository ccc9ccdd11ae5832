import { describe, expect, it } from 'vitest';
import { seededRng } from '../numeric/random';
import { fitAr1, meanReversion, rollingZScores, spreadOf } from './zscore';

function randomWalk(rng: ReturnType<typeof seededRng>, n: number): number[] {
  const y = [100];
  for (let t = 1; t < n; t++) y.push(y[t - 1]! + rng.normal());
  return y;
}

function ar1(rng: ReturnType<typeof seededRng>, n: number, phi: number): number[] {
  // Started from its stationary distribution (sd 1/√(1 − φ²)) around a level of 50.
  let x = rng.normal() / Math.sqrt(1 - phi * phi);
  const y: number[] = [];
  for (let t = 0; t < n; t++) {
    y.push(50 + x);
    x = phi * x + rng.normal();
  }
  return y;
}

describe('spread z-score, AR(1) half-life and the ADF rule', () => {
  it('of 200 simulated random walks (n = 250) at most 10% are called mean-reverting; the old |φ| < 1 rule called nearly all of them', () => {
    // Without the unit-root test a random walk's φ̂ (biased below 1) gives a finite half-life and the
    // PM is told a trending spread will revert. The test's size at 5% is about 5%: ~10 of 200.
    const rng = seededRng(20240611);
    let called = 0;
    let oldRule = 0;
    for (let i = 0; i < 200; i++) {
      const r = meanReversion(randomWalk(rng, 250));
      if (r.meanReverting) called++;
      if (r.ar1.halfLife !== null) oldRule++;
    }
    expect(called).toBeLessThanOrEqual(20);
    expect(oldRule).toBeGreaterThan(150);
  });

  it('of 200 simulated AR(1) spreads with φ = 0.8 (n = 250) at least 90% are called mean-reverting, with half-lives near ln ½ / ln 0.8 = 3.1', () => {
    const rng = seededRng(8);
    let called = 0;
    const halfLives: number[] = [];
    for (let i = 0; i < 200; i++) {
      const r = meanReversion(ar1(rng, 250, 0.8));
      if (r.meanReverting) called++;
      halfLives.push(r.ar1.halfLife!);
    }
    expect(called).toBeGreaterThanOrEqual(180);
    halfLives.sort((a, b) => a - b);
    expect(halfLives[100]!).toBeGreaterThan(2.5);
    expect(halfLives[100]!).toBeLessThan(3.5);
  });

  it('AR(1): a spread keeping 80% of its deviation each period halves in ln 0.5 / ln 0.8 = 3.1063 periods', () => {
    // s_t = 0.8·s_{t−1} exactly: φ = 0.8, intercept 0.
    const fit = fitAr1([100, 80, 64, 51.2, 40.96]);
    expect(fit.phi).toBeCloseTo(0.8, 12);
    expect(fit.halfLife).toBeCloseTo(3.10628, 5);
    // Five points are too few for a unit-root test, so reversion is not claimed however clean φ looks.
    const r = meanReversion([100, 80, 64, 51.2, 40.96]);
    expect(r.meanReverting).toBe(false);
    expect(r.adf).toBeNull();
    expect(r.notes[0]).toMatch(/too few for a unit-root test/);
  });

  it('z-score, percentile and rolling z: series 1..5 has z 1.2649 at 5; a window of 3 gives z = 1 at each new high', () => {
    // mean 3, sample sd √2.5 = 1.5811 → z = 2/1.5811 = 1.2649. Window 3 on (k−2, k−1, k): mean k−1, sd 1 → z = 1.
    const r = meanReversion([1, 2, 3, 4, 5], { window: 3 });
    expect(r.z).toBeCloseTo(1.264911, 6);
    expect(r.percentile).toBe(100);
    expect(r.rolling!.z).toEqual([null, null, 1, 1, 1]);
    // [2, 2, 2] does not move (no z); [2, 2, 5]: mean 3, sd √3 → z = 2/√3 = 1.1547.
    const z = rollingZScores([2, 2, 2, 5], 3);
    expect(z.slice(0, 3)).toEqual([null, null, null]);
    expect(z[3]).toBeCloseTo(2 / Math.sqrt(3), 12);
  });

  it('pair spread: a = 2b + noise gives a least-squares hedge ratio of 1.982857', () => {
    // b = 1..6, noise ±0.1 alternating: slope = (2·17.5 − 0.3)/17.5 = 1.982857
    const b = [1, 2, 3, 4, 5, 6];
    const a = b.map((x, i) => 2 * x + (i % 2 === 0 ? 0.1 : -0.1));
    expect(spreadOf(a, b, 'ols').hedgeRatio).toBeCloseTo(1.982857, 6);
    expect(() => spreadOf([1, 2, 3], [1, 2, 3, 4])).toThrow(/must align/);
  });

  it('says why reversion is not claimed when ADF does not reject', () => {
    const r = meanReversion(randomWalk(seededRng(3), 300));
    if (r.meanReverting) throw new Error('seed 3 should give a walk the test does not reject');
    expect(r.notes.some((n) => /ADF does not reject a unit root at 5%/.test(n))).toBe(true);
    expect(() => meanReversion([1, 2, 3], { level: '2%' as never })).toThrow(/level must be one of 1%, 5%, 10%/);
  });
});
