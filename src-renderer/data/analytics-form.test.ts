import { describe, expect, it } from 'vitest';
import { bondsRequest, fixed, optionRequest, parsePercent, parseYears, payoffAtExpiry, pct, sampleBonds, sampleOption, spotGrid } from './analytics-form';

describe('the option form in the PM units', () => {
  it('turns percentages and tenors into the decimals and years the pricer takes', () => {
    expect(optionRequest(sampleOption)).toEqual({
      ok: true,
      value: { model: 'bsm', type: 'call', underlying: 100, strike: 100, expiryYears: 1, rate: 0.05, dividendYield: 0, vol: 0.2 },
    });
    const iv = optionRequest({ ...sampleOption, solve: 'iv', price: '10.4506', expiry: '6m' });
    expect(iv).toEqual({
      ok: true,
      value: { model: 'bsm', type: 'call', underlying: 100, strike: 100, expiryYears: 0.5, rate: 0.05, dividendYield: 0, price: 10.4506 },
    });
  });

  it('sends no dividend yield with Black-76, which has none', () => {
    const req = optionRequest({ ...sampleOption, model: 'black76', dividendYield: '3' });
    expect(req.ok && 'dividendYield' in req.value).toBe(false);
  });

  it('names every field to fix', () => {
    expect(optionRequest({ ...sampleOption, underlying: '-5', strike: 'abc', expiry: 'soon', rate: '150', vol: '0' })).toEqual({
      ok: false,
      errors: {
        underlying: 'Spot must be more than 0',
        strike: 'Strike must be a number',
        expiry: 'Expiry must be years (1, 0.25) or a tenor (6m, 2w, 30d)',
        rate: 'Rate must be between −100% and 100%',
        vol: 'Volatility must be more than 0% and at most 1000%',
      },
    });
    expect(optionRequest({ ...sampleOption, solve: 'iv', price: '' })).toEqual({ ok: false, errors: { price: 'Option price must be a number' } });
  });

  it('reads percentages with or without the sign', () => {
    expect(parsePercent('4.5')).toBeCloseTo(0.045, 15);
    expect(parsePercent('4.5%')).toBeCloseTo(0.045, 15);
    expect(parsePercent('-0.5')).toBeCloseTo(-0.005, 15);
    expect(parsePercent('four')).toBeNull();
  });

  it('reads expiries as years or tenors', () => {
    expect(parseYears('0.25')).toBe(0.25);
    expect(parseYears('3m')).toBe(0.25);
    expect(parseYears('2Y')).toBe(2);
    expect(parseYears('2w')).toBeCloseTo(14 / 365, 12);
    expect(parseYears('30d')).toBeCloseTo(30 / 365, 12);
    expect(parseYears('3 months')).toBeNull();
  });
});

describe('the value chart', () => {
  it('spans the spot and strike with room either side', () => {
    const grid = spotGrid(100, 120, 5);
    expect(grid).toEqual([60, 87, 114, 141, 168]);
  });

  it('pays max(S − K, 0) on a call and max(K − S, 0) on a put at expiry', () => {
    expect(payoffAtExpiry('call', 100, [80, 100, 130]).map((p) => p.y)).toEqual([0, 0, 30]);
    expect(payoffAtExpiry('put', 100, [80, 100, 130]).map((p) => p.y)).toEqual([20, 0, 0]);
  });
});

describe('the curve instruments', () => {
  it('sends the sample as six par bonds with decimal coupons', () => {
    const req = bondsRequest(sampleBonds);
    expect(req.ok).toBe(true);
    if (!req.ok) return;
    expect(req.value).toHaveLength(6);
    expect(req.value[0]).toEqual({ maturity: 0.5, coupon: 0.048, frequency: 2 });
    expect(req.value.every((b) => !('price' in b))).toBe(true);
  });

  it('takes a price for an off-par bond and skips blank rows', () => {
    const req = bondsRequest([
      { maturity: '1', coupon: '0', price: '95.5', frequency: '1' },
      { maturity: '', coupon: '', price: '', frequency: '2' },
      { maturity: '2y', coupon: '4%', price: '', frequency: '4' },
    ]);
    expect(req).toEqual({
      ok: true,
      value: [
        { maturity: 1, coupon: 0, price: 95.5, frequency: 1 },
        { maturity: 2, coupon: 0.04, frequency: 4 },
      ],
    });
  });

  it('marks each bad cell and a repeated maturity', () => {
    expect(
      bondsRequest([
        { maturity: '1', coupon: 'x', price: '', frequency: '2' },
        { maturity: '1', coupon: '4', price: '-3', frequency: '2' },
      ]),
    ).toEqual({
      ok: false,
      errors: { '0.coupon': 'a coupon in %, 0 to 100', '1.maturity': 'same maturity as row 1', '1.price': 'a price per 100 above 0, or empty for par' },
    });
    expect(bondsRequest([{ maturity: '1', coupon: '4', price: '', frequency: '2' }])).toEqual({ ok: false, errors: { table: 'enter at least two bonds' } });
  });
});

describe('figures', () => {
  it('shows rates as percentages and negatives with a true minus, never −0', () => {
    expect(pct(0.047433053)).toBe('4.743%');
    expect(pct(-0.0025, 2)).toBe('−0.25%');
    expect(fixed(-6.41402 / 365, 4)).toBe('−0.0176');
    expect(fixed(-0.00001, 4)).toBe('0.0000');
  });
});
