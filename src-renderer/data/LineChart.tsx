import type { Chart, ChartDataset, Plugin } from 'chart.js';
import { useRef } from 'react';
import { type ChartColours, useChart } from '../charts';
import { chartFrame, drawnCount, type Point, toChartPoints } from './chart';

export interface ChartSeries {
  name: string;
  points: Point[];
  /** dots: the data points themselves (e.g. bootstrapped nodes); dashed: a derived line. */
  style?: 'line' | 'dashed' | 'dots';
}

const HEIGHT = 300;

/** The colour of the i-th series, matching its legend key (`.chart-s1` … `.chart-s4` in data.css). */
const seriesColour = (c: ChartColours, i: number) => [c.accent, c.warn, c.ok, c.danger][i % 4]!;

/** A dashed vertical guide with its label, e.g. today's spot. */
const markerLine = (x: number, label: string, colour: string): Plugin<'scatter'> => ({
  id: 'markerX',
  afterDatasetsDraw(chart: Chart<'scatter'>) {
    const { ctx, chartArea, scales } = chart;
    const px = scales.x!.getPixelForValue(x);
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.fillStyle = colour;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(px, chartArea.top);
    ctx.lineTo(px, chartArea.bottom);
    ctx.stroke();
    ctx.font = '11px system-ui, sans-serif';
    ctx.fillText(label, px + 4, chartArea.top + 10);
    ctx.restore();
  },
});

/**
 * A line chart drawn by chart.js: axes on round ticks, axis titles, a legend, and a label a
 * screen reader announces (the numbers themselves are in the table beside it).
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
  const canvas = useRef<HTMLCanvasElement>(null);
  const frame = chartFrame(
    props.series.map((s) => s.points),
    props.markerX?.value,
  );
  const fmtX = props.formatX ?? ((v: number, d: number) => v.toFixed(d));
  const fmtY = props.formatY ?? ((v: number, d: number) => v.toFixed(d));
  const key = JSON.stringify([props.series, props.markerX, props.xLabel, props.yLabel]);

  useChart(canvas, key, (c) => {
    if (!frame) return { type: 'scatter', data: { datasets: [] } };
    const datasets: ChartDataset<'scatter'>[] = props.series.map((s, i) => {
      const colour = seriesColour(c, i);
      const dots = s.style === 'dots';
      return {
        label: s.name,
        data: toChartPoints(s.points),
        showLine: !dots,
        spanGaps: false,
        borderColor: colour,
        backgroundColor: colour,
        borderWidth: 2,
        borderDash: s.style === 'dashed' ? [6, 4] : [],
        pointRadius: dots ? 3.5 : 0,
        pointHoverRadius: dots ? 5 : 3,
      };
    });
    const marker = frame.markerX !== null && props.markerX ? [markerLine(frame.markerX, props.markerX.label, c.muted) as unknown as Plugin] : [];
    return {
      type: 'scatter',
      data: { datasets },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: {
          x: {
            type: 'linear',
            min: frame.x.min,
            max: frame.x.max,
            title: { display: true, text: props.xLabel, color: c.text },
            ticks: { color: c.muted, stepSize: frame.x.stepSize, callback: (v) => fmtX(Number(v), frame.x.decimals) },
            grid: { color: c.grid },
          },
          y: {
            type: 'linear',
            min: frame.y.min,
            max: frame.y.max,
            title: { display: true, text: props.yLabel, color: c.text },
            ticks: { color: c.muted, stepSize: frame.y.stepSize, callback: (v) => fmtY(Number(v), frame.y.decimals) },
            grid: { color: c.grid },
          },
        },
        plugins: {
          legend: { display: false },
          tooltip: {
            callbacks: {
              label: (item) => {
                const p = item.raw as { x: number; y: number };
                return `${item.dataset.label}: ${fmtX(p.x, frame.x.decimals + 1)}, ${fmtY(p.y, frame.y.decimals + 2)}`;
              },
            },
          },
        },
      },
      plugins: marker,
    };
  });

  if (!frame) {
    return <p className="hint">Nothing to chart yet.</p>;
  }
  return (
    <figure className="data-chart" data-testid={props.testId}>
      <div className="data-chart-canvas" style={{ position: 'relative', height: HEIGHT }}>
        <canvas ref={canvas} role="img" aria-label={`${props.title}. ${props.description}`}>
          {props.description}
        </canvas>
      </div>
      <figcaption className="chart-legend">
        {props.series.map((s, i) => (
          <span key={s.name} className={`chart-key chart-s${(i % 4) + 1}${s.style ? ` is-${s.style}` : ''}`} data-points={drawnCount(s.points)}>
            <span className="chart-swatch" aria-hidden="true" />
            {s.name}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
