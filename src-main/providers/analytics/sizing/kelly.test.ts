import { describe, expect, it } from 'vitest';
import { continuousGrowth, continuousKelly, kelly } from './kelly';

describe('Kelly sizing', () => {
  it('Kelly (1956): an even-money bet won with p = 0.6 is sized at p − q = 20%, growing capital 1 + p·log2 p + q·log2 q = 0.029 bits a bet', () => {
    // G = 0.6·ln 1.2 + 0.4·ln 0.8 = 0.109393 − 0.089257 = 0.020136 nats = 0.029049 bits (÷ ln 2).
    const r = kelly({ probability: 0.6, odds: 1 }, 1);
    expect(r.fullKelly).toBeCloseTo(0.2, 12);
    expect(r.growthFull / Math.LN2).toBeCloseTo(1 + 0.6 * Math.log2(0.6) + 0.4 * Math.log2(0.4), 12);
    expect(r.growthFull / Math.LN2).toBeCloseTo(0.029049, 6);
    expect(r.reason).toBeNull();
  });

  it('Thorp (2006): with net odds b the fraction is (bp − q)/b — p = 0.5 at 2-to-1 gives 25%, half Kelly 12.5%', () => {
    const r = kelly({ probability: 0.5, odds: 2 });
    expect(r.fullKelly).toBeCloseTo(0.25, 12);
    expect(r.fraction).toBe(0.5);
    expect(r.recommended).toBeCloseTo(0.125, 12);
    // Half Kelly keeps about 3/4 of the growth: G(f) = ½ln(1 + 2f) + ½ln(1 − f);
    // G(0.125) = ½(0.223144 − 0.133531) = 0.044806, G(0.25) = ½(0.405465 − 0.287682) = 0.058892 → 0.7608.
    expect(r.growthRecommended / r.growthFull).toBeCloseTo(0.7608, 4);
  });

  it('outcomes form: +20% / −10% at 50/50 is 2.5× capital (Σ p·r/(1 + f·r) = 0 → 0.1(1 − 0.1f) = 0.05(1 + 0.2f) → f = 2.5)', () => {
    const r = kelly(
      {
        outcomes: [
          { probability: 0.5, return: 0.2 },
          { probability: 0.5, return: -0.1 },
        ],
      },
      0.25,
    );
    expect(r.fullKelly).toBeCloseTo(2.5, 10);
    expect(r.recommended).toBeCloseTo(0.625, 10);
    expect(r.edge).toBeCloseTo(0.05, 15);
  });

  it('the binary form is the outcomes form: same size, same validation', () => {
    const binary = kelly({ probability: 0.55, odds: 2, loss: 1 });
    const outcomes = kelly({
      outcomes: [
        { probability: 0.55, return: 2 },
        { probability: 0.45, return: -1 },
      ],
    });
    expect(binary.fullKelly).toBeCloseTo(outcomes.fullKelly, 12);
    expect(binary.fullKelly).toBeCloseTo(0.55 - 0.45 / 2, 12); // p/loss − q/odds = 0.325
    // A sure win is a no-loss outcome set in both forms: an error, not an infinite bet.
    expect(() => kelly({ probability: 1, odds: 1 })).toThrow(/no outcome with a positive probability loses money/);
    expect(() =>
      kelly({
        outcomes: [
          { probability: 0.7, return: 0.1 },
          { probability: 0.3, return: 0 },
        ],
      }),
    ).toThrow(/no outcome with a positive probability loses money/);
  });

  it('no positive edge: size 0 with the reason, in both forms', () => {
    // edge = 0.4·1 − 0.6·1 = −0.2
    const r = kelly({ probability: 0.4, odds: 1 });
    expect(r.fullKelly).toBe(0);
    expect(r.recommended).toBe(0);
    expect(r.reason).toMatch(/no positive expected edge \(expected return -0.2 per unit\)/);
    const fair = kelly({
      outcomes: [
        { probability: 0.5, return: 0.1 },
        { probability: 0.5, return: -0.1 },
      ],
    });
    expect(fair.fullKelly).toBe(0);
    expect(fair.reason).toMatch(/no positive expected edge/);
  });

  it('refuses probabilities outside [0, 1] or not summing to 1, naming them', () => {
    expect(() => kelly({ probability: 1.2, odds: 1 })).toThrow(/probability is 1.2; probabilities lie between 0 and 1/);
    expect(() =>
      kelly({
        outcomes: [
          { probability: 0.5, return: 0.1 },
          { probability: 0.4, return: -0.1 },
        ],
      }),
    ).toThrow(/outcome probabilities sum to 0.9; they must sum to 1/);
    expect(() => kelly({ probability: 0.6, odds: 0 })).toThrow(/odds must be positive/);
    // A loss typed as a percent (10 for 10%) is refused in both forms with the same rule.
    expect(() => kelly({ probability: 0.6, odds: 1, loss: 10 })).toThrow(/loss 10 loses more than the capital deployed/);
    expect(() =>
      kelly({
        outcomes: [
          { probability: 0.6, return: 0.1 },
          { probability: 0.4, return: -10 },
        ],
      }),
    ).toThrow(/outcomes\[1\]\.return -10 loses more than the capital deployed/);
    expect(() => kelly({ probability: 0.6, odds: 1 }, 1.5)).toThrow(/Kelly fraction must be in \(0, 1\]/);
  });
});

describe('continuous Kelly', () => {
  it('Thorp (2006) §7: μ = 11%, σ = 20%, r = 6% → f* = 0.05/0.04 = 1.25 (leveraged), growth r + (μ − r)²/(2σ²) = 9.125%', () => {
    const r = continuousKelly({ mean: 0.11, vol: 0.2, rate: 0.06 }, 1);
    expect(r.fullKelly).toBeCloseTo(1.25, 12);
    expect(r.growthFull).toBeCloseTo(0.09125, 12);
    expect(r.reason).toBeNull();
    // Half Kelly keeps 3/4 of the excess growth: g(f*/2) − r = (1/2 − 1/8)·(μ − r)²/σ² = 0.375 × 0.0625 = 0.0234375.
    const half = continuousKelly({ mean: 0.11, vol: 0.2, rate: 0.06 });
    expect(half.recommended).toBeCloseTo(0.625, 12);
    expect(half.growthRecommended).toBeCloseTo(0.06 + 0.0234375, 12);
  });

  it('f* maximises g(f) = r + f(μ − r) − f²σ²/2: nearby sizes grow slower', () => {
    const r = continuousKelly({ mean: 0.08, vol: 0.15, rate: 0.02 }, 1);
    expect(r.fullKelly).toBeCloseTo(0.06 / 0.0225, 12);
    expect(continuousGrowth(0.08, 0.15, 0.02, r.fullKelly * 1.01)).toBeLessThan(r.growthFull);
    expect(continuousGrowth(0.08, 0.15, 0.02, r.fullKelly * 0.99)).toBeLessThan(r.growthFull);
  });

  it('no excess return → size 0 with the reason; a vol typed as a percent is refused', () => {
    const r = continuousKelly({ mean: 0.03, vol: 0.2, rate: 0.04 });
    expect(r.fullKelly).toBe(0);
    expect(r.reason).toMatch(/no positive excess return \(μ − r = -0.01\)/);
    expect(() => continuousKelly({ mean: 0.08, vol: 20, rate: 0.02 })).toThrow(/vol must be a positive decimal/);
    expect(() => continuousKelly({ mean: 0.08, vol: 0, rate: 0.02 })).toThrow(/vol must be a positive decimal/);
  });
});
