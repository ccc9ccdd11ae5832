export { chartColours, useChart, useThemeKey } from './use-chart';
export type { ChartColours } from './use-chart';
