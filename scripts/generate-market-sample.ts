import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Writes the synthetic market sample set in resources/data/market/ — the `market` provider's
 * offline backend. Seeded, so every run writes the same bytes (a test checks the committed files
 * against this output, so nobody hand-edits one series and leaves the generator behind).
 *
 *   npx tsx scripts/generate-market-sample.ts
 *
 * Random walks for one year of business days ending on the demo's last day (2026-11-20); EURUSD and
 * the UST yields are pinned to the demo CSVs' closing values so both data sets tell one story.
 * None of it is market data.
 */

export const SAMPLE_SEED = 20261120;
export const SAMPLE_END = '2026-11-20';

/** mulberry32: a small, well-known seeded generator (same sequence on every platform). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal draws (Box–Muller) from a uniform generator. */
function normal(u: () => number): () => number {
  return () => {
    const a = Math.max(u(), 1e-12);
    return Math.sqrt(-2 * Math.log(a)) * Math.cos(2 * Math.PI * u());
  };
}

/** Mondays to Fridays from a year before `end` up to `end` (holidays are not modelled). */
export function businessDays(end: string): string[] {
  const last = new Date(`${end}T00:00:00Z`);
  const first = new Date(last);
  first.setUTCFullYear(first.getUTCFullYear() - 1);
  first.setUTCDate(first.getUTCDate() + 1);
  const out: string[] = [];
  for (const d = first; d <= last; d.setUTCDate(d.getUTCDate() + 1)) {
    const wd = d.getUTCDay();
    if (wd !== 0 && wd !== 6) out.push(d.toISOString().slice(0, 10));
  }
  return out;
}

/** A path of `n` steps from `start`, bent linearly so it ends exactly on `end` when given (a bridge). */
function walk(n: number, start: number, step: (prev: number, z: number) => number, z: () => number, end?: number): number[] {
  const xs = [start];
  for (let i = 1; i < n; i++) xs.push(step(xs[i - 1]!, z()));
  if (end === undefined) return xs;
  const gap = end - xs[n - 1]!;
  return xs.map((x, i) => x + (gap * i) / (n - 1));
}

const fixed = (x: number, dp: number) => x.toFixed(dp);

export interface SampleFiles {
  'symbols.csv': string;
  'prices.csv': string;
  'yields.csv': string;
  'implied_vols.csv': string;
}

export function generateMarketSample(seed = SAMPLE_SEED, end = SAMPLE_END): SampleFiles {
  const days = businessDays(end);
  const n = days.length;
  const z = normal(rng(seed));
  const dt = 1 / 252;

  // Prices: geometric walks (drift, annual vol); EURUSD ends on the demo's 1.0910.
  const gbm = (mu: number, sigma: number) => (p: number, e: number) => p * Math.exp((mu - sigma ** 2 / 2) * dt + sigma * Math.sqrt(dt) * e);
  const spx = walk(n, 5920, gbm(0.07, 0.16), z);
  const eurusdShocks: number[] = [];
  const eurusd = walk(
    n,
    1.052,
    (p, e) => {
      eurusdShocks.push(e);
      return gbm(0.02, 0.075)(p, e);
    },
    z,
    1.091,
  );
  const brent = walk(n, 73.4, gbm(-0.03, 0.3), z);

  // Yields in %: arithmetic walks with a little mean reversion; UST ends on the demo's 3.411 / 4.095.
  const yieldStep = (level: number, kappa: number, bpPerDay: number) => (y: number, e: number) => y + kappa * (level - y) * dt + (bpPerDay / 100) * e;
  const ust2y = walk(n, 4.02, yieldStep(3.7, 0.8, 5.5), z, 3.411);
  const ust10y = walk(n, 4.41, yieldStep(4.3, 0.5, 6), z, 4.095);
  const bund10y = walk(n, 2.31, yieldStep(2.5, 0.5, 4.5), z);

  // EURUSD implied vols in % annualised: ATM 1M/3M mean-reverting, lifted by large spot moves;
  // 25-delta call/put = ATM + butterfly ± risk reversal / 2 (EUR calls a little cheaper than puts).
  const atm1m = [7.4];
  const atm3m = [7.6];
  const rr = [-0.35];
  const bf = [0.18];
  for (let i = 1; i < n; i++) {
    const spotMove = Math.abs(eurusdShocks[i - 1] ?? 0);
    atm1m.push(atm1m[i - 1]! + 3 * (7.2 - atm1m[i - 1]!) * dt + 0.18 * z() + 0.12 * (spotMove - 0.8));
    atm3m.push(atm3m[i - 1]! + 2 * (7.4 - atm3m[i - 1]!) * dt + 0.1 * z() + 0.06 * (spotMove - 0.8));
    rr.push(rr[i - 1]! + 4 * (-0.3 - rr[i - 1]!) * dt + 0.04 * z());
    bf.push(Math.max(0.05, bf[i - 1]! + 4 * (0.18 - bf[i - 1]!) * dt + 0.01 * z()));
  }

  const prices = ['date,symbol,close,currency,source'];
  const yields = ['date,symbol,yield_pct,source'];
  const vols = ['date,symbol,tenor,delta,vol_pct,source'];
  for (let i = 0; i < n; i++) {
    const d = days[i]!;
    prices.push(`${d},SPX,${fixed(spx[i]!, 2)},USD,sample`, `${d},EURUSD,${fixed(eurusd[i]!, 5)},USD,sample`, `${d},BRENT,${fixed(brent[i]!, 2)},USD,sample`);
    yields.push(`${d},UST2Y,${fixed(ust2y[i]!, 3)},sample`, `${d},UST10Y,${fixed(ust10y[i]!, 3)},sample`, `${d},BUND10Y,${fixed(bund10y[i]!, 3)},sample`);
    for (const [tenor, atm, scale] of [
      ['1M', atm1m[i]!, 1],
      ['3M', atm3m[i]!, 0.8],
    ] as const) {
      const r = rr[i]! * scale;
      const b = bf[i]! * scale;
      vols.push(
        `${d},EURUSD,${tenor},ATM,${fixed(atm, 2)},sample`,
        `${d},EURUSD,${tenor},25C,${fixed(atm + b + r / 2, 2)},sample`,
        `${d},EURUSD,${tenor},25P,${fixed(atm + b - r / 2, 2)},sample`,
      );
    }
  }

  const symbols = [
    'symbol,kind,name,unit,source',
    'SPX,price,S&P 500 index (synthetic sample),USD (index points),sample',
    'EURUSD,price,EUR/USD spot (synthetic sample),USD per EUR,sample',
    'BRENT,price,Brent crude front month (synthetic sample),USD per barrel,sample',
    'UST2Y,yield,US Treasury 2-year yield (synthetic sample),%,sample',
    'UST10Y,yield,US Treasury 10-year yield (synthetic sample),%,sample',
    'BUND10Y,yield,German Bund 10-year yield (synthetic sample),%,sample',
    'EURUSD,implied_vol,EUR/USD implied volatility 1M/3M ATM and 25-delta (synthetic sample),% annualised,sample',
  ];

  const text = (lines: string[]) => lines.join('\n') + '\n';
  return { 'symbols.csv': text(symbols), 'prices.csv': text(prices), 'yields.csv': text(yields), 'implied_vols.csv': text(vols) };
}

export const sampleDir = (root: string) => join(root, 'resources', 'data', 'market');

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const dir = sampleDir(root);
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(generateMarketSample())) writeFileSync(join(dir, name), content);
  console.log(`Wrote the synthetic market sample to ${dir}`);
}
