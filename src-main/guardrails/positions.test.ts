import { describe, expect, it } from 'vitest';
import { computeBook, expressionPosition } from './book';
import { defaultGuardrailLimits as limits } from './limits';
import { parsePositionsCsv } from './positions-csv';
import { parseSnapshot, renderSnapshot } from './snapshot';

const csvOptions = { asOf: '2026-11-23T09:00:00Z', navMusd: 500 };

describe('positions CSV from an order/risk system', () => {
  it('reads signed exposures, factors, durations and Expression links, ignoring extra columns', () => {
    const csv =
      'Instrument,Factor,Exposure_Pct_NAV,Duration,Expression,Book,Trader\n"UST 10y, futures",US Rates,20,0.9,E-001,MACRO,JS\nUSD/JPY,fx,-15,,,MACRO,JS\n';
    const s = parsePositionsCsv(csv, { ...csvOptions, expressionExists: (id) => id === 'E-001' });
    expect(s.positions).toEqual([
      { instrument: 'UST 10y, futures', factor: 'us_rates', exposurePct: 20, duration: 0.9, expression: 'E-001' },
      { instrument: 'USD/JPY', factor: 'fx', exposurePct: -15, duration: 0, expression: null },
    ]);
  });

  it('turns USD-million notionals into % of NAV and applies a side column', () => {
    const s = parsePositionsCsv('instrument;factor;notional_musd;side\r\nBund;eur_rates;50;buy\r\nOAT;eur_rates;25;sell\r\n', csvOptions);
    expect(s.positions.map((p) => p.exposurePct)).toEqual([10, -5]);
  });

  it('names the row and column of every bad cell, and imports nothing', () => {
    const csv = 'instrument,factor,exposure_pct_nav,duration,expression\nA,fx,abc,0,\nB,,10,x,\nC,fx,5,0,E-9\n';
    const err = (() => {
      try {
        parsePositionsCsv(csv, csvOptions);
      } catch (e) {
        return e as Error & { code: string };
      }
    })();
    expect(err?.code).toBe('invalid_input');
    expect(err?.message).toContain('nothing changed');
    expect(err?.message).toContain('Row 2, column exposure_pct_nav: "abc" is not a number.');
    expect(err?.message).toContain('Row 3, column factor: is empty.');
    expect(err?.message).toContain('Row 3, column duration: "x" is not a number.');
    expect(err?.message).toContain('Row 4, column expression: "E-9" is not an Expression id such as E-001.');
  });

  it('refuses a file without the needed columns, without rows, or naming an Expression that does not exist', () => {
    expect(() => parsePositionsCsv('name,amount\nA,1\n', csvOptions)).toThrow(/Row 1 \(header\): missing columns instrument, factor, exposure_pct_nav/);
    expect(() => parsePositionsCsv('instrument,factor,exposure_pct_nav\n', csvOptions)).toThrow(/no positions/);
    expect(() => parsePositionsCsv('instrument,factor,notional_musd\nA,fx,1\n', { ...csvOptions, navMusd: null })).toThrow(/needs the NAV/);
    expect(() => parsePositionsCsv('instrument,factor,exposure_pct_nav,expression\nA,fx,1,E-042\n', { ...csvOptions, expressionExists: () => false })).toThrow(
      /Row 2, column expression: there is no Expression E-042/,
    );
    expect(() => parsePositionsCsv('instrument,factor,exposure_pct_nav\n"A,fx,1\n', csvOptions)).toThrow(/quoted field is never closed/);
  });
});

describe('a positions file with one stray quote', () => {
  // If this fails, the PM fixes the quote, imports again, and only then learns of the other bad rows.
  it("lists the unclosed quote and every other row's problem in one answer", () => {
    const csv = 'instrument,factor,exposure_pct_nav\nA,fx,abc\n"B,fx,1\nC,,2\nD,fx,3\r\nE,fx,lots\n"UST 10y, futures",us_rates,20\n';
    let message = '';
    try {
      parsePositionsCsv(csv, csvOptions);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message.split('\n')).toEqual([
      'The positions file was not imported (nothing changed): 4 problems.',
      'Row 2, column exposure_pct_nav: "abc" is not a number.',
      'Row 3: a quoted field is never closed (it opens on this row).',
      'Row 4, column factor: is empty.',
      'Row 6, column exposure_pct_nav: "lots" is not a number.',
    ]);
  });
});

