import { describe, expect, it } from 'vitest';
import { scenarioStats } from './scenario-tree';

describe('scenario trees', () => {
  it('flat tree: 60% at +10, 40% at −5 → expectation 4, variance 54, median +10', () => {
    // E = 0.6·10 − 0.4·5 = 4; E[v²] = 60 + 10 = 70; var = 70 − 16 = 54. Cumulative: −5 holds 40%, +10 the rest → p50 = 10, p25 = −5.
    const s = scenarioStats([
      { name: 'up', probability: 0.6, value: 10 },
      { name: 'down', probability: 0.4, value: -5 },
    ]);
    expect(s.expected).toBeCloseTo(4, 12);
    expect(s.variance).toBeCloseTo(54, 12);
    expect(s.stdev).toBeCloseTo(Math.sqrt(54), 12);
    expect(s.percentiles).toEqual([
      { p: 5, value: -5 },
      { p: 25, value: -5 },
      { p: 50, value: 10 },
      { p: 75, value: 10 },
      { p: 95, value: 10 },
    ]);
    expect(s.probabilityNegative).toBeCloseTo(0.4, 15);
  });

  it('nested branches multiply: A (50%) splits 50/50 into 20 and 0, B (50%) is −10 → leaves 25%, 25%, 50%; EV 0, variance 150', () => {
    const s = scenarioStats(
      [
        {
          name: 'A',
          probability: 0.5,
          children: [
            { name: 'A1', probability: 0.5, value: 20 },
            { name: 'A2', probability: 0.5, value: 0 },
          ],
        },
        { name: 'B', probability: 0.5, value: -10 },
      ],
      [50, 60, 80],
    );
    expect(s.leaves.map((l) => [l.path, l.probability])).toEqual([
      ['A > A1', 0.25],
      ['A > A2', 0.25],
      ['B', 0.5],
    ]);
    expect(s.expected).toBeCloseTo(0, 12);
    expect(s.variance).toBeCloseTo(150, 12); // 0.25·400 + 0.5·100
    // Sorted: −10 (0.5), 0 (0.75), 20 (1.0). p50 = −10 (cumulative reaches exactly 0.5), p60 = 0, p80 = 20.
    expect(s.percentiles.map((p) => p.value)).toEqual([-10, 0, 20]);
    expect(s.worst.path).toBe('B');
    expect(s.best.path).toBe('A > A1');
  });

  it('validates probabilities: non-negative, each branch summing to 1 within 1e-9, naming the branch', () => {
    expect(() =>
      scenarioStats([
        {
          name: 'A',
          probability: 1,
          children: [
            { name: 'A1', probability: 0.5, value: 1 },
            { name: 'A2', probability: 0.4, value: 2 },
          ],
        },
      ]),
    ).toThrow(/the branches under "A" have probabilities that sum to 0.9; they must sum to 1/);
    expect(() =>
      scenarioStats([
        { name: 'x', probability: 1.2, value: 1 },
        { name: 'y', probability: -0.2, value: 1 },
      ]),
    ).toThrow(/"x" has probability 1.2; probabilities lie between 0 and 1/);
    // 0.1 + 0.2 + 0.7 = 1.0000000000000002 in floating point: within the 1e-9 tolerance.
    expect(scenarioStats([0.1, 0.2, 0.7].map((p, i) => ({ name: `s${i}`, probability: p, value: i }))).expected).toBeCloseTo(1.6, 12);
    // 1 + 2e-9 is outside it.
    expect(() =>
      scenarioStats([
        { name: 'a', probability: 0.5 + 2e-9, value: 1 },
        { name: 'b', probability: 0.5, value: 2 },
      ]),
    ).toThrow(/top-level scenarios have probabilities that sum to 1.000000002; they must sum to 1/);
    expect(() => scenarioStats([{ name: 'a', probability: 1 }])).toThrow(/"a" must have either a value \(a leaf\) or children \(a branch\), not neither/);
  });
});
