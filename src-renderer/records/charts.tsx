import { BarController, BarElement, Chart, type ChartConfiguration } from 'chart.js';
import { useRef } from 'react';
import { type ChartColours, useChart } from '../charts';
import type { ConfidencePoint, Scenario } from './model';

/**
 * The record pages' two charts, drawn with the app's one chart.js setup (calibration/charts:
 * theme colours, rebuild on theme switch). Bars are the only pieces that setup does not register.
 */
let barsRegistered = false;
function useBars(canvas: React.RefObject<HTMLCanvasElement | null>, key: string, config: (c: ChartColours) => ChartConfiguration) {
  if (!barsRegistered) {
    Chart.register(BarController, BarElement);
    barsRegistered = true;
  }
  useChart(canvas, key, config);
}

/** Scenarios as horizontal bars of their probability, with a text list for screen readers. */
export function ScenarioChart(props: { scenarios: Scenario[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const stated = props.scenarios.filter((s) => s.probability !== null);
  useBars(canvas, JSON.stringify(stated), (c) => ({
    type: 'bar',
    data: {
      labels: stated.map((s) => s.name),
      datasets: [
        {
          label: 'Probability (%)',
          data: stated.map((s) => s.probability ?? 0),
          backgroundColor: stated.map((_, i) => c.series[i % c.series.length] ?? c.accent),
        },
      ],
    },
    options: {
      indexAxis: 'y',
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: {
        x: { min: 0, max: 100, ticks: { color: c.muted, callback: (v) => `${v}%` }, grid: { color: c.grid } },
        y: { ticks: { color: c.text }, grid: { display: false } },
      },
      plugins: { legend: { display: false }, tooltip: { callbacks: { label: (item) => `${item.raw}%` } } },
    },
  }));
  return (
    <div className="record-chart" style={{ height: `${Math.max(2, stated.length) * 36 + 40}px` }}>
      <canvas
        ref={canvas}
        data-testid="scenario-chart"
        role="img"
        aria-label={`Scenario probabilities: ${stated.map((s) => `${s.name} ${s.probability}%`).join(', ')}`}
      />
    </div>
  );
}

/** Confidence at each version, oldest to newest. */
export function ConfidenceChart(props: { points: ConfidencePoint[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useChart(canvas, JSON.stringify(props.points), (c) => ({
    type: 'line',
    data: {
      labels: props.points.map((p) => `${p.at.slice(0, 10)} (${p.label})`),
      datasets: [
        { label: 'Confidence', data: props.points.map((p) => p.confidence), borderColor: c.accent, backgroundColor: c.accent, pointRadius: 4, tension: 0 },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: {
        x: { ticks: { color: c.muted }, grid: { color: c.grid } },
        y: { min: 0, max: 1, ticks: { color: c.muted }, grid: { color: c.grid } },
      },
      plugins: { legend: { display: false } },
    },
  }));
  return (
    <div className="record-chart small">
      <canvas
        ref={canvas}
        data-testid="confidence-chart"
        role="img"
        aria-label={`Confidence by version: ${props.points.map((p) => `${p.label} ${p.at.slice(0, 10)} ${p.confidence}`).join(', ')}`}
      />
    </div>
  );
}
