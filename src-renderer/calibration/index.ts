export { LazyCalibrationScreen as CalibrationScreen } from './LazyCalibrationScreen';
export { brierSeries, reliabilityPoints, pointRadius, categoryLabel, biasWords, worstLine, trackingLines } from './chart-data';
