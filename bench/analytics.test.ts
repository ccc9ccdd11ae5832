import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('analytics benchmark (small size)', () => {
  it('times implied-vol solves against bisection that reaches the same vols, and the 30-bond curve, on one JSON line', () => {
    const root = join(__dirname, '..');
    // 2 timed rounds of the option grid and 30 curve runs: enough to check the figures, quick enough for a test.
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench', 'analytics.ts'), '2', '30'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const last = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, number | string>;
    expect(last.bench).toBe('analytics');
    for (const k of [
      'iv_solves_per_s',
      'bisection_solves_per_s',
      'ratio',
      'curve_p50_ms',
      'curve_p95_ms',
      'options',
      'iv_iterations',
      'bisection_iterations',
    ]) {
      expect(Number.isFinite(last[k]) && (last[k] as number) > 0, `${k} = ${last[k]}`).toBe(true);
    }
    // A speed-up over a baseline that lands on different vols would measure nothing: both solvers
    // agree within twice the stated tolerance, and both recover the vols the prices were made from.
    expect(last.tolerance).toBe(1e-10);
    expect(last.max_vol_diff as number).toBeLessThanOrEqual(2 * (last.tolerance as number));
    expect(last.max_vol_error as number).toBeLessThan(1e-5);
    expect(last.options as number).toBeGreaterThan(1000);
    // Bisection from [0, 5] to 1e-10 needs ⌈log2(5e10)⌉ = 36 halvings; the safeguarded solver a handful.
    expect(last.bisection_iterations).toBe(36);
    expect(last.iv_iterations as number).toBeLessThan(8);
    // The ratio is of the figures printed.
    expect(last.ratio as number).toBeCloseTo((last.iv_solves_per_s as number) / (last.bisection_solves_per_s as number), 1);
    // The curve bench really bootstraps and fits 30 instruments: every bond reprices, the fit is tight.
    expect(last.curve_instruments).toBe(30);
    expect(last.max_reprice_error as number).toBeLessThan(1e-8);
    expect(last.curve_fit_rmse_bp as number).toBeLessThan(0.5);
    expect(last.curve_p95_ms as number).toBeGreaterThanOrEqual(last.curve_p50_ms as number);
    expect(r.stdout).toMatch(/^implied vol: \d+ options per round, 2 rounds$/m);
  }, 120_000);
});
