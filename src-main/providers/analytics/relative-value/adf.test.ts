import { describe, expect, it } from 'vitest';
import { seededRng } from '../numeric/random';
import { adfTest, defaultMaxLag } from './adf';

/** A deterministic series anyone can rebuild: y_t = 0.9·y_{t−1} + ((7919t mod 101)/101 − 0.5) + 0.01t. */
function fixture(n = 80): number[] {
  const y = [0];
  for (let t = 1; t < n; t++) y.push(0.9 * y[t - 1]! + ((t * 7919) % 101) / 101 - 0.5 + 0.01 * t);
  return y;
}

describe('augmented Dickey–Fuller test', () => {
  it('matches an independent implementation (numpy.linalg.lstsq on the same regression) for fixed and AIC-chosen lags', () => {
    // Reference values from a separate numpy script: Δy_t on [1, y_{t−1}, Δy_{t−1..t−p}], τ = γ̂ / se(γ̂);
    // AIC over p = 0..11 on the common sample t ≥ 11, then re-estimated with the chosen p on all usable rows.
    const y = fixture();
    const lag0 = adfTest(y, { lags: 0 });
    expect(lag0.statistic).toBeCloseTo(-0.498146099274768, 9);
    expect(lag0.nobs).toBe(79);
    const lag2 = adfTest(y, { lags: 2 });
    expect(lag2.statistic).toBeCloseTo(0.0388672967520345, 9);
    expect(lag2.nobs).toBe(77);
    const auto = adfTest(y);
    expect(defaultMaxLag(80)).toBe(11);
    expect(auto.lags).toBe(5);
    expect(auto.lagSelection).toBe('aic');
    expect(auto.nobs).toBe(74);
    expect(auto.statistic).toBeCloseTo(-0.835875307555852, 9);
    expect(auto.rejects).toEqual({ '1%': false, '5%': false, '10%': false });
  });

  it('rejects the unit root of a strongly mean-reverting series, with critical values for its own sample size', () => {
    // An alternating series around 5 is as stationary as it gets.
    const y = Array.from({ length: 100 }, (_, t) => 5 + (t % 2 ? 1 : -1) * (1 + ((t * 37) % 11) / 11));
    const r = adfTest(y, { lags: 1 });
    expect(r.statistic).toBeLessThan(r.criticalValues['1%']);
    expect(r.rejects['1%']).toBe(true);
    expect(r.pValue).toBeLessThan(0.01);
    expect(r.criticalValues['5%']).toBeCloseTo(-2.86154 - 2.8903 / r.nobs - 4.234 / r.nobs ** 2 - 40.04 / r.nobs ** 3, 10);
  });

  it('refuses a series too short to test, a constant one, and a lag order the sample cannot carry', () => {
    expect(() => adfTest([1, 2, 3, 4, 5])).toThrow(/series needs at least 20 values/);
    expect(() => adfTest(new Array(50).fill(3))).toThrow(/does not vary enough/);
    expect(() => adfTest(fixture(40), { lags: 30 })).toThrow(/lags must be a whole number from 0 to 17 for 40 observations/);
  });
});

/** Solves the normal equations XᵀX·b = Xᵀy by Gauss–Jordan, returning b and (XᵀX)⁻¹ — independent of the QR code under test. */
function normalEquations(rows: number[][], y: number[]): { beta: number[]; inv: number[][]; ssr: number } {
  const k = rows[0]!.length;
  const a = Array.from({ length: k }, (_, i) => [
    ...Array.from({ length: k }, (_, j) => rows.reduce((s, r) => s + r[i]! * r[j]!, 0)),
    ...Array.from({ length: k }, (_, j) => (i === j ? 1 : 0)),
    rows.reduce((s, r, t) => s + r[i]! * y[t]!, 0),
  ]);
  for (let c = 0; c < k; c++) {
    let piv = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[piv]![c]!)) piv = r;
    [a[c], a[piv]] = [a[piv]!, a[c]!];
    const d = a[c]![c]!;
    a[c] = a[c]!.map((v) => v / d);
    for (let r = 0; r < k; r++) if (r !== c) a[r] = a[r]!.map((v, j) => v - a[r]![c]! * a[c]![j]!);
  }
  const beta = a.map((r) => r[2 * k]!);
  const ssr = rows.reduce((s, r, t) => s + (y[t]! - r.reduce((u, x, j) => u + x * beta[j]!, 0)) ** 2, 0);
  return { beta, inv: a.map((r) => r.slice(k, 2 * k)), ssr };
}

