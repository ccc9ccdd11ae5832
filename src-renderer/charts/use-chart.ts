import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  ScatterController,
  Tooltip,
} from 'chart.js';
import { type RefObject, useEffect, useState } from 'react';

/**
 * chart.js for every screen that plots (Calibration, Data, the View and Expression pages): only
 * the controllers, elements and scales those charts use, registered once; colours read from the
 * app's CSS variables so light and dark both read well. Imported only by the lazily loaded screens
 * that draw, so chart.js stays out of the window's first load.
 */
let registered = false;
function register() {
  if (registered) return;
  Chart.register(ScatterController, LineController, BarController, PointElement, LineElement, BarElement, LinearScale, CategoryScale, Tooltip, Legend);
  registered = true;
}

export interface ChartColours {
  text: string;
  muted: string;
  grid: string;
  accent: string;
  danger: string;
  warn: string;
  ok: string;
  /** One colour per line, readable on both backgrounds. */
  series: string[];
}

const SERIES_LIGHT = ['#2f5fd0', '#1f8a4c', '#b26a00', '#8a3fc2', '#c23a3a', '#0f8a8a', '#6b6f76'];
const SERIES_DARK = ['#6d95f2', '#4cc281', '#e0a341', '#b98af0', '#f07373', '#4cc7c7', '#a1aab6'];

export function chartColours(): ChartColours {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  const dark = document.documentElement.dataset.theme === 'dark';
  return {
    text: v('--text', '#1b1f24'),
    muted: v('--text-muted', '#5b6470'),
    grid: v('--border', '#dfe3e8'),
    accent: v('--accent', '#2f5fd0'),
    danger: v('--danger', '#c23a3a'),
    warn: v('--warn', '#b26a00'),
    ok: v('--ok', '#1f8a4c'),
    series: dark ? SERIES_DARK : SERIES_LIGHT,
  };
}

const readTheme = () => document.documentElement.dataset.theme ?? 'light';

/** Changes whenever the app switches light/dark, so charts are rebuilt in the new colours. */
export function useThemeKey(): string {
  const [theme, setTheme] = useState(readTheme);
  useEffect(() => {
    const observer = new MutationObserver(() => setTheme(readTheme()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, []);
  return theme;
}

/**
 * Draws `config()` on the canvas and rebuilds it when `key` changes (new data or a theme switch);
 * destroyed with the component so no chart outlives its canvas.
 */
export function useChart(canvas: RefObject<HTMLCanvasElement | null>, key: string, config: (colours: ChartColours) => ChartConfiguration): void {
  const theme = useThemeKey();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the data `config` closes over; rebuilding on every render would restart the chart's layout each time.
  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    register();
    const chart = new Chart(el, config(chartColours()));
    return () => chart.destroy();
  }, [key, theme]);
}
