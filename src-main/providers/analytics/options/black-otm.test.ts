import { describe, expect, it } from 'vitest';
import { normCdf } from '../numeric/normal';
import { optionValue } from './black-scholes';
import { type OtmBlack, otmBlack } from './black-otm';

/**
 * References: the undiscounted Black price F·Φ(d1) − K·Φ(d2) (call, K ≥ F) or K·Φ(−d2) − F·Φ(−d1)
 * (put, K < F) evaluated with Python's decimal module at 50 significant digits from the exact
 * binary values of F, K and s (Φ as erfc(−x/√2)/2: erf Taylor series below 4, the erfc continued
 * fraction beyond, iterated to 1e−45), rounded to 20 digits. At 50 digits the subtraction's
 * cancellation (at most ~10⁶ here) leaves 40 good digits.
 */
const F = 100;
const REFERENCE: [number, number, number][] = [
  // [K, s = σ√T, price]
  [100.0, 0.0001, 3.9894228023520674695e-3],
  [99.999999, 0.0001, 3.9889228023533298643e-3],
  [100.000001, 0.0001, 3.9889228422475575876e-3],
  [99.99000049998334, 0.0001, 8.3311304852271844566e-4],
  [100.01000050001667, 0.0001, 8.3319636399155290871e-4],
  [99.7004495503373, 0.0001, 1.6295106319862227799e-201],
  [100.3004504503377, 0.0001, 1.6344065040054203545e-201],
  [100.0, 0.003, 1.1968263923943840804e-1],
  [99.999999, 0.003, 1.1968213864169137879e-1],
  [100.000001, 0.003, 1.1968213983851776815e-1],
  [99.99000049998334, 0.003, 1.1474338622367124531e-1],
  [100.01000050001667, 0.003, 1.1475486113602438642e-1],
  [99.7004495503373, 0.003, 2.4957159497502471174e-2],
  [100.3004504503377, 0.003, 2.5032143395603799369e-2],
  [99.0049833749168, 0.003, 3.3455635212115508387e-5],
  [101.00501670841679, 0.003, 3.3791869935911541444e-5],
  [90.48374180359595, 0.003, 5.4284710566184286741e-246],
  [110.51709180756477, 0.003, 5.999388341394301564e-246],
  [100.000001, 0.01, 3.9894012014306828491e-1],
  [100.3004504503377, 0.01, 2.6716019292696282451e-1],
  [110.51709180756477, 0.01, 7.8576927710364387682e-25],
  [99.99000049998334, 0.05, 1.9894081568189903146],
  [99.0049833749168, 0.05, 1.526623690636955951],
  [60.653065971263345, 0.05, 2.90970429502933669e-24],
  [100.0, 0.2, 7.9655674554057967337],
  [100.01000050001667, 0.2, 7.9609664961157816598],
  [101.00501670841679, 0.2, 7.5130582436024494921],
  [164.87212707001282, 0.2, 5.1253608315833233708e-2],
  [2008.5536923187667, 0.2, 2.1637857708566936521e-50],
  [99.99000049998334, 1.0, 3.828557815193345229e1],
  [99.0049833749168, 1.0, 3.7606227146235108337e1],
  [60.653065971263345, 1.0, 1.4461007592485967403e1],
  [4.978706836786395, 1.0, 7.6531953080445554029e-3],
  [100.0, 3.0, 8.6638559746228386799e1],
  [100.01000050001667, 3.0, 8.6637891662398328982e1],
  [101.00501670841679, 3.0, 8.6571634337637241274e1],
  [164.87212707001282, 3.0, 8.2999580994769030381e1],
  [2008.5536923187667, 3.0, 5.667379990924983674e1],
  [99.999999, 10.0, 9.9999941669685913337e1],
  [99.7004495503373, 10.0, 9.9700392305956330026e1],
  [90.48374180359595, 10.0, 9.0483687271856652603e1],
  [36.787944117144235, 10.0, 3.6787909506302562628e1],
  [0.033546262790251184, 10.0, 3.3545483515649731291e-2],
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
    expect(Math.abs(v.price / 7.8576927710364387682e-25 - 1)).toBeLessThan(1e-12);
    // In the money, the same option is the out-of-the-money put plus intrinsic value.
    const put = optionValue({ model: 'black76', type: 'put', underlying: 100, strike: 110.51709180756477, expiry: 1, rate: 0, vol: 0.01 });
    expect(put.price).toBeCloseTo(10.51709180756477, 13);
  });
});
