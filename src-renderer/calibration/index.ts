export { CalibrationScreen } from './CalibrationScreen';
export { brierSeries, reliabilityPoints, pointRadius, categoryLabel, biasWords, worstLine, trackingLines } from './chart-data';
