import { describe, expect, it } from 'vitest';
import { decimalsFor, extent, linePath, linearScale, niceAxis, niceStep } from './chart';

describe('chart scaling', () => {
  it('maps data onto pixels, with y flipped when the range runs downward', () => {
    const sx = linearScale([0, 30], [60, 622]);
    expect(sx(0)).toBe(60);
    expect(sx(30)).toBe(622);
    expect(sx(15)).toBe(341);
    const sy = linearScale([4, 5], [256, 14]);
    expect(sy(4)).toBe(256);
    expect(sy(5)).toBe(14);
  });

  it('puts a flat series in the middle instead of dividing by zero', () => {
    expect(linearScale([3, 3], [0, 100])(3)).toBe(50);
  });

  it('finds the extent over every series, skipping gaps (a fit not run gives NaN)', () => {
    expect(
      extent([
        [
          { x: 0.5, y: 4.7 },
          { x: 30, y: Number.NaN },
        ],
        [{ x: 10, y: 4.1 }],
      ]),
    ).toEqual({ x: [0.5, 10], y: [4.1, 4.7] });
    expect(extent([[{ x: Number.NaN, y: 1 }], []])).toBeNull();
  });

  it('chooses round steps: 1, 2, 2.5 or 5 times a power of ten', () => {
    expect(niceStep(30, 6)).toBe(5);
    expect(niceStep(0.6, 5)).toBe(0.2);
    expect(niceStep(100, 5)).toBe(20);
    expect(niceStep(1, 4)).toBe(0.25);
    expect(niceStep(0, 5)).toBe(1);
  });

  it('widens the axis to round ticks that cover the data, without float noise', () => {
    // Zero rates between 4.04% and 4.75%: the axis should read 4.0 … 4.8, not 4.0400001.
    const axis = niceAxis([4.04, 4.75], 5);
    expect(axis.step).toBe(0.2);
    expect(axis.domain).toEqual([4, 4.8]);
    expect(axis.ticks).toEqual([4, 4.2, 4.4, 4.6, 4.8]);
    expect(axis.ticks[0]!).toBeLessThanOrEqual(4.04);
    expect(axis.ticks.at(-1)!).toBeGreaterThanOrEqual(4.75);
    const spots = niceAxis([60, 140], 6);
    expect(spots.ticks).toEqual([60, 80, 100, 120, 140]);
  });

  it('gives a flat line room above and below', () => {
    const axis = niceAxis([10, 10], 5);
    expect(axis.domain[0]).toBeLessThan(10);
    expect(axis.domain[1]).toBeGreaterThan(10);
  });

  it('labels ticks with just enough decimals to tell them apart', () => {
    expect(decimalsFor(5)).toBe(0);
    expect(decimalsFor(0.5)).toBe(1);
    expect(decimalsFor(0.25)).toBe(2);
    expect(decimalsFor(0.2)).toBe(1);
  });

  it('draws a line as one path, breaking it where a value is missing', () => {
    const id = (v: number) => v;
    expect(
      linePath(
        [
          { x: 0, y: 1 },
          { x: 1, y: 2 },
          { x: 2, y: Number.NaN },
          { x: 3, y: 4 },
          { x: 4, y: 5 },
        ],
        id,
        id,
      ),
    ).toBe('M0 1L1 2M3 4L4 5');
  });
});
