import { useId } from 'react';
import { decimalsFor, extent, linePath, linearScale, niceAxis, type Point } from './chart';

export interface ChartSeries {
  name: string;
  points: Point[];
  /** dots: the data points themselves (e.g. bootstrapped nodes); dashed: a derived line. */
  style?: 'line' | 'dashed' | 'dots';
}

const W = 640;
const H = 300;
const M = { top: 14, right: 18, bottom: 44, left: 60 };

/**
 * A line chart as plain SVG: axes with round ticks, axis labels, a legend, and a title and
 * description a screen reader announces (the numbers themselves are in the table beside it).
 */
export function LineChart(props: {
  title: string;
  description: string;
  xLabel: string;
  yLabel: string;
  series: ChartSeries[];
  formatY?: (v: number, decimals: number) => string;
  formatX?: (v: number, decimals: number) => string;
  /** A vertical guide, e.g. today's spot. */
  markerX?: { value: number; label: string };
  testId?: string;
}) {
  const uid = useId();
  const titleId = `${uid}-title`;
  const descId = `${uid}-desc`;
  const box = extent(props.series.map((s) => s.points));
  const fmtX = props.formatX ?? ((v: number, d: number) => v.toFixed(d));
  const fmtY = props.formatY ?? ((v: number, d: number) => v.toFixed(d));

  if (!box) {
    return <p className="hint">Nothing to chart yet.</p>;
  }
  const xs = niceAxis(box.x, 6);
  const ys = niceAxis(box.y, 5);
  const sx = linearScale(xs.domain, [M.left, W - M.right]);
  const sy = linearScale(ys.domain, [H - M.bottom, M.top]);
  const xd = decimalsFor(xs.step);
  const yd = decimalsFor(ys.step);
  const marker = props.markerX && props.markerX.value >= xs.domain[0] && props.markerX.value <= xs.domain[1] ? props.markerX : null;

  return (
    <figure className="data-chart" data-testid={props.testId}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${titleId} ${descId}`} preserveAspectRatio="xMidYMid meet">
        <title id={titleId}>{props.title}</title>
        <desc id={descId}>{props.description}</desc>
        <g className="chart-grid">
          {ys.ticks.map((t) => (
            <line key={`y${t}`} x1={M.left} x2={W - M.right} y1={sy(t)} y2={sy(t)} />
          ))}
        </g>
        <g className="chart-axis">
          <line x1={M.left} x2={W - M.right} y1={H - M.bottom} y2={H - M.bottom} />
          <line x1={M.left} x2={M.left} y1={M.top} y2={H - M.bottom} />
          {xs.ticks.map((t) => (
            <g key={`x${t}`}>
              <line x1={sx(t)} x2={sx(t)} y1={H - M.bottom} y2={H - M.bottom + 4} />
              <text x={sx(t)} y={H - M.bottom + 16} textAnchor="middle">
                {fmtX(t, xd)}
              </text>
            </g>
          ))}
          {ys.ticks.map((t) => (
            <text key={`yl${t}`} x={M.left - 6} y={sy(t) + 4} textAnchor="end">
              {fmtY(t, yd)}
            </text>
          ))}
          <text className="chart-label" x={(M.left + W - M.right) / 2} y={H - 6} textAnchor="middle">
            {props.xLabel}
          </text>
          <text className="chart-label" transform={`translate(14 ${(M.top + H - M.bottom) / 2}) rotate(-90)`} textAnchor="middle">
            {props.yLabel}
          </text>
        </g>
        {marker && (
          <g className="chart-marker">
            <line x1={sx(marker.value)} x2={sx(marker.value)} y1={M.top} y2={H - M.bottom} />
            <text x={sx(marker.value) + 4} y={M.top + 10}>
              {marker.label}
            </text>
          </g>
        )}
        {props.series.map((s, i) =>
          s.style === 'dots' ? (
            <g key={s.name} className={`chart-series chart-s${(i % 4) + 1}`}>
              {s.points
                .filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y))
                .map((p) => (
                  <circle key={`${p.x}`} cx={sx(p.x)} cy={sy(p.y)} r={3.5} />
                ))}
            </g>
          ) : (
            <path key={s.name} className={`chart-series chart-s${(i % 4) + 1}${s.style === 'dashed' ? ' is-dashed' : ''}`} d={linePath(s.points, sx, sy)} />
          ),
        )}
      </svg>
      <figcaption className="chart-legend">
        {props.series.map((s, i) => (
          <span key={s.name} className={`chart-key chart-s${(i % 4) + 1}${s.style ? ` is-${s.style}` : ''}`}>
            <span className="chart-swatch" aria-hidden="true" />
            {s.name}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
