/**
 * Analytics benchmark (local, no network):
 *  - implied-volatility solves per second over a grid of strikes × expiries × vols (calls and puts,
 *    Black–Scholes–Merton with a dividend yield), for the library's safeguarded Halley solver and for
 *    plain bisection on σ ∈ [0, 5] to the same tolerance (1e-10), on the same prices in the same run;
 *  - p50/p95 of a 30-instrument bootstrap (bills and semiannual coupon bonds out to 30 years) plus a
 *    Nelson–Siegel fit of the zero rates.
 * Both solvers must reach the same vols (within twice the tolerance) or the speed-up measures nothing.
 * Usage: npm run bench -- analytics [rounds=15] [curveRuns=300]
 */
import {
  bondCashFlows,
  bootstrapZeroCurve,
  type CurveFit,
  DEFAULT_IV_TOLERANCE,
  fitNelsonSiegel,
  impliedVol,
  impliedVolBisection,
  type NelsonSiegelParams,
  nelsonSiegelYield,
  type OptionInput,
  optionValue,
  priceBond,
  priceBounds,
} from '../src-main/providers/analytics';
import { median, percentile, report, round, timeRuns } from './_stats';

const ROUNDS = Number(process.argv[2] ?? 15);
const CURVE_RUNS = Number(process.argv[3] ?? 300);

// The option grid: 31 strikes (50%–200% of spot), 8 expiries (1 week–10 years), 4 vols, calls and puts.
type Quote = Omit<OptionInput, 'vol'> & { price: number; vol: number };
const quotes: Quote[] = [];
for (const type of ['call', 'put'] as const)
  for (const expiry of [1 / 52, 1 / 12, 0.25, 0.5, 1, 2, 5, 10])
    for (let i = 0; i <= 30; i++)
      for (const vol of [0.1, 0.2, 0.4, 0.8]) {
        const strike = 50 * 4 ** (i / 30);
        const m: Omit<OptionInput, 'vol'> = { model: 'bsm', type, underlying: 100, strike, expiry, rate: 0.03, dividendYield: 0.01 };
        const price = optionValue({ ...m, vol }).price;
        const b = priceBounds(m);
        // Prices at a bound to machine precision carry no volatility; both solvers refuse them. Each quote is
        // a plain literal, as parsed JSON would be: V8 reads fields of spread-built objects far more slowly.
        if (Math.min(price - b.lower, b.upper - price) > 1e-12 * b.upper) {
          quotes.push({ model: 'bsm', type, underlying: 100, strike, expiry, rate: 0.03, dividendYield: 0.01, price, vol });
        }
      }

function solveAll(solver: typeof impliedVol): { vols: Float64Array; iterations: number; ms: number } {
  const vols = new Float64Array(quotes.length);
  let iterations = 0;
  const t0 = performance.now();
  for (let i = 0; i < quotes.length; i++) {
    const r = solver(quotes[i]!, DEFAULT_IV_TOLERANCE);
    vols[i] = r.vol;
    iterations += r.iterations;
  }
  return { vols, iterations, ms: performance.now() - t0 };
}

// Warm both up, then alternate rounds so drift on a shared machine hits both alike.
solveAll(impliedVol);
solveAll(impliedVolBisection);
const newtonMs: number[] = [];
const bisectMs: number[] = [];
let newton = solveAll(impliedVol);
let bisect = solveAll(impliedVolBisection);
for (let r = 0; r < ROUNDS; r++) {
  newton = solveAll(impliedVol);
  newtonMs.push(newton.ms);
  bisect = solveAll(impliedVolBisection);
  bisectMs.push(bisect.ms);
}
let maxDiff = 0;
let maxTruthDiff = 0;
for (let i = 0; i < quotes.length; i++) {
  maxDiff = Math.max(maxDiff, Math.abs(newton.vols[i]! - bisect.vols[i]!));
  maxTruthDiff = Math.max(maxTruthDiff, Math.abs(newton.vols[i]! - quotes[i]!.vol));
}
const ivPerS = quotes.length / (median(newtonMs) / 1000);
const bisectPerS = quotes.length / (median(bisectMs) / 1000);
console.log(`implied vol: ${quotes.length} options per round, ${ROUNDS} rounds`);
console.log(
  `  safeguarded Halley: ${Math.round(ivPerS).toLocaleString('en-US')} solves/s (median round ${round(median(newtonMs))} ms), ${round(newton.iterations / quotes.length, 2)} iterations per solve`,
);
console.log(
  `  bisection:          ${Math.round(bisectPerS).toLocaleString('en-US')} solves/s (median round ${round(median(bisectMs))} ms), ${round(bisect.iterations / quotes.length, 2)} iterations per solve`,
);
console.log(
  `  largest difference between the two: ${maxDiff.toExponential(2)}; from the true vol: ${maxTruthDiff.toExponential(2)} (tolerance ${DEFAULT_IV_TOLERANCE})`,
);

// The curve: 4 bills and 26 semiannual bonds priced off a humped Nelson–Siegel curve.
const truth: NelsonSiegelParams = { model: 'ns', beta0: 0.045, beta1: -0.015, beta2: 0.02, lambda1: 0.6 };
const maturities = [
  0.25,
  0.5,
  0.75,
  1,
  ...Array.from({ length: 26 }, (_, i) => [1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 22, 24, 26, 28, 30][i]!),
];
const bonds = maturities.map((m, i) => {
  const b = { maturity: m, coupon: m <= 1 ? 0 : 0.02 + 0.001 * (i % 7), frequency: 2 as const };
  const price = bondCashFlows(b).reduce((s, f) => s + f.amount * Math.exp(-nelsonSiegelYield(truth, f.time) * f.time), 0);
  return { ...b, price };
});
let lastFit: CurveFit | null = null;
let maxReprice = 0;
const curveMs = await timeRuns(CURVE_RUNS, () => {
  const curve = bootstrapZeroCurve(bonds);
  lastFit = fitNelsonSiegel(
    curve.nodes.map((n) => n.maturity),
    curve.nodes.map((n) => n.zeroContinuous),
  );
  maxReprice = 0;
  for (const b of bonds) maxReprice = Math.max(maxReprice, Math.abs(priceBond(curve, b) - b.price));
});
console.log(`curve: ${bonds.length} instruments, bootstrap + Nelson–Siegel fit, ${CURVE_RUNS} runs`);
console.log(
  `  p50 ${round(median(curveMs))} ms, p95 ${round(percentile(curveMs, 95))} ms; fit RMSE ${(lastFit!.rmse * 1e4).toFixed(3)} bp; worst repricing error ${maxReprice.toExponential(2)}`,
);

report({
  bench: 'analytics',
  iv_solves_per_s: Math.round(ivPerS),
  bisection_solves_per_s: Math.round(bisectPerS),
  ratio: round(ivPerS / bisectPerS, 2),
  curve_p50_ms: round(median(curveMs), 3),
  curve_p95_ms: round(percentile(curveMs, 95), 3),
  options: quotes.length,
  iv_iterations: round(newton.iterations / quotes.length, 2),
  bisection_iterations: round(bisect.iterations / quotes.length, 2),
  max_vol_diff: maxDiff,
  max_vol_error: maxTruthDiff,
  tolerance: DEFAULT_IV_TOLERANCE,
  curve_instruments: bonds.length,
  curve_fit_rmse_bp: round(lastFit!.rmse * 1e4, 4),
  max_reprice_error: maxReprice,
});
