/**
 * Analytics benchmark (local, no network):
 *  - implied-volatility round trips per second on random well-posed cases: log-moneyness ln(K/F)
 *    uniform in ±1, T uniform in 0.02–5 years, σ uniform in 5%–150%, calls and puts alike
 *    (Black–Scholes–Merton, S = 100, r in 0–6%, q in 0–4%, seeded so every run draws the same cases).
 *    A round trip is price → impliedVol → compare with the σ the price was made from; it fails when
 *    the solver throws or misses σ by more than TOLERANCE. A draw is kept ("well-posed") when the
 *    price lies strictly inside its no-arbitrage bounds and its own rounding moves σ by less than
 *    TOLERANCE/100 (2⁻⁵²·(price + the bound for in-the-money quotes)/vega) — otherwise no solver
 *    could return that σ from that double. The share of draws kept is printed.
 *  - the baseline in the same run: plain bisection on σ ∈ [0, 5] to 1e−10 (36 halvings) on the same
 *    cases, on the library's cancellation-free Black pricer; and, to show the algorithm's gain alone,
 *    the same bisection on the normalised Black function the rational solver itself inverts.
 *    Rounds alternate solver and baselines; figures are medians over the rounds.
 *  - p50/p95 of a 30-instrument bootstrap (bills and semiannual coupon bonds out to 30 years) plus a
 *    Nelson–Siegel fit of the zero rates.
 * Usage: npm run bench -- analytics [cases=100000] [rounds=7] [curveRuns=300]
 */
import {
  bondCashFlows,
  bootstrapZeroCurve,
  type CurveFit,
  fitNelsonSiegel,
  type ImpliedVolInput,
  type ImpliedVolResult,
  impliedVol,
  impliedVolBisection,
  type NelsonSiegelParams,
  nelsonSiegelYield,
  optionValue,
  priceBond,
  priceBounds,
  seededRng,
} from '../src-main/providers/analytics';
import { availableParallelism, loadavg } from 'node:os';
import { median, percentile, report, round, timeRuns } from './_stats';

const CASES = Number(process.argv[2] ?? 100_000);
const ROUNDS = Number(process.argv[3] ?? 7);
const CURVE_RUNS = Number(process.argv[4] ?? 300);
/** A round trip passes when the implied σ is within this of the σ the price was made from. */
const TOLERANCE = 1e-9;

const rng = seededRng(27);
const quotes: ImpliedVolInput[] = [];
const vols = new Float64Array(CASES);
let draws = 0;
while (quotes.length < CASES) {
  draws++;
  const type = rng.uniform() < 0.5 ? 'call' : 'put';
  const k = 2 * rng.uniform() - 1;
  const expiry = 0.02 + 4.98 * rng.uniform();
  const vol = 0.05 + 1.45 * rng.uniform();
  const rate = 0.06 * rng.uniform();
  const dividendYield = 0.04 * rng.uniform();
  const strike = 100 * Math.exp((rate - dividendYield) * expiry + k);
  const v = optionValue({ model: 'bsm', type, underlying: 100, strike, expiry, rate, dividendYield, vol });
  const b = priceBounds({ model: 'bsm', type, underlying: 100, strike, expiry, rate, dividendYield });
  const inTheMoney = v.price > 2 * b.lower && b.lower > 0;
  const noise = 2 ** -52 * (v.price + (inTheMoney ? b.upper : 0));
  if (!(v.price > b.lower && v.price < b.upper && noise / v.vega < TOLERANCE / 100)) continue;
  // Each quote is a plain literal, as parsed JSON would be: V8 reads fields of spread-built objects far more slowly.
  vols[quotes.length] = vol;
  quotes.push({ model: 'bsm', type, underlying: 100, strike, expiry, rate, dividendYield, price: v.price });
}