describe('ADF with a trend (ct) and with no deterministic terms (n)', () => {
  // A trend-stationary series: y_t = 0.05·t + u_t, u_t = 0.5·u_{t−1} + e_t, e ~ N(0, 1), seed 27.
  const rng = seededRng(27);
  const trendStationary: number[] = [];
  let u = 0;
  for (let t = 0; t < 200; t++) {
    u = 0.5 * u + rng.normal();
    trendStationary.push(0.05 * t + u);
  }

  it('ct, 1 lag: τ equals γ̂/se(γ̂) from the normal equations on [y_{t−1}, 1, t, Δy_{t−1}]', () => {
    const y = trendStationary;
    const rows: number[][] = [];
    const resp: number[] = [];
    // Δy has index t for y[t+1] − y[t]; with one lag the first usable row is t = 1.
    for (let t = 1; t < y.length - 1; t++) {
      rows.push([y[t]!, 1, t + 1, y[t]! - y[t - 1]!]);
      resp.push(y[t + 1]! - y[t]!);
    }
    const { beta, inv, ssr } = normalEquations(rows, resp);
    const tau = beta[0]! / Math.sqrt((ssr / (rows.length - 4)) * inv[0]![0]!);
    const r = adfTest(y, { lags: 1, regression: 'ct' });
    expect(r.regression).toBe('ct');
    expect(r.nobs).toBe(198);
    expect(r.gamma).toBeCloseTo(beta[0]!, 10);
    expect(r.statistic).toBeCloseTo(tau, 8);
    // With its trend accounted for, the series is stationary: rejected at 1% against the ct table.
    expect(r.criticalValues['5%']).toBeCloseTo(-3.41049 - 4.3904 / 198 - 9.036 / 198 ** 2 - 45.374 / 198 ** 3, 10);
    expect(r.rejects['1%']).toBe(true);
    expect(r.pValue).toBeLessThan(0.01);
  });

  it('n, no lags: τ = Σy_{t−1}Δy_t / √(s²·Σy²_{t−1}·…) in closed form, against the n table', () => {
    // Zero-mean AR(1) with φ = 0.7 reverts to 0: the regression without a constant fits it.
    const g = seededRng(1227);
    const y = [0];
    for (let t = 1; t < 150; t++) y.push(0.7 * y[t - 1]! + g.normal());
    let sxy = 0;
    let sxx = 0;
    for (let t = 0; t < y.length - 1; t++) {
      sxy += y[t]! * (y[t + 1]! - y[t]!);
      sxx += y[t]! ** 2;
    }
    const gamma = sxy / sxx;
    let ssr = 0;
    for (let t = 0; t < y.length - 1; t++) ssr += (y[t + 1]! - y[t]! - gamma * y[t]!) ** 2;
    const tau = gamma / Math.sqrt(ssr / (y.length - 2) / sxx);
    const r = adfTest(y, { lags: 0, regression: 'n' });
    expect(r.nobs).toBe(149);
    expect(r.statistic).toBeCloseTo(tau, 9);
    expect(r.criticalValues['5%']).toBeCloseTo(-1.941 - 0.2686 / 149 - 3.365 / 149 ** 2 + 31.223 / 149 ** 3, 10);
    expect(r.rejects['5%']).toBe(true);
  });

  it('the deterministic terms matter: the same τ is judged against different tables, and AIC works in each', () => {
    const c = adfTest(trendStationary, { regression: 'c' });
    const ct = adfTest(trendStationary, { regression: 'ct' });
    const n = adfTest(trendStationary, { regression: 'n' });
    expect(ct.criticalValues['5%']).toBeLessThan(c.criticalValues['5%']);
    expect(c.criticalValues['5%']).toBeLessThan(n.criticalValues['5%']);
    // A trending series looks like a unit root to a test without a trend term.
    expect(n.rejects['5%']).toBe(false);
    expect(ct.rejects['5%']).toBe(true);
    expect(() => adfTest(trendStationary, { regression: 'ctt' as never })).toThrow(/regression must be 'c' \(constant\), 'ct'/);
  });
});
