import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../common';
import { parseRecord } from '../fs';
import { parseLevel, readTradeTerms, resolveDirection, resolveLevel, resolveQuote } from './terms';

const seed = (id: string) => parseRecord(readFileSync(join(packageRoot(), 'resources', 'seed', 'memory', 'expressions', `${id}.md`), 'utf8'));

/** The demo's Expressions write their rules in the body; if these fail, the seed trades are never tracked. */
describe('trade terms', () => {
  it('reads the seed E-001: entry, target, stop and time from the body, size from the header', () => {
    const t = readTradeTerms(seed('E-001'));
    expect(t).toMatchObject({
      entryPrice: { kind: 'level', value: 3.62, unit: '%' },
      entryDate: '2026-10-15',
      target: { kind: 'level', value: 3.17, unit: '%' },
      stop: { kind: 'level', value: 3.87, unit: '%' },
      exitBy: '2027-03-31',
      notional: 12,
      durationImpact: 1.1,
      priceSeries: ['ust_yields.sofr_2y_swap'],
    });
    expect(resolveQuote(t, null)).toBe('yield');
    // Receive fixed: the target is below the entry, so it gains as the yield falls.
    expect(resolveDirection(t, 3.62, 3.17, 3.87)).toEqual({ direction: 'down' });
  });

  it('reads E-002 (spread in bp) and E-003 (moves from an unstated entry)', () => {
    const e2 = readTradeTerms(seed('E-002'));
    expect(resolveQuote(e2, null)).toBe('spread');
    expect(e2).toMatchObject({ entryPrice: { value: 38, unit: 'bp' }, target: { value: 23 }, stop: { value: 48 }, exitBy: null });
    const e3 = readTradeTerms(seed('E-003'));
    expect(e3).toMatchObject({
      entryPrice: null,
      entryDate: null,
      target: { kind: 'move', value: 25, unit: 'bp' },
      stop: { kind: 'move', value: -12, unit: 'bp' },
    });
    // A steepener entered at 40 bp: target 65, stop 28.
    expect(resolveLevel(e3.target!, 'spread', 40)).toBe(65);
    expect(resolveLevel(e3.stop!, 'spread', 40)).toBe(28);
    // The same moves on a yield in %: +25 bp is +0.25.
    expect(resolveLevel(e3.target!, 'yield', 4)).toBeCloseTo(4.25, 10);
  });

  it('prefers header fields, reads a list of price series, and refuses contradictory rules', () => {
    const t = readTradeTerms({
      header: { price_series: ['UST2Y', 'ust_yields.us2y'], direction: 'long', target: 90, stop: 110, entry_price: 100, exit_by: '2026-05-01', notional: -5 },
      body: '## EXIT RULES\n- Target: 120\n',
    });
    expect(t).toMatchObject({ priceSeries: ['UST2Y', 'ust_yields.us2y'], direction: 'up', target: { value: 90 }, exitBy: '2026-05-01', notional: 5 });
    expect(resolveDirection(t, 100, 90, 110)).toEqual({ problem: expect.stringContaining('direction says it gains when the price goes up') });
    expect(resolveDirection({ ...t, direction: null }, 100, 90, 80)).toEqual({ problem: expect.stringContaining('same side of the entry') });
  });

  it('parses the level shapes PMs write, and refuses a bare signed number', () => {
    expect(parseLevel('3.17%.')).toEqual({ kind: 'level', value: 3.17, unit: '%' });
    expect(parseLevel('at 1.0850')).toEqual({ kind: 'level', value: 1.085, unit: null });
    expect(parseLevel('+5%')).toEqual({ kind: 'move', value: 5, unit: '%' });
    expect(parseLevel('−12 bps')).toEqual({ kind: 'move', value: -12, unit: 'bp' });
    expect(parseLevel('+25')).toBeNull();
    expect(parseLevel('soon')).toBeNull();
  });

  it('reads price_series as a list, a comma or space separated line, or a quoted name with spaces', () => {
    // Failing this, `["spy.Adj Close"]` would be followed as "spy.Adj" and "Close": a Yahoo file's adjusted close could not be named.
    const series = (line: string) => readTradeTerms(parseRecord(`# E-001 — t\n${line}\n---\nx\n`)).priceSeries;
    expect(series('price_series: ["spy.Adj Close", UST2Y]')).toEqual(['spy.Adj Close', 'UST2Y']);
    expect(series('price_series: "spy.Adj Close"')).toEqual(['spy.Adj Close']);
    expect(series('price_series: spy.adj_close, UST2Y')).toEqual(['spy.adj_close', 'UST2Y']);
    expect(series('price_series: UST2Y ust_yields.us2y')).toEqual(['UST2Y', 'ust_yields.us2y']);
    expect(series('price_series: [yahoo-spy.close]')).toEqual(['yahoo-spy.close']);
  });
});
