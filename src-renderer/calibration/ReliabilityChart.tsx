import type { Chart, Plugin } from 'chart.js';
import { useRef } from 'react';
import type { CalibrationView } from '../../src-main/api/calibration';
import { useChart } from '../charts';
import { categoryLabel, pct, reliabilityDescription, reliabilityPoints, type ReliabilityPoint } from './chart-data';

type Category = CalibrationView['categories'][number];

/** Writes "n=12" beside each band's point, so the count is read without hovering. */
const countLabels = (colour: string): Plugin<'scatter'> => ({
  id: 'bandCounts',
  afterDatasetsDraw(chart: Chart<'scatter'>) {
    const meta = chart.getDatasetMeta(1);
    const points = chart.data.datasets[1]?.data as unknown as ReliabilityPoint[] | undefined;
    if (!points) return;
    const ctx = chart.ctx;
    ctx.save();
    ctx.fillStyle = colour;
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    meta.data.forEach((el, i) => {
      const p = points[i];
      if (p) ctx.fillText(`n=${p.n}`, el.x + p.r + 3, el.y);
    });
    ctx.restore();
  },
});

/**
 * A reliability diagram: each confidence band's mean stated confidence (x) against how often it
 * came true (y), the point's size growing with the band's count; the diagonal is perfect
 * calibration, so points below it are overconfidence.
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
          backgroundColor: `${c.accent}99`,
          borderColor: c.accent,
          borderWidth: 1.5,
        },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
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
              return `${p.band}: stated ${pct(p.x)}, hit ${pct(p.y)}, n=${p.n}`;
            },
          },
        },
      },
    },
    plugins: [countLabels(c.text) as unknown as Plugin],
  }));
  return (
    <div className="reliability-chart" data-testid="reliability-chart" data-points={points.length}>
      <canvas ref={canvas} role="img" aria-label={reliabilityDescription(props.category)}>
        {categoryLabel(props.category.category)}: the figures are in the table beside the chart.
      </canvas>
    </div>
  );
}
