import { describe, expect, it } from 'vitest';
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
