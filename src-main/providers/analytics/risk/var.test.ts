import { describe, expect, it } from 'vitest';
import { historicalVar, normalVar, normQuantile, sampleMoments } from './var';

// Twenty daily returns in percent. As losses (L = −return) sorted ascending, the worst three are
// L(18) = 2.5, L(19) = 3.1, L(20) = 4.2 (returns −2.5%, −3.1%, −4.2%).
const RETURNS_PCT = [0.5, -1.2, 0.3, -2.5, 1.1, -0.4, 0.8, -3.1, 0.2, -0.7, 1.5, -1.8, 0.6, -0.1, 0.9, -4.2, 0.4, -0.9, 1.2, -0.3];
const returns = RETURNS_PCT.map((x) => x / 100);

describe('value at risk and expected shortfall', () => {
  it('normal quantile: z at 95%, 99% and 99.9% to 1e-9 (a wrong z would misstate every parametric VaR)', () => {
    expect(normQuantile(0.95)).toBeCloseTo(1.6448536269514722, 9);
    expect(normQuantile(0.99)).toBeCloseTo(2.3263478740408408, 9);
    expect(normQuantile(0.999)).toBeCloseTo(3.090232306167813, 9);
    expect(normQuantile(0.01)).toBeCloseTo(-2.3263478740408408, 9);
    expect(normQuantile(0.5)).toBeCloseTo(0, 12);
  });

  it('Hull (Risk Management and Financial Institutions): 10-day P&L N(0, $20m²) → 99% VaR $46.5m, ES $53.3m', () => {
    // VaR = 20 × 2.3263 = 46.527; ES = 20 × e^{−2.3263²/2} / (√(2π) × 0.01) = 20 × 2.66521 = 53.304.
    const r = normalVar(0, 20, 0.99);
    expect(r.var).toBeCloseTo(46.52696, 4);
    expect(r.es).toBeCloseTo(53.30428, 4);
    expect(r.z).toBeCloseTo(2.326348, 6);
  });

  it('Hull: a $10m position with daily σ = 2% has a 1-day 99% VaR of about $465,300; a positive mean lowers VaR by μ', () => {
    const r = normalVar(0, 0.02, 0.99, 10_000_000);
    expect(r.var).toBeCloseTo(465_269.57, 1);
    // Mean +$2m, σ $10m over six months: VaR = 10 × 2.326 − 2 = $21.26m (loss positive: −μ + σz).
    expect(normalVar(2, 10, 0.99).var).toBeCloseTo(21.26348, 4);
    expect(normalVar(2, 10, 0.99).es).toBeCloseTo(24.65214, 4);
  });

  it('historical, whole n·α: 20 returns at 90% → VaR is L(18) = 2.5%, ES the mean of the 2 worst = 3.65%', () => {
    const r = historicalVar(returns, 0.9);
    expect(r.k).toBe(18);
    expect(r.tailCount).toBe(2);
    expect(r.var).toBeCloseTo(0.025, 12);
    expect(r.es).toBeCloseTo(0.0365, 12);
    expect(r.rule).toMatch(/k = ⌈n·α⌉/);
    const r95 = historicalVar(returns, 0.95);
    expect(r95.var).toBeCloseTo(0.031, 12); // L(19)
    expect(r95.es).toBeCloseTo(0.042, 12); // L(20) alone
  });

  it('historical, fractional n·α: at 92.5%, n·α = 18.5 → k = 19, VaR 3.1%, ES = (4.2 + 0.5 × 3.1)/1.5 = 3.8333%', () => {
    const r = historicalVar(returns, 0.925);
    expect(r.k).toBe(19);
    expect(r.var).toBeCloseTo(0.031, 12);
    expect(r.es).toBeCloseTo(0.0575 / 1.5, 12);
    // Order does not matter, and the position size scales both.
    const shuffled = [...returns].reverse();
    expect(historicalVar(shuffled, 0.925, 1_000_000).var).toBeCloseTo(31_000, 6);
  });

  it('the normal fit to the same returns uses the sample mean and the n − 1 stdev', () => {
    const m = sampleMoments(returns);
    // Gains sum to 7.5%, losses to 15.2%: Σ = −7.7% → mean −0.385%.
    expect(m.mean).toBeCloseTo(-0.00385, 12);
    const ss = returns.reduce((s, x) => s + (x + 0.00385) ** 2, 0);
    expect(m.stdev).toBeCloseTo(Math.sqrt(ss / 19), 14);
  });

  it('refuses a confidence outside (0.5, 1), a sample too short for the tail, and a non-positive stdev', () => {
    expect(() => historicalVar(returns, 99)).toThrow(/confidence must be between 0.5 and 1/);
    expect(() => historicalVar(returns, 0.99)).toThrow(/20 returns cannot estimate a 99% historical VaR.*at least 100/);
    expect(() => historicalVar([0.1, 0.2], 0.9)).toThrow(/returns needs at least 10 values/);
    expect(() => normalVar(0, 0, 0.99)).toThrow(/stdev must be positive/);
    expect(() => normalVar(0, 0.02, 0.99, -5)).toThrow(/value \(the position size\) must be positive/);
  });
});