describe('the positions snapshot in /portfolio/state.md', () => {
  it('round-trips through render and parse', () => {
    const s = parsePositionsCsv('instrument,factor,exposure_pct_nav,duration,expression\nA | B,fx,-12.5,0.25,E-001\n', csvOptions);
    expect(parseSnapshot(renderSnapshot(s, 'test'))).toEqual({ ...s, positions: [{ ...s.positions[0]!, instrument: 'A / B' }] });
  });

  it('reads the older EXPOSURES table (bucket, gross % NAV, duration) as long positions', () => {
    const md =
      'as_of: 2026-01-02\n---\n## EXPOSURES\n| bucket | gross % NAV | duration (yrs) |\n|---|---|---|\n| US rates | 48.0 | 1.9 |\n| FX | 41.0 | 0.0 |\n';
    expect(parseSnapshot(md).positions.map((p) => [p.factor, p.exposurePct, p.duration])).toEqual([
      ['us_rates', 48, 1.9],
      ['fx', 41, 0],
    ]);
  });

  it('refuses a row it cannot read instead of leaving exposure out, naming the line', () => {
    const md = 'as_of: 2026-01-02\n---\n## POSITIONS\n| instrument | factor | exposure_pct_nav |\n|---|---|---|\n| A | fx | ten |\n';
    expect(() => parseSnapshot(md)).toThrow('/portfolio/state.md line 6, column exposure_pct_nav: "ten" is not a number.');
    expect(() => parseSnapshot('as_of: yesterday\n')).toThrow(/as_of "yesterday" is not a date/);
  });
});

describe('computeBook', () => {
  const snapshot = parseSnapshot(
    'as_of: 2026-11-20\nnav_musd: 100\n---\n## POSITIONS\n| instrument | factor | exposure_pct_nav | duration | expression |\n|---|---|---|---|---|\n| A | rates | 50 | 1 | E-001 |\n| B | fx | -30 | 0 | |\n',
  );
  const expr = (id: string, h: Record<string, unknown>) => expressionPosition(id, { view_id: 'V-001', max_loss_pct: 1, duration_impact: 0.5, ...h });

  it('adds trades activated after the snapshot and not those it already holds', () => {
    const book = computeBook(
      snapshot,
      [
        expr('E-001', { status: 'active', notional: 50, factor: 'rates', activated_at: '2026-11-25T10:00:00Z' }),
        expr('E-002', { status: 'active', notional: 10, factor: 'fx', activated_at: '2026-11-21T10:00:00Z' }),
        expr('E-003', { status: 'active', notional: 7, factor: 'fx', activated_at: '2026-11-19T10:00:00Z' }),
      ],
      limits,
    );
    // E-001 is named by the snapshot; E-003 went live before it was taken.
    expect([book.gross, book.net, book.duration, book.factors]).toEqual([90, 30, 1.5, { rates: 50, fx: 40 }]);
    expect(book.open.map((o) => [o.id, o.inSnapshot])).toEqual([
      ['E-001', true],
      ['E-002', false],
      ['E-003', true],
    ]);
  });

  it('a date-only as_of is the start of that day: a trade approved that day is counted on top (safer than missing it)', () => {
    const book = computeBook(snapshot, [expr('E-009', { status: 'active', notional: 5, factor: 'fx', activated_at: '2026-11-20T15:00:00Z' })], limits);
    expect(book.gross).toBe(85);
  });

  it('takes out what closed since the snapshot, keeps what closed before it', () => {
    const book = computeBook(
      snapshot,
      [expr('E-001', { status: 'closed', notional: 50, factor: 'rates', duration_impact: 1, closed_at: '2026-11-22T00:00:00Z' })],
      limits,
    );
    expect([book.gross, book.net, book.duration, book.factors, book.closedSinceSnapshot]).toEqual([30, -30, 0, { fx: 30 }, ['E-001']]);
    const before = computeBook(snapshot, [expr('E-001', { status: 'closed', notional: 50, factor: 'rates', closed_at: '2026-11-19T00:00:00Z' })], limits);
    expect(before.gross).toBe(80);
  });

  it('reports each limit as value vs limit, naming the largest factor and trade', () => {
    const book = computeBook(
      snapshot,
      [expr('E-002', { status: 'active', notional: 10, factor: 'fx', max_loss_pct: 2.5, duration_impact: -3, activated_at: '2026-11-21T00:00:00Z' })],
      limits,
    );
    expect(book.usage).toEqual([
      { rule: 'max_gross_exposure', value: 90, limit: 200 },
      { rule: 'max_factor_concentration', value: 55.555556, limit: 30, detail: 'rates' },
      { rule: 'max_single_risk', value: 2.5, limit: 5, detail: 'E-002' },
      { rule: 'max_duration_contribution', value: 3, limit: 5, detail: 'E-002' },
    ]);
  });
});
