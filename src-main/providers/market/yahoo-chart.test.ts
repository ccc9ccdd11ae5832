import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CsvFormatError } from '../csv-table';
import { exchangeDate } from './exchange-date';
import { looksLikeYahooChart, readYahooChart } from './yahoo-chart';

// A Yahoo chart answer the PM saved: real recorded AAPL 2020-08-31..2020-11-07 (fixtures/README.md),
// which holds the 4:1 split of 2020-08-31 and the 0.205 dividend of 2020-11-06.
const RAW = readFileSync(join(__dirname, '..', 'fixtures', 'yahoo-chart-aapl.json'), 'utf8');
const bytes = (o: unknown) => Buffer.from(typeof o === 'string' ? o : JSON.stringify(o));
// The tests edit copies of the real answer; its nested shape is Yahoo's, not ours to type.
// biome-ignore lint/suspicious/noExplicitAny: a loosely typed copy of vendor JSON, edited in place
type Loose = any;
const clone = () => JSON.parse(RAW) as { chart: { result: Loose[]; error: unknown } };

describe('Yahoo chart JSON saved by the PM', () => {
  it('reads daily bars on the exchange calendar with Close and Adj Close kept apart, and reports the split and dividend without applying them', () => {
    expect(looksLikeYahooChart(RAW)).toBe(true);
    const c = readYahooChart(bytes(RAW));
    expect(c.symbol).toBe('AAPL');
    expect(c.timeZone).toBe('America/New_York');
    expect(c.table.header).toEqual(['date', 'open', 'high', 'low', 'close', 'adj_close', 'volume']);
    expect(c.table.rows).toHaveLength(49);
    const first = c.table.rows[0]!;
    // The split day: Yahoo's close (already split-adjusted) and its adj_close differ by the later dividend only.
    expect(first[0]).toBe('2020-08-31');
    expect(Number(first[4])).toBeCloseTo(129.04, 2);
    expect(Number(first[5])).toBeCloseTo(125.8267, 3);
    // Not adjusted again: a second 4:1 division would put the close near 32.
    expect(Number(first[4])).toBeGreaterThan(100);
    expect(c.table.rows.at(-1)![0]).toBe('2020-11-06');
    expect(c.events).toEqual([
      { date: '2020-08-31', kind: 'split', ratio: '4:1' },
      { date: '2020-11-06', kind: 'dividend', amount: 0.205 },
    ]);
    expect(c.eventsLine).toBe('Events: split 4:1 on 2020-08-31; dividend 0.205 on 2020-11-06 (reported, not applied).');
    expect(c.description).toContain('dates in America/New_York');
    expect(c.description).toContain('1 split and 1 dividend reported, not applied');
  });

  it('keeps a day Yahoo has no quote for as missing values, and places a morning bar of an exchange east of UTC on its own day (written case)', () => {
    // Written from the fixture: the second day's quote set to null as Yahoo writes it, and the zone moved to Sydney.
    const j = clone();
    const r = j.chart.result[0]!;
    for (const k of ['open', 'high', 'low', 'close', 'volume']) r.indicators.quote[0][k][1] = null;
    r.indicators.adjclose[0].adjclose[1] = null;
    const c = readYahooChart(bytes(j));
    expect(c.table.rows[1]!.slice(1)).toEqual([null, null, null, null, null, null]);
    expect(c.table.rows).toHaveLength(49);

    // 10:00 in Sydney on 2024-03-04 is 23:00 UTC on 2024-03-03: the UTC day would be the wrong one.
    const open = Date.UTC(2024, 2, 3, 23, 0) / 1000;
    const s = clone();
    const sr = s.chart.result[0]!;
    sr.meta.exchangeTimezoneName = 'Australia/Sydney';
    sr.timestamp = [open];
    for (const k of ['open', 'high', 'low', 'close', 'volume']) sr.indicators.quote[0][k] = [1];
    sr.indicators.adjclose[0].adjclose = [1];
    sr.events = {};
    const sydney = readYahooChart(bytes(s));
    expect(new Date(open * 1000).toISOString().slice(0, 10)).toBe('2024-03-03');
    expect(sydney.table.rows[0]![0]).toBe('2024-03-04');
    expect(sydney.eventsLine).toBeNull();
    // Only the offset known (no zone name): the offset places it the same way.
    delete sr.meta.exchangeTimezoneName;
    sr.meta.gmtoffset = 39600;
    expect(readYahooChart(bytes(s)).table.rows[0]![0]).toBe('2024-03-04');
    expect(exchangeDate(open * 1000, 'Australia/Sydney')).toBe('2024-03-04');
  });

  it('keeps one row per trading day when Yahoo appends the live bar of the last day', () => {
    const j = clone();
    const r = j.chart.result[0]!;
    const last = r.timestamp.at(-1) as number;
    r.timestamp.push(last + 5 * 3600); // 14:30 New York, same day
    for (const k of ['open', 'high', 'low', 'close', 'volume']) r.indicators.quote[0][k].push(999);
    r.indicators.adjclose[0].adjclose.push(999);
    const c = readYahooChart(bytes(j));
    expect(c.table.rows).toHaveLength(49);
    expect(c.table.rows.at(-1)![4]).toBe('999');
  });

  it('says in one sentence why a file cannot be read: cut off, an error answer, intraday bars, lists that do not match', () => {
    expect(() => readYahooChart(bytes(RAW.slice(0, RAW.length / 2)))).toThrow(/not complete JSON/);
    expect(() =>
      readYahooChart(bytes({ chart: { result: null, error: { code: 'Not Found', description: 'No data found, symbol may be delisted' } } })),
    ).toThrow(/Yahoo answered with an error, not prices: No data found, symbol may be delisted/);
    const intraday = clone();
    intraday.chart.result[0]!.meta.dataGranularity = '1m';
    expect(() => readYahooChart(bytes(intraday))).toThrow(/has 1m bars; save a daily one/);
    const short = clone();
    short.chart.result[0]!.indicators.quote[0].close.pop();
    expect(() => readYahooChart(bytes(short))).toThrow(/48 close values for 49 timestamps/);
    // A folder scan that reports bad CSVs reports these the same way.
    expect(() => readYahooChart(bytes('{"chart":'))).toThrow(CsvFormatError);
  });
});
