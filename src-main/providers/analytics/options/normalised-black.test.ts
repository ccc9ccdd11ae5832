import { describe, expect, it } from 'vitest';
import { erfcx, normCdf } from '../numeric/normal';
import { logMoneyness, type OtmBlack, otmBlack } from './black-otm';
import { mills, normalisedBlack, normalisedComplement, normalisedVega } from './normalised-black';

/**
 * A subset of the 50-digit references of black-otm.test.ts (F = 100; [K, s = σ√T, undiscounted
 * out-of-the-money price], computed with Python's decimal module), chosen to hit every region of the
 * normalised Black function: far wing at tiny s (asymptotic series), small s near the money (Taylor
 * series in s), the two Mills ratios, and large s where the price nears its bound.
 */
const F = 100;
const REFERENCE: [number, number, number][] = [
  [100.0, 0.0001, 0.003989422802352068],
  [99.99000049998334, 0.0001, 0.0008331130485227184],
  [99.7004495503373, 0.0001, 1.6295106319862227e-201],
  [100.3004504503377, 0.0001, 1.6344065040054203e-201],
  [99.0049833749168, 0.003, 0.00003345563521211551],
  [90.48374180359595, 0.003, 5.428471056618429e-246],
  [110.51709180756477, 0.003, 5.999388341394302e-246],
  [110.51709180756477, 0.01, 7.857692771036439e-25],
  [99.0049833749168, 0.05, 1.526623690636956],
  [60.653065971263345, 0.05, 2.909704295029337e-24],
  [100.0, 0.2, 7.965567455405797],
  [164.87212707001282, 0.2, 0.051253608315833234],
  [2008.5536923187667, 0.2, 2.1637857708566935e-50],
  [60.653065971263345, 1.0, 14.461007592485968],
  [4.978706836786395, 1.0, 0.007653195308044556],
  [2008.5536923187667, 3.0, 56.67379990924984],
  [99.999999, 10.0, 99.99994166968591],
  [36.787944117144235, 10.0, 36.78790950630256],
  [0.033546262790251184, 10.0, 0.03354548351564973],
];

/** The out-of-the-money side of ln(F/K), as the solver sees it. */
const xOf = (K: number) => -Math.abs(logMoneyness(F, K));

describe('normalised Black price b(x, s) for the implied-vol solver', () => {
  it('matches 50-digit references to 2e−13 relative from 1e−246 wing prices to near the bound', () => {
    // A wrong b here is a wrong implied vol: the solver inverts exactly this function. (In the far
    // wing b ~ e^{−h²/2} with h²/2 ≈ 460: the one rounding in h = x/s alone costs ~1e−13 there.)
    for (const [K, s, ref] of REFERENCE) {
      const root = Math.sqrt(F) * Math.sqrt(K);
      const x = xOf(K);
      const b = normalisedBlack(x, s);
      expect(Math.abs(b / (ref / root) - 1), `K=${K} s=${s}`).toBeLessThan(ref > 1e-100 ? 5e-14 : 2e-13);
      // b_max − b is the distance to min(F, K), normalised: it adds back up to the bound.
      expect(Math.abs(b + normalisedComplement(x, s) - Math.exp(0.5 * x)), `K=${K} s=${s}`).toBeLessThanOrEqual(1e-15);
    }
  });

  it('the textbook difference e^{x/2}Φ(d1) − e^{−x/2}Φ(d2) misses the same references: they can tell the two apart', () => {
    let worst = 0;
    for (const [K, s, ref] of REFERENCE) {
      const x = xOf(K);
      const b = Math.exp(0.5 * x) * normCdf(x / s + s / 2) - Math.exp(-0.5 * x) * normCdf(x / s - s / 2);
      worst = Math.max(worst, Math.abs(b / (ref / (Math.sqrt(F) * Math.sqrt(K))) - 1));
    }
    expect(worst).toBeGreaterThan(1e-10);
  });

  it('agrees with the cancellation-free pricer to 5e−14 on a sweep of moneyness 1e−6–3 and s 1e−4–30, price and distance to the bound', () => {
    const out: OtmBlack = { p: 0, q: 0, vega: 0, d1: 0, d2: 0 };
    let compared = 0;
    for (let i = 0; i <= 60; i++)
      for (let j = 0; j <= 60; j++) {
        const K = F * Math.exp(10 ** (-6 + (6.5 * i) / 60));
        const s = 10 ** (-4 + (5.5 * j) / 60);
        // Beyond |x|/s = 38 the price is below 1e−300 (and the reference pricer's series slow).
        if (Math.log(K / F) / s > 38) continue;
        otmBlack(F, K, s, out);
        const root = Math.sqrt(F) * Math.sqrt(K);
        if (!(out.p > 1e-290 * root) || !(out.q > 1e-290 * root)) continue;
        const x = xOf(K);
        compared++;
        expect(Math.abs(normalisedBlack(x, s) / (out.p / root) - 1), `K=${K} s=${s}`).toBeLessThan(5e-14);
        expect(Math.abs(normalisedComplement(x, s) / (out.q / root) - 1), `K=${K} s=${s}`).toBeLessThan(5e-14);
        expect(Math.abs(normalisedVega(x, s) / (out.vega / root) - 1), `K=${K} s=${s}`).toBeLessThan(1e-12);
      }
    expect(compared).toBeGreaterThan(2500);
  });

  it('its written-out Mills ratio gives the very doubles of the library erfcx it stands in for', () => {
    // A mistyped coefficient in the fast copy would shift every solve slightly; the copy must be exact.
    for (let i = 0; i <= 20000; i++) {
      const y = -(0.5 + i * 0.003) * Math.SQRT2; // erfcx arguments 0.5 … 60.5: both written-out ranges
      expect(mills(y), `y=${y}`).toBe(1.2533141373155003 * erfcx(-y * Math.SQRT1_2));
    }
  });
});
