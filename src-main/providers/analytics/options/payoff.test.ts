import { describe, expect, it } from 'vitest';
import { payoffTable } from './payoff';

describe('payoff tables at expiry', () => {
  it('100/110 call spread for a net 2 debit, ×1,000: max profit 8,000, max loss 2,000, breakeven 102', () => {
    // At 105: (5 − 3) + (0 + 1) = 3 → 3,000; above 110: (S − 103) − (S − 111) = 8 → 8,000; below 100: −3 + 1 = −2 → −2,000.
    const t = payoffTable(
      [
        { kind: 'call', strike: 100, premium: 3, quantity: 1 },
        { kind: 'call', strike: 110, premium: 1, quantity: -1 },
      ],
      [95, 105, 120],
      1000,
    );
    expect(t.rows.map((r) => r.total)).toEqual([-2000, 3000, 8000]);
    expect(t.rows[1]!.legs).toEqual([2000, 1000]);
    expect(t.netPremium).toBe(2000);
    expect(t.maxProfit).toBe(8000);
    expect(t.maxLoss).toBe(-2000);
    expect(t.breakevens).toEqual([102]);
  });

  it('long 100 straddle for 6: two breakevens (94 and 106), unbounded upside, max loss the premium', () => {
    const t = payoffTable([
      { kind: 'call', strike: 100, premium: 4, quantity: 1 },
      { kind: 'put', strike: 100, premium: 2, quantity: 1 },
    ]);
    expect(t.breakevens).toEqual([94, 106]);
    expect(t.maxProfit).toBe('unbounded');
    expect(t.maxLoss).toBe(-6);
    // The default grid runs from 0 to twice the highest strike and includes each strike.
    expect(t.rows[0]!.price).toBe(0);
    expect(t.rows.at(-1)!.price).toBe(200);
    expect(t.rows.some((r) => r.price === 100)).toBe(true);
  });

  it('covered call: long underlying at 50 and short a 55 call for 2 caps the profit at 7 and leaves a 48 breakeven', () => {
    const t = payoffTable([
      { kind: 'underlying', strike: 50, quantity: 1 },
      { kind: 'call', strike: 55, premium: 2, quantity: -1 },
    ]);
    expect(t.maxProfit).toBe(7); // (55 − 50) + 2
    expect(t.maxLoss).toBe(-48); // underlying to zero: −50 + 2
    expect(t.breakevens).toEqual([48]);
  });

  it('a naked short call has unbounded loss; a bad leg is refused', () => {
    expect(payoffTable([{ kind: 'call', strike: 100, premium: 3, quantity: -1 }]).maxLoss).toBe('unbounded');
    expect(() => payoffTable([{ kind: 'call', strike: 100, quantity: 0 }])).toThrow(/legs\[0\]\.quantity is 0/);
    expect(() => payoffTable([])).toThrow(/at least one leg/);
  });
});
