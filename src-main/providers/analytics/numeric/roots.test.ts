import { describe, expect, it } from 'vitest';
import { brentRoot, goldenMin } from './roots';

describe('root finding and minimisation', () => {
  it('Brent finds the cube root of 2 to 1e-14 in a handful of steps', () => {
    const r = brentRoot((x) => x ** 3 - 2, 0, 2)!;
    expect(r.root).toBeCloseTo(Math.cbrt(2), 14);
    expect(r.iterations).toBeLessThan(15);
  });

  it('Brent returns null when the bracket does not straddle a root', () => {
    expect(brentRoot((x) => x * x + 1, -1, 1)).toBeNull();
  });

  it('golden-section search finds the minimum of a parabola', () => {
    const m = goldenMin((x) => (x - 1.234) ** 2 + 5, -10, 10, 1e-10);
    // A minimum is located only to about √ε·|x| ≈ 1e-8: the function is flat to machine precision there.
    expect(m.x).toBeCloseTo(1.234, 7);
    expect(m.value).toBeCloseTo(5, 12);
  });
});
