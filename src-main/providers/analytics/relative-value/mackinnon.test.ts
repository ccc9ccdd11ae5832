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

describe('MacKinnon critical values and p-values with a trend (ct) and with no deterministic terms (n)', () => {
  it('asymptotic 5% values are −3.41 with constant and trend and −1.94 with neither (MacKinnon 2010, Table 2)', () => {
    expect(adfCriticalValue('5%', Infinity, 'ct')).toBe(-3.41049);
    expect(adfCriticalValue('5%', Infinity, 'n')).toBe(-1.941);
    expect(adfCriticalValue('1%', Infinity, 'ct')).toBe(-3.95877);
    expect(adfCriticalValue('10%', Infinity, 'n')).toBe(-1.61682);
    // The default stays the constant-only table other callers rely on.
    expect(adfCriticalValue('5%', Infinity)).toBe(-2.86154);
  });

  it('finite samples at T = 100 are close to Fuller (1976) Table 8.5.2 (n = 100): ct −4.04 / −3.45 / −3.15, n −2.60 / −1.95 / −1.61', () => {
    // ct 1%: −3.95877 − 0.090531 − 0.0028428 − 0.000134155 = −4.052278
    const ct = adfCriticalValues(100, 'ct');
    expect(ct['1%']).toBeCloseTo(-4.052278, 6);
    expect(ct['5%']).toBeCloseTo(-3.41049 - 0.043904 - 0.0009036 - 0.000045374, 9);
    expect(ct['10%']).toBeCloseTo(-3.12705 - 0.025856 - 0.0003925 - 0.00002238, 9);
    expect(ct['5%']).toBeCloseTo(-3.45, 1);
    // n 5%: −1.941 − 0.002686 − 0.0003365 + 0.000031223 = −1.943991
    const n = adfCriticalValues(100, 'n');
    expect(n['5%']).toBeCloseTo(-1.943991, 6);
    expect(n['1%']).toBeCloseTo(-2.56574 - 0.022358 - 0.0003627, 9);
    expect(n['10%']).toBeCloseTo(-1.61682 + 0.002656 - 0.0002714 + 0.000025364, 9);
  });

  it('p-values are about 1%, 5%, 10% at each table’s asymptotic critical values, and monotone in τ', () => {
    for (const reg of ['n', 'ct'] as const) {
      expect(adfPValue(adfCriticalValue('1%', Infinity, reg), reg)).toBeCloseTo(0.01, 2);
      expect(adfPValue(adfCriticalValue('5%', Infinity, reg), reg)).toBeCloseTo(0.05, 2);
      expect(adfPValue(adfCriticalValue('10%', Infinity, reg), reg)).toBeCloseTo(0.1, 2);
      let prev = 0;
      for (let t = -19; t <= 3; t += 0.05) {
        const p = adfPValue(t, reg);
        expect(p).toBeGreaterThanOrEqual(prev - 1e-12);
        prev = p;
      }
    }
    // Φ(2.5261 − 1.23308 − 1.51824 + 0.48228) = Φ(0.25706) = 0.60143 (ct, right of τ* = −2.89).
    expect(adfPValue(-2, 'ct')).toBeCloseTo(0.60143, 4);
    // The same τ = −2 is significant in the no-constant case: Φ(0.6344 − 2.4756 + 0.129984) = Φ(−1.711216) = 0.04352.
    expect(adfPValue(-2, 'n')).toBeCloseTo(0.04352, 4);
    expect(adfPValue(1, 'ct')).toBe(1);
  });
});
