import { describe, expect, it } from 'vitest';
import { normCdf } from '../numeric/normal';
import { optionValue } from './black-scholes';
import { type OtmBlack, otmBlack } from './black-otm';

/**
 * References: the undiscounted Black price F·Φ(d1) − K·Φ(d2) (call, K ≥ F) or K·Φ(−d2) − F·Φ(−d1)
 * (put, K < F) evaluated with Python's decimal module at 50 significant digits from the exact
 * binary values of F, K and s (Φ as erfc(−x/√2)/2: erf Taylor series below 4, the erfc continued
 * fraction beyond, iterated to 1e−45), rounded to the nearest double. At 50 digits the subtraction's
 * cancellation (at most ~10⁶ here) leaves 40 good digits.
 */
const F = 100;
const REFERENCE: [number, number, number][] = [
  // [K, s = σ√T, price]
  [100.0, 0.0001, 0.003989422802352068],
  [99.999999, 0.0001, 0.00398892280235333],
  [100.000001, 0.0001, 0.003988922842247558],
  [99.99000049998334, 0.0001, 0.0008331130485227184],
  [100.01000050001667, 0.0001, 0.000833196363991553],
  [99.7004495503373, 0.0001, 1.6295106319862227e-201],
  [100.3004504503377, 0.0001, 1.6344065040054203e-201],
  [100.0, 0.003, 0.11968263923943841],
  [99.999999, 0.003, 0.11968213864169137],
  [100.000001, 0.003, 0.11968213983851776],
  [99.99000049998334, 0.003, 0.11474338622367125],
  [100.01000050001667, 0.003, 0.11475486113602439],
  [99.7004495503373, 0.003, 0.024957159497502473],
  [100.3004504503377, 0.003, 0.0250321433956038],
  [99.0049833749168, 0.003, 0.00003345563521211551],
  [101.00501670841679, 0.003, 0.000033791869935911545],
  [90.48374180359595, 0.003, 5.428471056618429e-246],
  [110.51709180756477, 0.003, 5.999388341394302e-246],
  [100.000001, 0.01, 0.3989401201430683],
  [100.3004504503377, 0.01, 0.2671601929269628],
  [110.51709180756477, 0.01, 7.857692771036439e-25],
  [99.99000049998334, 0.05, 1.9894081568189903],
  [99.0049833749168, 0.05, 1.526623690636956],
  [60.653065971263345, 0.05, 2.909704295029337e-24],
  [100.0, 0.2, 7.965567455405797],
  [100.01000050001667, 0.2, 7.960966496115781],
  [101.00501670841679, 0.2, 7.513058243602449],
  [164.87212707001282, 0.2, 0.051253608315833234],
  [2008.5536923187667, 0.2, 2.1637857708566935e-50],
  [99.99000049998334, 1.0, 38.28557815193345],
  [99.0049833749168, 1.0, 37.606227146235106],
  [60.653065971263345, 1.0, 14.461007592485968],
  [4.978706836786395, 1.0, 0.007653195308044556],
  [100.0, 3.0, 86.63855974622838],
  [100.01000050001667, 3.0, 86.63789166239833],
  [101.00501670841679, 3.0, 86.57163433763724],
  [164.87212707001282, 3.0, 82.99958099476903],
  [2008.5536923187667, 3.0, 56.67379990924984],
  [99.999999, 10.0, 99.99994166968591],
  [99.7004495503373, 10.0, 99.70039230595633],
  [90.48374180359595, 10.0, 90.48368727185665],
  [36.787944117144235, 10.0, 36.78790950630256],
  [0.033546262790251184, 10.0, 0.03354548351564973],
];

const out: OtmBlack = { p: 0, q: 0, vega: 0, d1: 0, d2: 0 };

describe('out-of-the-money Black price without cancellation', () => {
  it('matches 50-digit references to 1e−12 relative across wings from 1e−246 to near the forward, s from 1e−4 to 10', () => {
    // Computed as F·Φ(d1) − K·Φ(d2), a far-wing price is the difference of two nearly equal numbers
    // and keeps only a few digits (or comes out negative): the quant would see a deep OTM quote
    // priced wrong by orders of magnitude, and implied vols that do not round-trip.
    for (const [K, s, ref] of REFERENCE) {
      otmBlack(F, K, s, out);
      expect(Math.abs(out.p / ref - 1), `K=${K} s=${s}`).toBeLessThan(1e-12);
      // The distance to the upper bound min(F, K) is consistent with the price.
      expect(Math.abs(out.p + out.q - Math.min(F, K))).toBeLessThanOrEqual(1e-14 * Math.min(F, K));
    }
  });

  it('the textbook formula with the same Φ loses the wing prices: the references can tell the two apart', () => {
    // Guards the test above: a straight F·Φ(d1) − K·Φ(d2) must miss the 1e−12 bar on this grid.
    let worst = 0;
    for (const [K, s, ref] of REFERENCE) {
      const d1 = Math.log(F / K) / s + s / 2;
      const d2 = d1 - s;
      const p = K >= F ? F * normCdf(d1) - K * normCdf(d2) : K * normCdf(-d2) - F * normCdf(-d1);
      worst = Math.max(worst, Math.abs(p / ref - 1));
    }
    expect(worst).toBeGreaterThan(1e-10);
  });

  it('optionValue prices a far-wing Black-76 call to the same precision: F=100, K=110.517, σ=1%, T=1 → 7.8576927710364e−25', () => {
    const v = optionValue({ model: 'black76', type: 'call', underlying: 100, strike: 110.51709180756477, expiry: 1, rate: 0, vol: 0.01 });
    expect(Math.abs(v.price / 7.857692771036439e-25 - 1)).toBeLessThan(1e-12);
    // In the money, the same option is the out-of-the-money put plus intrinsic value.
    const put = optionValue({ model: 'black76', type: 'put', underlying: 100, strike: 110.51709180756477, expiry: 1, rate: 0, vol: 0.01 });
    expect(put.price).toBeCloseTo(10.51709180756477, 13);
  });
});
