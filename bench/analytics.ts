/**
 * Analytics benchmark (local, no network):
 *  - implied-volatility round trips per second on random well-posed cases (see _iv-cases.ts: ln(K/F)
 *    in ±1, T in 0.02–5 years, σ in 5%–150%, calls and puts, seeded). A round trip is price →
 *    impliedVol → compare with the σ the price was made from; it fails when the solver throws or
 *    misses σ by more than TOLERANCE (1e−9). The share of draws that were well-posed is printed.
 *  - the baseline in the same run: plain bisection on σ ∈ [0, 5] to 1e−10 (36 halvings) on the same
 *    cases, on the library's cancellation-free Black pricer (the `ratio`); and, to show the gain of the
 *    algorithm alone, the same bisection on the normalised Black function the rational solver itself
 *    inverts (`ratio_same_pricer`). Rounds alternate solver and baselines; figures are medians.
 *    All of that is single-threaded. Then, labelled separately, the same round trips split over two
 *    worker threads (both cores), timed from the first thread's start to the last one's end.
 *  - p50/p95 of a 30-instrument bootstrap (bills and semiannual coupon bonds out to 30 years) plus a
 *    Nelson–Siegel fit of the zero rates.
 * Usage: npm run bench -- analytics [cases=100000] [rounds=7] [curveRuns=300]
 */
import { availableParallelism, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import {
  bondCashFlows,
  bootstrapZeroCurve,
  type CurveFit,
  fitNelsonSiegel,
  impliedVol,
  impliedVolBisection,
  type NelsonSiegelParams,
  nelsonSiegelYield,
  priceBond,
} from '../src-main/providers/analytics';
import { ivCases, type Round, roundTrips, type Solver, TOLERANCE } from './_iv-cases';
import { median, percentile, report, round, timeRuns } from './_stats';

const CASES = Number(process.argv[2] ?? 100_000);
const ROUNDS = Number(process.argv[3] ?? 7);
const CURVE_RUNS = Number(process.argv[4] ?? 300);

const cases = ivCases(CASES);
const { quotes, draws } = cases;

const solvers: [string, Solver][] = [
  ['rational (Let’s be rational)', (q) => impliedVol(q)],
  ['bisection, library pricer', (q) => impliedVolBisection(q)],
  ['bisection, same pricer', (q) => impliedVolBisection(q, 1e-10, 5, 'normalised')],
];

// Warm every solver up, then alternate rounds so drift on a shared machine hits all alike.
for (const [, solve] of solvers) roundTrips(cases, solve);
const times = solvers.map(() => [] as number[]);
const cpuTimes = solvers.map(() => [] as number[]);
const last: Round[] = solvers.map(() => ({ ms: 0, cpuMs: 0, failures: 0, worst: 0, iterations: 0 }));
for (let r = 0; r < ROUNDS; r++)
  solvers.forEach(([, solve], j) => {
    last[j] = roundTrips(cases, solve);
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

/** The rational solver's round trips split over two worker threads: per-round spans from first start to last end. */
async function twoThreads(): Promise<{ spans: number[]; failures: number }> {
  // A worker does not inherit tsx's loader: it registers it, then imports the TypeScript worker.
  const boot = `import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(new URL('./_iv-worker.ts', import.meta.url).href)}); });`;
  const workers = [0, 1].map(() => new Worker(boot, { eval: true, workerData: { count: CASES } }));
  const next = (w: Worker) => new Promise<{ start: number; end: number; failures: number; ready?: boolean }>((done) => w.once('message', done));
  await Promise.all(workers.map(next));
  const spans: number[] = [];
  let failed = 0;
  const half = Math.floor(quotes.length / 2);
  for (let r = 0; r < ROUNDS; r++) {
    const results = Promise.all(workers.map(next));
    workers[0]!.postMessage({ from: 0, to: half });
    workers[1]!.postMessage({ from: half, to: quotes.length });
    const [a, b] = await results;
    spans.push(Math.max(a!.end, b!.end) - Math.min(a!.start, b!.start));
    failed = a!.failures + b!.failures;
  }
  for (const w of workers) w.postMessage('stop');
  return { spans, failures: failed };
}
const two = await twoThreads();
const twoPerS = quotes.length / (median(two.spans) / 1000);
console.log(
  `  two worker threads (both cores, labelled apart from the single-thread figure): ${Math.round(twoPerS).toLocaleString('en-US')} round trips/s (median span ${round(median(two.spans))} ms), ${two.failures} failures`,
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
  iv_solves_per_s: Math.round(perS[0]!),
  bisection_solves_per_s: Math.round(perS[1]!),
  ratio: round(perS[0]! / perS[1]!, 2),
  iv_solves_per_cpu_s: Math.round(perCpuS[0]!),
  two_thread_iv_solves_per_s: Math.round(twoPerS),
  two_thread_iv_failures: two.failures,
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
