import type { Chart, Plugin } from 'chart.js';
import { useRef } from 'react';
import type { CalibrationView } from '../../src-main/api/calibration';
import { useChart } from '../charts';
import { categoryLabel, pct, reliabilityDescription, reliabilityPoints, type ReliabilityPoint } from './chart-data';

type Category = CalibrationView['categories'][number];

/**
 * Writes "n=12" beside each band's point, so the count is read without hovering. A label that
 * would run past the plot's right edge (the 0.9–1.0 band) is written on the left of its point,
 * and one near the top or bottom is kept inside: no label is clipped.
 */
const countLabels = (colour: string, faint: string): Plugin<'scatter'> => ({
  id: 'bandCounts',
  afterDatasetsDraw(chart: Chart<'scatter'>) {
    const meta = chart.getDatasetMeta(1);
    const points = chart.data.datasets[1]?.data as unknown as ReliabilityPoint[] | undefined;
    if (!points) return;
    const ctx = chart.ctx;
    const area = chart.chartArea;
    ctx.save();
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    meta.data.forEach((el, i) => {
      const p = points[i];
      if (!p) return;
      const label = `n=${p.n}`;
      const width = ctx.measureText(label).width;
      const right = el.x + p.r + 3 + width <= area.right;
      ctx.fillStyle = p.sparse ? faint : colour;
      ctx.textAlign = right ? 'left' : 'right';
      const y = Math.min(area.bottom - 6, Math.max(area.top + 6, el.y));
      ctx.fillText(label, right ? el.x + p.r + 3 : el.x - p.r - 3, y);
    });
    ctx.restore();
  },
});

/**
 * A reliability diagram: each confidence band's mean stated confidence (x) against how often it
 * came true (y), the point's size growing with the band's count; the diagonal is perfect
 * calibration. Ten equal bands over 0–1: above 50% a point below the diagonal is overconfidence;
 * below 50% a point above it is too extreme toward No. Sparse bands are drawn faint.
 */
export function ReliabilityChart(props: { category: Category; maxN: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const points = reliabilityPoints(props.category.bands, props.maxN);
  const key = JSON.stringify([points, props.maxN]);
  useChart(canvas, key, (c) => ({
    type: 'scatter',
    data: {
      datasets: [
        {
          label: 'Perfect calibration',
          data: [
            { x: 0, y: 0 },
            { x: 1, y: 1 },
          ],
          showLine: true,
          borderColor: c.muted,
          borderDash: [5, 4],
          borderWidth: 1,
          pointRadius: 0,
          pointHoverRadius: 0,
        },
        {
          label: 'Bands',
          data: points,
          pointRadius: points.map((p) => p.r),
          pointHoverRadius: points.map((p) => p.r + 2),
          // A band under the per-band minimum is drawn faint: it is shown, not judged.
          backgroundColor: points.map((p) => (p.sparse ? `${c.muted}33` : `${c.accent}99`)),
          borderColor: points.map((p) => (p.sparse ? `${c.muted}99` : c.accent)),
          borderWidth: 1.5,
        },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      // Room for the largest point and its label at the plot's edges (0% and 100%).
      layout: { padding: { top: 12, right: 12, bottom: 4, left: 4 } },
      scales: {
        x: {
          type: 'linear',
          min: 0,
          max: 1,
          title: { display: true, text: 'Stated confidence', color: c.muted },
          ticks: { color: c.muted, stepSize: 0.1, callback: (v) => pct(Number(v)) },
          grid: { color: c.grid },
        },
        y: {
          type: 'linear',
          min: 0,
          max: 1,
          title: { display: true, text: 'Came true', color: c.muted },
          ticks: { color: c.muted, stepSize: 0.2, callback: (v) => pct(Number(v)) },
          grid: { color: c.grid },
        },
      },
      plugins: {
        legend: { display: false },
        tooltip: {
          filter: (item) => item.datasetIndex === 1,
          callbacks: {
            label: (item) => {
              const p = item.raw as ReliabilityPoint;
              return `${p.band}: stated ${pct(p.x)}, hit ${pct(p.y)}, n=${p.n}${p.sparse ? ' (too few to judge)' : ''}`;
            },
          },
        },
      },
    },
    plugins: [countLabels(c.text, c.muted) as unknown as Plugin],
  }));
  return (
    <div className="reliability-chart" data-testid="reliability-chart" data-points={points.length} data-sparse={points.filter((p) => p.sparse).length}>
      <canvas ref={canvas} role="img" aria-label={reliabilityDescription(props.category)}>
        {categoryLabel(props.category.category)}: the figures are in the table beside the chart.
      </canvas>
    </div>
  );
}
