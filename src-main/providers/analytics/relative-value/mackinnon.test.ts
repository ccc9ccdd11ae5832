import { describe, expect, it } from 'vitest';
import { adfCriticalValue, adfCriticalValues, adfPValue } from './mackinnon';

describe('MacKinnon critical values and p-values for the ADF test (constant, no trend)', () => {
  it('MacKinnon (2010), τ_c for N = 1: asymptotic −3.43035 / −2.86154 / −2.56677 at 1% / 5% / 10%', () => {
    expect(adfCriticalValue('1%', Infinity)).toBe(-3.43035);
    expect(adfCriticalValue('5%', Infinity)).toBe(-2.86154);
    expect(adfCriticalValue('10%', Infinity)).toBe(-2.56677);
  });

  it('finite-sample response surface at T = 100: −3.4975 / −2.8909 / −2.5825 (close to Fuller’s 1976 table: −3.51 / −2.89 / −2.58)', () => {
    // 1%: −3.43035 − 6.5393/100 − 16.786/100² − 79.433/100³ = −3.43035 − 0.065393 − 0.0016786 − 0.0000794 = −3.497501
    // 5%: −2.86154 − 0.028903 − 0.0004234 − 0.0000400 = −2.890906;  10%: −2.56677 − 0.015384 − 0.0002809 = −2.582435
    const cv = adfCriticalValues(100);
    expect(cv['1%']).toBeCloseTo(-3.497501, 6);
    expect(cv['5%']).toBeCloseTo(-2.890906, 6);
    expect(cv['10%']).toBeCloseTo(-2.582435, 6);
    // Small samples need a more negative τ to reject: at T = 25 the 5% value is −2.9865.
    expect(adfCriticalValue('5%', 25)).toBeCloseTo(-2.86154 - 2.8903 / 25 - 4.234 / 625 - 40.04 / 15625, 10);
    expect(adfCriticalValue('5%', 25)).toBeLessThan(cv['5%']);
  });

  it('MacKinnon (1994) p-values: about 1%, 5% and 10% at the asymptotic critical values, monotone in τ', () => {
    expect(adfPValue(-3.43035)).toBeCloseTo(0.01, 2);
    expect(adfPValue(-2.86154)).toBeCloseTo(0.05, 2);
    expect(adfPValue(-2.56677)).toBeCloseTo(0.1, 2);
    expect(adfPValue(-20)).toBe(0);
    expect(adfPValue(3)).toBe(1);
    let prev = 0;
    for (let t = -18; t <= 2.7; t += 0.1) {
      const p = adfPValue(t);
      expect(p).toBeGreaterThanOrEqual(prev);
      prev = p;
    }
  });
});
