import { useRef } from 'react';
import type { CalibrationView } from '../../src-main/api/calibration';
import { useChart } from '../charts';
import { brierSeries, categoryLabel, monthLabel } from './chart-data';

/**
 * The Brier score by month of exit: one line for all categories (thicker) and one per category.
 * Lower is better; 0.25 is what always saying 50% scores.
 */
export function BrierChart(props: { history: CalibrationView['history'] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const { months, series } = brierSeries(props.history);
  const top = Math.max(0.3, ...series.flatMap((s) => s.values.filter((v): v is number => v !== null)));
  useChart(canvas, JSON.stringify(props.history), (c) => ({
    type: 'line',
    data: {
      labels: months.map(monthLabel),
      datasets: series.map((s, i) => {
        const overall = s.category === 'all';
        const colour = overall ? c.text : (c.series[i % c.series.length] ?? c.accent);
        return {
          label: categoryLabel(s.category),
          data: s.values,
          borderColor: colour,
          backgroundColor: colour,
          borderWidth: overall ? 3 : 1.5,
          pointRadius: 3,
          spanGaps: false,
          tension: 0,
        };
      }),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: {
        x: { ticks: { color: c.muted }, grid: { color: c.grid } },
        y: {
          min: 0,
          max: Math.ceil(top * 10) / 10,
          title: { display: true, text: 'Brier score (lower is better)', color: c.muted },
          ticks: { color: c.muted },
          grid: { color: c.grid },
        },
      },
      plugins: {
        legend: { position: 'bottom', labels: { color: c.text, boxWidth: 12 } },
        tooltip: {
          callbacks: {
            label: (item) => {
              const s = series[item.datasetIndex];
              const n = s?.counts[item.dataIndex] ?? 0;
              return `${item.dataset.label}: ${Number(item.raw).toFixed(3)} (n=${n})`;
            },
          },
        },
      },
    },
  }));
  const overall = series.find((s) => s.category === 'all');
  const description = overall
    ? `Brier score by month, all categories: ${months.map((m, i) => `${monthLabel(m)} ${overall.values[i]?.toFixed(2) ?? 'none'}`).join(', ')}.`
    : 'Brier score by month.';
  return (
    <div className="brier-chart" data-testid="brier-chart" data-months={months.length}>
      <canvas ref={canvas} role="img" aria-label={description}>
        {description}
      </canvas>
    </div>
  );
}
