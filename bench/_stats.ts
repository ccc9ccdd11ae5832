/** Small helpers shared by the benchmarks: medians and percentiles, never single timings. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

export const median = (samples: number[]) => percentile(samples, 50);

/** Times `fn` `n` times (after `warmup` untimed runs) and returns each run in milliseconds. */
export async function timeRuns(n: number, fn: (i: number) => unknown, warmup = Math.min(20, n)): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn(i);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await fn(i);
    out.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return out;
}

export const round = (x: number, digits = 3) => Number(x.toFixed(digits));

/** The one JSON line every bench ends with. */
export function report(figures: Record<string, unknown> & { bench: string; ratio: number }): void {
  console.log(JSON.stringify(figures));
}
