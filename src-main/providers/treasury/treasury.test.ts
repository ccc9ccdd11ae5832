import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../store/open';
import { buildProviderRegistry } from '../defaults';
import type { ProviderRegistry } from '../registry';
import { type FakeTreasury, startFakeTreasury } from './testing';

// Served from real recorded Treasury files (fixtures/README in ../fixtures): the 2023 CSV download,
// an October 2022 CSV where the 4-month bill starts mid-month, and the January 2022 XML feed.

let ust: FakeTreasury;
let db: ReturnType<typeof openDatabase>;
let now: Date;
let registry: ProviderRegistry;

beforeAll(async () => {
  ust = await startFakeTreasury();
});
afterAll(() => ust.close());
beforeEach(() => {
  db = openDatabase(':memory:');
  now = new Date('2026-11-27T15:00:00Z');
  ust.fault(null);
  ust.queries.length = 0;
  registry = buildProviderRegistry({
    db,
    secret: () => undefined,
    settings: () => ({ treasury: { enabled: true, baseUrl: ust.base } }),
    now: () => now,
    http: { timeoutMs: 10_000, retries: 1, retryBaseMs: 5, maxBytes: 256 * 1024 },
  });
});
afterEach(() => db.close());

const fetchUst = (params: unknown, asOf?: string) => registry.fetch('treasury', params, { asOf });
const cachedRows = () => (db.prepare('SELECT count(*) AS n FROM provider_cache').get() as { n: number }).n;

