// Forge analytics: local, no-network calculations for the analyst (the `analytics` provider) and the UI (analytics/* procedures).
export { analyticsProvider, ANALYTICS_SOURCE } from './provider';
export { analyticsParams } from './params';
export type { AnalyticsParams, AnalyticsCalc } from './params';

export { analyseOption, MAX_GRID_SPOTS } from './option-analysis';
export type { OptionRequest, OptionAnalysis, OptionGridPoint } from './option-analysis';
export { analyseCurve } from './curve-analysis';
export type { CurveRequest, CurveAnalysis, CurveChartPoint, CurveModel } from './curve-analysis';

export { bootstrapZeroCurve, bondCashFlows, priceBond, zeroCurve } from './curves/bootstrap';
export type { BondInput, CashFlow, ZeroCurve, ZeroNode } from './curves/bootstrap';
export { linearInterpolator, monotoneCubicInterpolator, interpolator } from './curves/interpolation';
export type { Interpolator, InterpolationMethod } from './curves/interpolation';
export { fitNelsonSiegel, fitSvensson, nelsonSiegelYield, nelsonSiegelForward } from './curves/nelson-siegel';
export type { NelsonSiegelParams, CurveFit } from './curves/nelson-siegel';
export { bondRisk, curveDv01 } from './curves/bond-risk';
export type { BondRisk, YieldCompounding } from './curves/bond-risk';
export { accruedInterest, dirtyPriceFromYield, priceFromYield, yieldFromPrice } from './curves/yield';
export type { BondTerms, BondYield } from './curves/yield';
export { forwardParYield, parYield, parYieldsFromZeros, toContinuous } from './curves/par-yield';
export type { Discount, ParYieldRow, ZeroCompounding } from './curves/par-yield';
export { couponPosition, days360, DAY_COUNTS } from './curves/daycount';
export type { CouponPosition, DayCount } from './curves/daycount';
export { svenssonCurve } from './curves/svensson';
export type { SvenssonCurve, SvenssonParams } from './curves/svensson';

export { optionValue, priceBounds } from './options/black-scholes';
export type { OptionInput, OptionValue, OptionGreeks, OptionModel, OptionType } from './options/black-scholes';
export { impliedVol, impliedVolBisection, DEFAULT_IV_TOLERANCE } from './options/implied-vol';
export type { ImpliedVolInput, ImpliedVolResult } from './options/implied-vol';
export { payoffTable } from './options/payoff';
export type { PayoffLeg, PayoffRow, PayoffTable } from './options/payoff';

export { scenarioStats, scenarioLeaves } from './scenarios/scenario-tree';
export type { ScenarioNode, ScenarioLeaf, ScenarioStats } from './scenarios/scenario-tree';

export { adfTest, defaultMaxLag, MIN_ADF_OBSERVATIONS } from './relative-value/adf';
export type { AdfOptions, AdfResult } from './relative-value/adf';
export { adfCriticalValue, adfCriticalValues, adfPValue, ADF_LEVELS, ADF_REGRESSIONS } from './relative-value/mackinnon';
export type { AdfLevel, AdfRegression } from './relative-value/mackinnon';
export { meanReversion, rollingZScores, fitAr1, spreadOf } from './relative-value/zscore';
export type { MeanReversionResult, Ar1Fit } from './relative-value/zscore';

export { kelly, kellyOutcomes, fullKellyFraction, logGrowth, continuousKelly, continuousGrowth } from './sizing/kelly';
export type { KellyInput, KellyOutcome, KellyResult, ContinuousKellyInput, ContinuousKellyResult } from './sizing/kelly';

export { historicalVar, normalVar, normQuantile, sampleMoments, HISTORICAL_RULE, NORMAL_RULE } from './risk/var';
export type { HistoricalVar, NormalVar } from './risk/var';

export { normCdf, normPdf } from './numeric/normal';
export { seededRng } from './numeric/random';
export type { Rng } from './numeric/random';
