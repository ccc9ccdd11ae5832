import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('analytics benchmark (small size)', () => {
  it('round-trips random well-posed implied-vol cases with no failures against bisection baselines, and times the 30-bond curve, on one JSON line', () => {
    const root = join(__dirname, '..');
    // 5,000 cases, 2 timed rounds and 30 curve runs: enough to check the figures, quick enough for a test.
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench', 'analytics.ts'), '5000', '2', '30'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 150_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const last = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, number | string>;
    expect(last.bench).toBe('analytics');
    for (const k of [
      'iv_solves_per_s',
      'iv_solves_per_cpu_s',
      'two_thread_iv_solves_per_s',
      'bisection_solves_per_s',
      'same_pricer_bisection_solves_per_s',
      'ratio',
      'ratio_same_pricer',
      'curve_p50_ms',
      'curve_p95_ms',
      'iv_iterations',
      'bisection_iterations',
    ]) {
      expect(Number.isFinite(last[k]) && (last[k] as number) > 0, `${k} = ${last[k]}`).toBe(true);
    }
    // A speed figure over round trips that miss σ would measure nothing: every case comes back within
    // the stated tolerance, for the solver and for the baseline alike.
    expect(last.options).toBe(5000);
    expect(last.tolerance).toBe(1e-9);
    expect(last.iv_failures).toBe(0);
    expect(last.bisection_failures).toBe(0);
    expect(last.two_thread_iv_failures).toBe(0);
    expect(last.max_vol_error as number).toBeLessThanOrEqual(last.tolerance as number);
    // The random draws are mostly well-posed: the filter drops only quotes whose own rounding hides σ.
    expect(last.well_posed_share as number).toBeGreaterThan(0.9);
    // Bisection from [0, 5] to 1e-10 needs ⌈log2(5e10)⌉ = 36 halvings; the rational solver two
    // Householder steps (the safeguarded Halley solver it replaced took 3–5).
    expect(last.bisection_iterations).toBe(36);
    expect(last.iv_iterations as number).toBeLessThanOrEqual(2.05);
    // The ratios are of the figures printed.
    expect(last.ratio as number).toBeCloseTo((last.iv_solves_per_s as number) / (last.bisection_solves_per_s as number), 1);
    expect(last.ratio_same_pricer as number).toBeCloseTo((last.iv_solves_per_s as number) / (last.same_pricer_bisection_solves_per_s as number), 1);
    // The curve bench really bootstraps and fits 30 instruments: every bond reprices, the fit is tight.
    expect(last.curve_instruments).toBe(30);
    expect(last.max_reprice_error as number).toBeLessThan(1e-8);
    expect(last.curve_fit_rmse_bp as number).toBeLessThan(0.5);
    expect(last.curve_p95_ms as number).toBeGreaterThanOrEqual(last.curve_p50_ms as number);
    expect(r.stdout).toMatch(/^ {2}two worker threads \(both cores, labelled apart from the single-thread figure\): [\d,]+ round trips\/s/m);
    expect(r.stdout).toMatch(/^implied vol: 5000 cases per round \(\d+\.\d% of \d+ draws well-posed\), 2 rounds, pass within 1e-9$/m);
  }, 180_000);
});