type Solver = (input: ImpliedVolInput) => ImpliedVolResult;
const solvers: [string, Solver][] = [
  ['rational (Let’s be rational)', (q) => impliedVol(q)],
  ['bisection, library pricer', (q) => impliedVolBisection(q)],
  ['bisection, same pricer', (q) => impliedVolBisection(q, 1e-10, 5, 'normalised')],
];

/** One round: every case priced → solved → compared, timed as a whole. */
function roundTrips(solve: Solver): { ms: number; cpuMs: number; failures: number; worst: number; iterations: number } {
  let failures = 0;
  let worst = 0;
  let iterations = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < quotes.length; i++) {
    try {
      const r = solve(quotes[i]!);
      const err = Math.abs(r.vol - vols[i]!);
      if (!(err <= TOLERANCE)) failures++;
      if (err > worst) worst = err;
      iterations += r.iterations;
    } catch {
      failures++;
    }
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, failures, worst, iterations: iterations / quotes.length };
}

// Warm every solver up, then alternate rounds so drift on a shared machine hits all alike.
for (const [, solve] of solvers) roundTrips(solve);
const times = solvers.map(() => [] as number[]);
const cpuTimes = solvers.map(() => [] as number[]);
const last = solvers.map(() => ({ ms: 0, cpuMs: 0, failures: 0, worst: 0, iterations: 0 }));
for (let r = 0; r < ROUNDS; r++)
  solvers.forEach(([, solve], j) => {
    last[j] = roundTrips(solve);
    times[j]!.push(last[j]!.ms);
    cpuTimes[j]!.push(last[j]!.cpuMs);
  });
const perS = times.map((t) => quotes.length / (median(t) / 1000));
// Per second of this process's own CPU time: on a machine shared with other work, wall time also
// counts the waits for a core; on an idle machine the two agree.
const perCpuS = cpuTimes.map((t) => quotes.length / (median(t) / 1000));
const [load1] = loadavg();
const failures = last.map((l) => l.failures);
console.log(
  `implied vol: ${quotes.length} cases per round (${((100 * quotes.length) / draws).toFixed(1)}% of ${draws} draws well-posed), ${ROUNDS} rounds, pass within ${TOLERANCE}`,
);
solvers.forEach(([name], j) => {
  console.log(
    `  ${name.padEnd(29)} ${Math.round(perS[j]!).toLocaleString('en-US').padStart(10)} round trips/s (median round ${round(median(times[j]!))} ms; ${Math.round(perCpuS[j]!).toLocaleString('en-US')}/s of CPU time), ${round(last[j]!.iterations, 2)} iterations per solve, ${failures[j]} failures, worst |σ error| ${last[j]!.worst.toExponential(2)}`,
  );
});
console.log(`  single thread; load average ${load1!.toFixed(2)} on ${availableParallelism()} cores while measuring`);

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
  iv_solves_per_s: Math.round(perS[0]!),
  bisection_solves_per_s: Math.round(perS[1]!),
  ratio: round(perS[0]! / perS[1]!, 2),
  iv_solves_per_cpu_s: Math.round(perCpuS[0]!),
  load_average: round(load1!, 2),
  same_pricer_bisection_solves_per_s: Math.round(perS[2]!),
  ratio_same_pricer: round(perS[0]! / perS[2]!, 2),
  iv_failures: failures[0],
  bisection_failures: failures[1],
  options: quotes.length,
  well_posed_share: round(quotes.length / draws, 4),
  iv_iterations: round(last[0]!.iterations, 2),
  bisection_iterations: round(last[1]!.iterations, 2),
  max_vol_error: last[0]!.worst,
  tolerance: TOLERANCE,
  rounds: ROUNDS,
  curve_p50_ms: round(median(curveMs), 3),
  curve_p95_ms: round(percentile(curveMs, 95), 3),
  curve_instruments: bonds.length,
  curve_fit_rmse_bp: round(lastFit!.rmse * 1e4, 4),
  max_reprice_error: maxReprice,
});
