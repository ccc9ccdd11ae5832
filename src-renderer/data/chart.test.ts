import { describe, expect, it } from 'vitest';
import { chartFrame, decimalsFor, drawnCount, extent, niceAxis, niceStep, toChartPoints } from './chart';

describe('chart scaling', () => {
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

  it('keeps a missing value as a gap in the line, not a drop to zero', () => {
    const points = [
      { x: 0, y: 1 },
      { x: 1, y: Number.NaN },
      { x: Number.NaN, y: 3 },
      { x: 3, y: 4 },
    ];
    expect(toChartPoints(points)).toEqual([
      { x: 0, y: 1 },
      { x: 1, y: null },
      { x: 3, y: 4 },
    ]);
    expect(drawnCount(points)).toBe(2);
  });

  it('frames both axes on round ticks and keeps the spot guide only when it is on the chart', () => {
    const spots = [
      [
        { x: 60, y: 0.2 },
        { x: 140, y: 41.7 },
      ],
    ];
    const frame = chartFrame(spots, 100)!;
    expect(frame.x).toEqual({ min: 60, max: 140, stepSize: 20, decimals: 0 });
    expect(frame.y.min).toBe(0);
    expect(frame.y.max).toBeGreaterThanOrEqual(41.7);
    expect(frame.markerX).toBe(100);
    // A guide beyond the axis would be drawn over the labels: left out.
    expect(chartFrame(spots, 200)!.markerX).toBeNull();
    expect(chartFrame(spots)!.markerX).toBeNull();
    // Nothing to draw (a fit not run yet): no frame, and the screen says so instead of an empty grid.
    expect(chartFrame([[{ x: 1, y: Number.NaN }]])).toBeNull();
  });
});
