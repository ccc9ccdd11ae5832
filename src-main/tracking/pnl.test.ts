import { describe, expect, it } from 'vitest';
import { findExit, tradePnl } from './pnl';

/**
 * P&L against examples worked by hand. If these fail, Outcomes show the PM a P&L the book never
 * made (wrong sign for shorts, a stop filled at a price the market never traded, a wrong size).
 */

const pts = (rows: [string, number][]) => rows.map(([date, close]) => ({ date, close }));

describe('exit rules on daily closes', () => {
  it('long, target hit: the first close at or beyond the target exits, at that close', () => {
    // Long at 100 on 03-02, target 110, stop 95. Closes: 104, 109.9, 111 → target on 03-05 at 111.
    const p = pts([
      ['2026-03-02', 100],
      ['2026-03-03', 104],
      ['2026-03-04', 109.9],
      ['2026-03-05', 111],
      ['2026-03-06', 90],
    ]);
    const exit = findExit(p, { direction: 'up', target: 110, stop: 95, exitBy: null }, '2026-03-02', '2026-03-10');
    expect(exit).toEqual({ reason: 'target', date: '2026-03-05', price: 111 });
    // (111 − 100) / 100 = +11% of the position; × 5% of NAV = 55 bp of NAV.
    expect(tradePnl({ quote: 'price', direction: 'up', entry: 100, exit: 111, notional: 5, durationImpact: Number.NaN })).toEqual({
      pnlPct: 11,
      pnlBp: 55,
      moveBp: null,
      hit: true,
    });
  });

  it('short, stop hit exactly: exits at the stop, a loss', () => {
    // Short EURUSD at 1.10, stop 1.12. Closes 1.11 then 1.12 → stop on 03-04 at 1.12.
    const p = pts([
      ['2026-03-03', 1.11],
      ['2026-03-04', 1.12],
    ]);
    const exit = findExit(p, { direction: 'down', target: 1.05, stop: 1.12, exitBy: null }, '2026-03-02', '2026-03-10');
    expect(exit).toEqual({ reason: 'stop', date: '2026-03-04', price: 1.12 });
    // −1 × (1.12 − 1.10) / 1.10 = −1.8182% of the position; × 10% of NAV = −18.18 bp.
    const pnl = tradePnl({ quote: 'price', direction: 'down', entry: 1.1, exit: 1.12, notional: 10, durationImpact: Number.NaN });
    expect(pnl).toEqual({ pnlPct: -1.8182, pnlBp: -18.18, moveBp: null, hit: false });
  });

  it('a gap through the stop exits at the gap price, so the loss exceeds the planned one', () => {
    // Long at 100, stop 95 (planned loss 5% × 5 = 25 bp). Close 98, then gaps to 88.
    const p = pts([
      ['2026-03-03', 98],
      ['2026-03-04', 88],
    ]);
    const exit = findExit(p, { direction: 'up', target: 120, stop: 95, exitBy: null }, '2026-03-02', '2026-03-10');
    expect(exit).toEqual({ reason: 'stop', date: '2026-03-04', price: 88 });
    // (88 − 100) / 100 = −12%; × 5 = −60 bp of NAV, not the −25 bp the stop promised.
    expect(tradePnl({ quote: 'price', direction: 'up', entry: 100, exit: 88, notional: 5, durationImpact: Number.NaN })).toMatchObject({
      pnlPct: -12,
      pnlBp: -60,
      hit: false,
    });
  });

  it('time exit: the last close on or before exit_by, once that day is over', () => {
    // Steepener (spread in bp) entered at 50 on 03-02, target 75, stop 38, close by 03-31.
    const p = pts([
      ['2026-03-20', 51],
      ['2026-03-30', 52],
      ['2026-04-01', 80],
    ]);
    const rules = { direction: 'up' as const, target: 75, stop: 38, exitBy: '2026-03-31' };
    // On 03-31 itself the day is not over and no later close exists yet: no exit.
    expect(findExit(p.slice(0, 2), rules, '2026-03-02', '2026-03-31')).toBeNull();
    // The close of 04-01 (80, past the target) comes after the time exit and is not used.
    expect(findExit(p, rules, '2026-03-02', '2026-04-02')).toEqual({ reason: 'time', date: '2026-03-30', price: 52 });
    // Move = +1 × (52 − 50) = +2 bp; × duration_impact 0.6 = +1.2 bp of NAV; / notional 10 = +0.12%.
    expect(tradePnl({ quote: 'spread', direction: 'up', entry: 50, exit: 52, notional: 10, durationImpact: 0.6 })).toEqual({
      pnlPct: 0.12,
      pnlBp: 1.2,
      moveBp: 2,
      hit: true,
    });
  });

  it('a time exit whose data stops well before it waits instead of closing on a stale price', () => {
    const p = pts([['2026-03-01', 52]]);
    const exit = findExit(p, { direction: 'up', target: 75, stop: 38, exitBy: '2026-03-31' }, '2026-02-20', '2026-04-10');
    expect(exit).toEqual({ stale: expect.stringContaining('the last close is 2026-03-01') });
  });

  it('receive fixed (gains as the yield falls): the move in bp times duration is the NAV P&L', () => {
    // E-001 shape: receive 2y at 3.62%, out at 3.15%. Move = −1 × (3.15 − 3.62) × 100 = +47 bp;
    // × duration_impact 1.1 = +51.7 bp of NAV; / notional 12 = +4.3083% of the position.
    expect(tradePnl({ quote: 'yield', direction: 'down', entry: 3.62, exit: 3.15, notional: 12, durationImpact: 1.1 })).toEqual({
      pnlPct: 4.3083,
      pnlBp: 51.7,
      moveBp: 47,
      hit: true,
    });
  });

  it('refuses to size a trade without the fields the formula needs', () => {
    expect(tradePnl({ quote: 'yield', direction: 'down', entry: 3.6, exit: 3.5, notional: 12, durationImpact: Number.NaN })).toEqual({
      problem: expect.stringContaining('duration_impact'),
    });
    expect(tradePnl({ quote: 'price', direction: 'up', entry: 100, exit: 101, notional: Number.NaN, durationImpact: 0 })).toEqual({
      problem: expect.stringContaining('notional'),
    });
  });
});
