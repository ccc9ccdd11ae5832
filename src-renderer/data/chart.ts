/**
 * The arithmetic behind the Data screen's charts (plain SVG, no chart library): data extents,
 * round tick values, the mapping from data to pixels, and the path of a line.
 */

export interface Point {
  x: number;
  y: number;
}

export type Domain = [number, number];

/** Maps [d0, d1] onto [r0, r1]; a zero-width domain maps to the middle rather than dividing by zero. */
export function linearScale(domain: Domain, range: Domain): (v: number) => number {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  if (d1 === d0) return () => (r0 + r1) / 2;
  const k = (r1 - r0) / (d1 - d0);
  return (v) => r0 + (v - d0) * k;
}

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

/** `M x y L x y …`, starting a new piece after a missing value so a gap stays a gap. */
export function linePath(points: Point[], sx: (v: number) => number, sy: (v: number) => number): string {
  let d = '';
  let pen = false;
  for (const p of points) {
    if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${round2(sx(p.x))} ${round2(sy(p.y))}`;
    pen = true;
  }
  return d;
}

const round2 = (v: number) => Math.round(v * 100) / 100;
