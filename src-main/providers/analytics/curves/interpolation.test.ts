import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linearInterpolator, monotoneCubicInterpolator, monotoneSlopes } from './interpolation';

const nodes = fc
  .uniqueArray(fc.double({ min: 0.01, max: 50, noNaN: true }), { minLength: 2, maxLength: 25, comparator: (a, b) => Math.abs(a - b) < 1e-3 })
  .map((xs) => xs.sort((a, b) => a - b));

describe('curve interpolation', () => {
  it('linear: halfway between 2y 3% and 5y 4.5% at 3.5y is 3.75%; flat outside the nodes', () => {
    const f = linearInterpolator([2, 5], [0.03, 0.045]);
    expect(f(3.5)).toBeCloseTo(0.0375, 15);
    expect(f(0.5)).toBe(0.03);
    expect(f(30)).toBe(0.045);
  });

  it('property: both methods pass through every node', () => {
    fc.assert(
      fc.property(
        nodes.chain((xs) =>
          fc.tuple(fc.constant(xs), fc.array(fc.double({ min: -0.05, max: 0.2, noNaN: true }), { minLength: xs.length, maxLength: xs.length })),
        ),
        ([xs, ys]) => {
          const lin = linearInterpolator(xs, ys);
          const mono = monotoneCubicInterpolator(xs, ys);
          xs.forEach((x, i) => {
            expect(lin(x)).toBeCloseTo(ys[i]!, 14);
            expect(mono(x)).toBeCloseTo(ys[i]!, 14);
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('property: monotone cubic stays monotone (no overshoot) on monotone data — Fritsch & Carlson (1980), Hyman (1983)', () => {
    fc.assert(
      fc.property(
        nodes.chain((xs) => fc.tuple(fc.constant(xs), fc.array(fc.double({ min: 0, max: 0.02, noNaN: true }), { minLength: xs.length, maxLength: xs.length }))),
        fc.boolean(),
        ([xs, steps], rising) => {
          // Cumulative sums of non-negative steps: a rising (or, flipped, falling) curve with flat stretches.
          let acc = 0;
          const ys = steps.map((s) => (acc += rising ? s : -s));
          const f = monotoneCubicInterpolator(xs, ys);
          let prev = f(xs[0]!);
          const lo = xs[0]!;
          const hi = xs[xs.length - 1]!;
          let worstReversal = 0;
          for (let k = 1; k <= 400; k++) {
            const y = f(lo + ((hi - lo) * k) / 400);
            worstReversal = Math.max(worstReversal, rising ? prev - y : y - prev);
            prev = y;
          }
          expect(worstReversal).toBeLessThanOrEqual(1e-15);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a plain cubic would overshoot this step; the monotone one does not', () => {
    // Data flat, then a jump, then flat: slopes at the flat nodes are forced to 0.
    const xs = [0, 1, 2, 3, 4];
    const ys = [0, 0, 1, 1, 1];
    expect(monotoneSlopes(xs, ys)).toEqual([0, 0, 0, 0, 0]);
    const f = monotoneCubicInterpolator(xs, ys);
    for (let x = 0; x <= 4; x += 0.01) {
      expect(f(x)).toBeGreaterThanOrEqual(0);
      expect(f(x)).toBeLessThanOrEqual(1);
    }
  });

  it('refuses maturities that do not increase and mismatched lengths', () => {
    expect(() => linearInterpolator([1, 1], [0.01, 0.02])).toThrow(/maturities must increase strictly/);
    expect(() => monotoneCubicInterpolator([1, 2], [0.01])).toThrow(/2 maturities and 1 values/);
  });
});
