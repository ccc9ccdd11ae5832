/**
 * The implied-vol benchmark's cases, shared by the bench and its worker threads: random well-posed
 * quotes, seeded so every run and every thread draws the same ones. ln(K/F) uniform in ±1, T uniform
 * in 0.02–5 years, σ uniform in 5%–150%, calls and puts alike (Black–Scholes–Merton, S = 100, r in
 * 0–6%, q in 0–4%). A draw is kept ("well-posed") when its price lies strictly inside the no-arbitrage
 * bounds and the price's own rounding moves σ by less than TOLERANCE/100 — 2⁻⁵²·(price, plus the
 * upper bound for in-the-money quotes whose intrinsic value is itself rounded)/vega — otherwise no
 * solver could return that σ from that double.
 */
import { type ImpliedVolInput, type ImpliedVolResult, optionValue, priceBounds, seededRng } from '../src-main/providers/analytics';

/** A round trip passes when the implied σ is within this of the σ the price was made from. */
export const TOLERANCE = 1e-9;

export interface IvCases {
  quotes: ImpliedVolInput[];
  vols: Float64Array;
  draws: number;
}

export function ivCases(count: number): IvCases {
  const rng = seededRng(27);
  const quotes: ImpliedVolInput[] = [];
  const vols = new Float64Array(count);
  let draws = 0;
  while (quotes.length < count) {
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
    const noise = 2 ** -52 * (v.price + (b.lower > 0 ? b.upper : 0));
    if (!(v.price > b.lower && v.price < b.upper && noise / v.vega < TOLERANCE / 100)) continue;
    vols[quotes.length] = vol;
    // Each quote is a plain literal, as parsed JSON would be: V8 reads fields of spread-built objects far more slowly.
    quotes.push({ model: 'bsm', type, underlying: 100, strike, expiry, rate, dividendYield, price: v.price });
  }
  return { quotes, vols, draws };
}

export type Solver = (input: ImpliedVolInput) => ImpliedVolResult;

export interface Round {
  ms: number;
  cpuMs: number;
  failures: number;
  worst: number;
  iterations: number;
}

/** One round over cases [from, to): each price solved and compared with its σ, timed as a whole. */
export function roundTrips(cases: IvCases, solve: Solver, from = 0, to = cases.quotes.length): Round {
  const { quotes, vols } = cases;
  let failures = 0;
  let worst = 0;
  let iterations = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = from; i < to; i++) {
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
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, failures, worst, iterations: iterations / (to - from) };
}