describe('treasury (US Treasury par yield curves)', () => {
  it('reads the official CSV download by tenor, oldest first, as of the last day with a curve', async () => {
    const r = await fetchUst({ start: '2023-07-01', end: '2023-09-01' });
    expect(ust.queries).toEqual([
      { format: 'csv', type: 'daily_treasury_yield_curve', year: '2023', raw: '?type=daily_treasury_yield_curve&field_tdr_date_value=2023&page&_format=csv' },
    ]);
    expect(r.label).toBe('UST nominal 2023-07-03..2023-09-01');
    expect(r.asOf).toBe('2023-09-01');
    expect(r.source).toBe('US Treasury daily_treasury_yield_curve (CSV)');
    const summary = r.formatSummary();
    expect(summary).toContain('US Treasury par yield curve (nominal): 44 days 2023-07-03..2023-09-01.');
    expect(summary).toContain(
      'Latest 2023-09-01: 1M 5.51, 2M 5.55, 3M 5.53, 4M 5.58, 6M 5.47, 1Y 5.36, 2Y 4.87, 3Y 4.57, 5Y 4.29, 7Y 4.27, 10Y 4.18, 20Y 4.48, 30Y 4.29.',
    );
    expect(summary).toContain('2s10s -69 bp on 2023-09-01.');
    // 07/03 → 09/01: 3M 5.44 → 5.53, 2Y 4.94 → 4.87, 10Y 3.86 → 4.18, 30Y 3.87 → 4.29.
    expect(summary).toContain('Change 2023-07-03→2023-09-01: 3M +9 bp, 2Y -7 bp, 10Y +32 bp, 30Y +42 bp.');
    const full = r.formatFull();
    expect(full).toContain('| date | 1M | 2M | 3M | 4M | 6M | 1Y | 2Y | 3Y | 5Y | 7Y | 10Y | 20Y | 30Y |');
    // A US date (07/03/2023) is read month first; the newest-first file is shown oldest first.
    expect(full).toMatch(/\| 2023-07-03 \| 5\.27 \| 5\.4 \| 5\.44 \|[^\n]*\n\| 2023-07-05 \| 5\.28 /);
    expect(full).not.toContain('2023-06-30');
  });

  it('reads the XML feed the same way: NEW_DATE by BC_ field, the 30-year display field is not a tenor', async () => {
    const r = await fetchUst({ start: '2022-01-01', end: '2022-01-31', format: 'xml' });
    expect(ust.queries[0]).toMatchObject({ format: 'xml', type: 'daily_treasury_yield_curve', year: '2022' });
    expect(r.label).toBe('UST nominal 2022-01-03..2022-01-24');
    expect(r.source).toBe('US Treasury daily_treasury_yield_curve (XML)');
    const full = r.formatFull();
    // No 4-month bill in January 2022: the feed has no such field, so no column.
    expect(full).toContain('| date | 1M | 2M | 3M | 6M | 1Y | 2Y | 3Y | 5Y | 7Y | 10Y | 20Y | 30Y |');
    expect(full).toContain('| 2022-01-03 | 0.05 | 0.06 | 0.08 | 0.22 | 0.4 | 0.78 | 1.04 | 1.37 | 1.55 | 1.63 | 2.05 | 2.01 |');
    expect(r.formatSummary()).toContain('US Treasury par yield curve (nominal): 15 days 2022-01-03..2022-01-24.');
  });

  it('keeps a tenor not yet published empty (never 0), picks the tenors asked in the words the site uses', async () => {
    const r = await fetchUst({ start: '2022-10-03', end: '2022-10-31', tenors: ['4 mo', '10y'] });
    const full = r.formatFull();
    expect(full).toContain('| date | 4M | 10Y |');
    expect(full).toContain('| 2022-10-18 |  | 4.01 |');
    expect(full).toContain('| 2022-10-19 | 4.32 | 4.14 |');
    expect(r.formatSummary()).toContain('Latest 2022-10-31: 4M 4.33, 10Y 4.1.');
    const before = await fetchUst({ start: '2022-10-03', end: '2022-10-18', tenors: ['4M', '10Y'] });
    expect(before.formatSummary()).toContain('4M not published in this range.');
    expect(before.formatFull()).not.toContain('| 2022-10-18 | 0 |');
  });

  it('serves the real (TIPS) curve from its own file, and refuses a tenor that curve does not have', async () => {
    const r = await fetchUst({ curve: 'real', start: '2024-01-01', end: '2024-01-12' });
    expect(ust.queries[0]).toMatchObject({ type: 'daily_treasury_real_yield_curve', year: '2024' });
    expect(r.formatSummary()).toContain(
      'US Treasury real par yield curve (TIPS): 9 days 2024-01-02..2024-01-12. Latest 2024-01-12: 5Y 1.57, 7Y 1.64, 10Y 1.72, 20Y 1.94, 30Y 2.03.',
    );
    ust.queries.length = 0;
    await expect(fetchUst({ curve: 'real', tenors: ['2Y'] })).rejects.toMatchObject({
      kind: 'bad_params',
      message: expect.stringContaining('"2Y" is not a real curve tenor; use 5Y, 7Y, 10Y, 20Y, 30Y'),
    });
    expect(ust.queries).toEqual([]);
  });

  it('asks one file per calendar year and joins them into one table', async () => {
    const r = await fetchUst({ start: '2022-10-20', end: '2023-07-05', tenors: ['2Y', '10Y'] });
    expect(ust.queries.map((q) => q.year)).toEqual(['2022', '2023']);
    expect(r.formatSummary()).toContain(': 11 days 2022-10-20..2023-07-05.');
    expect(r.formatFull()).toMatch(/\| 2022-10-31 \| 4\.51 \| 4\.1 \|\n\| 2023-06-30 \| 4\.87 \| 3\.81 \|/);
  });

  it('in a session as of a past date, cuts the days after it that the Treasury sent with the year, and says how many', async () => {
    // The Treasury serves whole years: without the cut, a session as of 15 August 2023 would see September's curve.
    const r = await fetchUst({ start: '2023-08-01' }, '2023-08-15');
    expect(ust.queries.map((q) => q.year)).toEqual(['2023']);
    expect(r.asOf).toBe('2023-08-15');
    expect(r.label).toBe('UST nominal 2023-08-01..2023-08-15');
    expect(r.formatSummary()).toContain('13 rows after 2023-08-15 were removed (the session is as of 2023-08-15).');
    const full = r.formatFull();
    expect(full).toContain('removed_after_as_of: 13');
    expect(full).not.toContain('2023-08-16');
    // As of a Sunday, the data is as of Friday's curve, not the Sunday asked.
    const sunday = await fetchUst({ start: '2023-08-01' }, '2023-08-13');
    expect(sunday.asOf).toBe('2023-08-11');
  });

  it('answers a range with no curve (a weekend) with an empty result and a sentence, not "not found"', async () => {
    const r = await fetchUst({ start: '2023-07-01', end: '2023-07-02' });
    expect(r.formatSummary()).toBe(
      'US Treasury par yield curve (nominal): no observations in 2023-07-01..2023-07-02. (Weekends and federal holidays have no curve; the current day appears after the close.)',
    );
    expect(r.asOf).toBe('2023-07-02');
    expect(r.formatFull()).toContain('rows: 0');
  });

  it('says "10 of 44" in the short summary when only the most recent days are shown', async () => {
    const r = await fetchUst({ start: '2023-07-01', end: '2023-09-01', limit: 10 });
    expect(r.formatSummary()).toContain(': 10 of 44 days (the most recent) 2023-08-21..2023-09-01.');
    expect(r.formatFull()).toContain('rows: 10 (most recent of 44)');
  });

  it('caches a past year a day and serves it again without asking the Treasury', async () => {
    await fetchUst({ start: '2023-07-01', end: '2023-09-01' });
    await fetchUst({ start: '2023-08-01', end: '2023-08-31', tenors: ['10Y'] });
    expect(ust.queries).toHaveLength(1);
    expect(cachedRows()).toBe(1);
    now = new Date(now.getTime() + 20 * 3_600_000);
    await fetchUst({ start: '2023-07-01', end: '2023-09-01' });
    expect(ust.queries).toHaveLength(1);
  });

  it('validates parameters before asking: order of dates, at most ten calendar years, a start after the session date', async () => {
    await expect(fetchUst({ start: '2023-09-01', end: '2023-07-01' })).rejects.toMatchObject({
      message: expect.stringContaining('params.end: ends before start'),
    });
    await expect(fetchUst({ start: '2001-01-01', end: '2023-01-01' })).rejects.toMatchObject({
      kind: 'bad_params',
      message: expect.stringContaining('at most 10'),
    });
    await expect(fetchUst({ start: '2023-09-01' }, '2023-08-15')).rejects.toMatchObject({ kind: 'as_of' });
    await expect(fetchUst({ curve: 'par' })).rejects.toMatchObject({ kind: 'bad_params' });
    expect(ust.queries).toEqual([]);
    expect(registry.list().find((p) => p.name === 'treasury')).toMatchObject({ health: { state: 'ok' }, enabled: true });
    expect(registry.list().find((p) => p.name === 'treasury')!.secret).toBeUndefined();
  });
});
