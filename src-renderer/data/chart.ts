/**
 * The data shaping behind the Data screen's charts (drawn by chart.js): data extents, axes that
 * start and end on round values, and series with their missing values kept as gaps.
 */

export interface Point {
  x: number;
  y: number;
}

export type Domain = [number, number];

/** The smallest and largest x and y over all points that are numbers; null when there are none. */
export function extent(series: Point[][]): { x: Domain; y: Domain } | null {
  let x0 = Infinity;
  let x1 = -Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  for (const points of series) {
    for (const p of points) {
      if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) continue;
      x0 = Math.min(x0, p.x);
      x1 = Math.max(x1, p.x);
      y0 = Math.min(y0, p.y);
      y1 = Math.max(y1, p.y);
    }
  }
  return x0 <= x1 ? { x: [x0, x1], y: [y0, y1] } : null;
}

/** A step of 1, 2, 2.5 or 5 times a power of ten giving about `count` intervals over `span`. */
export function niceStep(span: number, count = 5): number {
  if (!(span > 0) || !Number.isFinite(span)) return 1;
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  const nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
  return nice * power;
}

/**
 * The domain widened to whole steps, and the ticks on it: an axis that starts and ends on round
 * values. A flat series (min = max) is given room around its value so the line is not on the edge.
 */
export function niceAxis(domain: Domain, count = 5): { domain: Domain; ticks: number[]; step: number } {
  let [lo, hi] = domain;
  if (lo === hi) {
    const pad = Math.abs(lo) * 0.1 || 1;
    lo -= pad;
    hi += pad;
  }
  const step = niceStep(hi - lo, count);
  const start = Math.floor(lo / step + 1e-9) * step;
  const end = Math.ceil(hi / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let i = 0; start + i * step <= end + step * 1e-9; i++) ticks.push(roundTo(start + i * step, step));
  return { domain: [roundTo(start, step), roundTo(end, step)], ticks, step };
}

/** Removes the float noise of repeated addition (0.30000000000000004) at the step's precision. */
function roundTo(v: number, step: number): number {
  const digits = decimalsFor(step) + 2;
  return Number(v.toFixed(Math.min(20, digits)));
}

/** Decimals needed to tell ticks `step` apart: 0 for 5, 1 for 0.5, 2 for 0.25. */
export function decimalsFor(step: number): number {
  if (!(step > 0) || !Number.isFinite(step)) return 0;
  for (let d = 0; d <= 10; d++) {
    if (Math.abs(Math.round(step * 10 ** d) - step * 10 ** d) < 1e-6) return d;
  }
  return 10;
}

/** A point chart.js draws: a missing y (a fit that did not run) is `null`, which breaks the line there. */
export interface ChartPoint {
  x: number;
  y: number | null;
}

/** Points in chart.js's shape; a point with no x cannot be placed and is left out. */
export function toChartPoints(points: Point[]): ChartPoint[] {
  return points.filter((p) => Number.isFinite(p.x)).map((p) => ({ x: p.x, y: Number.isFinite(p.y) ? p.y : null }));
}

/** How many points of a series are drawn (the legend says so, and the e2e reads it). */
export function drawnCount(points: Point[]): number {
  return points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y)).length;
}

export interface AxisFrame {
  min: number;
  max: number;
  stepSize: number;
  /** Decimals a tick label needs. */
  decimals: number;
}

/**
 * Both axes on round ticks covering every series, and the vertical guide only when it falls
 * inside the x axis (a guide off the edge would be drawn over the axis labels). Null: nothing to draw.
 */
export function chartFrame(series: Point[][], markerX?: number): { x: AxisFrame; y: AxisFrame; markerX: number | null } | null {
  const box = extent(series);
  if (!box) return null;
  const frame = (domain: Domain, count: number): AxisFrame => {
    const axis = niceAxis(domain, count);
    return { min: axis.domain[0], max: axis.domain[1], stepSize: axis.step, decimals: decimalsFor(axis.step) };
  };
  const x = frame(box.x, 6);
  const y = frame(box.y, 5);
  const inside = markerX !== undefined && Number.isFinite(markerX) && markerX >= x.min && markerX <= x.max;
  return { x, y, markerX: inside ? markerX : null };
}
