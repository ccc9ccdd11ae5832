import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../store/open';
import { buildProviderRegistry } from '../defaults';
import type { ProviderRegistry } from '../registry';
import { sendJson } from '../testing';
import { FRED_TEST_KEY, type FakeFred, RSAFS_INFO, startFakeFred } from './testing';

// The fetch tool's side (one FETCH FAILED line per fault) is tested in src-main/tools/fetch.test.ts.

let fred: FakeFred;
let db: ReturnType<typeof openDatabase>;
let now: Date;
let key: string | undefined;
let registry: ProviderRegistry;

beforeAll(async () => {
  fred = await startFakeFred();
});
afterAll(() => fred.close());
beforeEach(() => {
  db = openDatabase(':memory:');
  now = new Date('2026-11-21T15:00:00Z');
  key = FRED_TEST_KEY;
  fred.fault(null);
  fred.queries.length = 0;
  registry = buildProviderRegistry({
    db,
    secret: (name) => (name === 'fredApiKey' ? key : undefined),
    settings: () => ({ economic: { enabled: true, baseUrl: fred.base } }),
    now: () => now,
    http: { timeoutMs: 10_000, retries: 1, retryBaseMs: 5, maxBytes: 64 * 1024 }, // no normal answer times out on a busy machine
  });
});
afterEach(() => db.close());

const fetchEconomic = (params: unknown, asOf?: string) => registry.fetch('economic', params, { asOf });
const cachedRows = () => (db.prepare('SELECT count(*) AS n FROM provider_cache').get() as { n: number }).n;
const obsQueries = () => fred.queries.filter((q) => q.endpoint === 'series/observations').map((q) => q.query);

describe('economic (FRED)', () => {
  it('fetches observations with the transform, frequency and range asked for, and is as of the latest observation', async () => {
    const r = await fetchEconomic({ series_id: 'rsafs', start: '2024-07-01', units: 'pch', frequency: 'q', aggregation_method: 'eop' });
    const q = obsQueries()[0]!;
    expect(q).toMatchObject({
      series_id: 'RSAFS',
      observation_start: '2024-07-01',
      units: 'pch',
      frequency: 'q',
      aggregation_method: 'eop',
      file_type: 'json',
      api_key: FRED_TEST_KEY,
    });
    expect(q.realtime_end).toBeUndefined();
    expect(r.label).toBe('RSAFS pch 2024-07-01..2024-10-01');
    expect(r.asOf).toBe('2024-10-01');
    expect(r.source).toBe('FRED RSAFS');
    const summary = r.formatSummary();
    expect(summary).toContain('RSAFS (Advance Retail Sales: Retail Trade and Food Services; Mil. of $, M, SA), % change: 4 obs 2024-07-01..2024-10-01.');
    // August is missing ('.') in FRED: shown in the table, skipped by the summary.
    expect(summary).toContain('Latest 2024-10-01 102 (prev 2024-09-01 101.5); min 97.5, max 102.');
    const full = r.formatFull();
    expect(full).toContain('| 2024-08-01 | . |');
    expect(full).toContain('transform: pch (% change)');
    expect(full).toContain('frequency: q (eop)');
    expect(full).not.toContain(FRED_TEST_KEY);
  });

  it('in a session as of a past date, asks FRED for the vintage of that date and gets the numbers as first published', async () => {
    const r = await fetchEconomic({ series_id: 'RSAFS' }, '2024-10-20');
    expect(obsQueries()[0]).toMatchObject({ realtime_start: '2024-10-20', realtime_end: '2024-10-20', observation_end: '2024-10-20' });
    expect(fred.queries.find((q) => q.endpoint === 'series')!.query).toMatchObject({ realtime_start: '2024-10-20', realtime_end: '2024-10-20' });
    expect(r.asOf).toBe('2024-10-20');
    expect(r.source).toBe('FRED RSAFS (vintage 2024-10-20)');
    // September as known on 2024-10-20 is 100.0 (revised to 101.5 a month later); October was not yet out.
    expect(r.formatSummary()).toContain('Latest 2024-09-01 100');
    expect(r.formatFull()).not.toContain('2024-10-01 |');
  });

  it('serves ALFRED vintages: several real-time periods side by side, as of the latest vintage', async () => {
    const r = await fetchEconomic({ series_id: 'RSAFS', start: '2024-09-01', vintage_dates: ['2024-11-20', '2024-10-20'] });
    expect(obsQueries()[0]!.vintage_dates).toBe('2024-10-20,2024-11-20');
    expect(r.asOf).toBe('2024-11-20');
    expect(r.label).toBe('RSAFS 2024-09-01..2024-10-01 (vintages 2024-10-20, 2024-11-20)');
    const full = r.formatFull();
    expect(full).toContain('| 2024-09-01 | 100.0 | 2024-10-20 | 2024-10-20 |');
    expect(full).toContain('| 2024-09-01 | 101.5 | 2024-11-20 | 2024-11-20 |');
    expect(r.formatSummary()).toContain('2 real-time periods; latest values from vintage 2024-11-20.');
    // An explicit real-time window works the same way.
    const w = await fetchEconomic({ series_id: 'RSAFS', realtime_start: '2024-10-20', realtime_end: '2024-11-20' });
    expect(w.asOf).toBe('2024-11-20');
    expect(w.formatFull()).toContain('| 2024-09-01 | 100.0 | 2024-10-20 | 2024-11-14 |');
  });

  it('finds series by words', async () => {
    const r = await fetchEconomic({ search: 'retail sales', limit: 5 });
    expect(fred.queries[0]).toMatchObject({ endpoint: 'series/search', query: { search_text: 'retail sales', limit: '5' } });
    expect(r.asOf).toBe('2026-11-21');
    expect(r.formatSummary()).toBe(
      'FRED search "retail sales": 2 matches; top 2: RSAFS (Advance Retail Sales: Retail Trade and Food Services; M, Mil. of $, SA). RSXFS (Advance Retail Sales: Retail Trade; M, Mil. of $, SA).',
    );
    expect(r.formatFull()).toContain('| RSXFS | Advance Retail Sales: Retail Trade | M |');
    await expect(fetchEconomic({ search: 'zzz nothing' })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('validates parameters: either series_id or search, aggregation only with frequency, no vintage_dates with realtime_*', async () => {
    await expect(fetchEconomic({})).rejects.toMatchObject({ kind: 'bad_params', message: expect.stringContaining('params.series_id: give either series_id') });
    await expect(fetchEconomic({ series_id: 'RSAFS', aggregation_method: 'sum' })).rejects.toMatchObject({
      message: expect.stringContaining('params.aggregation_method: needs frequency'),
    });
    await expect(fetchEconomic({ series_id: 'RSAFS', vintage_dates: ['2024-10-20'], realtime_end: '2024-11-01' })).rejects.toMatchObject({
      message: expect.stringContaining('params.vintage_dates: use vintage_dates or realtime_start/realtime_end'),
    });
    await expect(fetchEconomic({ series_id: 'RSAFS', units: 'yoy' })).rejects.toMatchObject({
      message: expect.stringContaining('params.units: Invalid option'),
    });
    expect(fred.queries).toEqual([]);
  });

  it('without a key stays usable for series by id (fredgraph, tested in fredgraph.test.ts) and refuses search and vintages without calling FRED', async () => {
    key = undefined;
    expect(registry.list().find((p) => p.name === 'economic')).toMatchObject({ secret: 'fredApiKey', health: { state: 'ok' } });
    await expect(fetchEconomic({ search: 'retail sales' })).rejects.toMatchObject({ kind: 'not_configured' });
    await expect(fetchEconomic({ series_id: 'RSAFS', vintage_dates: ['2024-10-20'] })).rejects.toMatchObject({ kind: 'not_configured' });
    expect(fred.queries).toEqual([]);
    expect(cachedRows()).toBe(0);
  });

  it('refuses a vintage after the session as-of date before asking FRED', async () => {
    await expect(fetchEconomic({ series_id: 'RSAFS', realtime_start: '2025-01-02' }, '2024-12-31')).rejects.toMatchObject({ kind: 'as_of' });
    expect(fred.queries).toEqual([]);
  });

  it('cuts observations dated after the session as-of date even when the server sends them, and says how many', async () => {
    // A server that ignores observation_end (a misconfigured mirror, a proxy, a FRED bug): without the cut,
    // a session as of 2024-10-20 would show November's and December's numbers as if they were known then.
    fred.fault((req, res) => {
      if (new URL(req.url ?? '/', 'http://x').pathname.endsWith('/series')) return sendJson(res, 200, { seriess: [RSAFS_INFO] });
      const rows = [
        ['2024-12-01', '104.0'],
        ['2024-11-01', '103.0'],
        ['2024-10-01', '102.0'],
        ['2024-09-01', '100.0'],
      ].map(([date, value]) => ({ date: date!, value: value!, realtime_start: '2024-10-20', realtime_end: '2024-10-20' }));
      return sendJson(res, 200, { count: 4, observations: rows });
    }, 2);
    const r = await fetchEconomic({ series_id: 'RSAFS' }, '2024-10-20');
    expect(r.label).toBe('RSAFS 2024-09-01..2024-10-01 (vintage 2024-10-20)');
    expect(r.asOf).toBe('2024-10-20');
    const summary = r.formatSummary();
    expect(summary).toContain(': 2 obs 2024-09-01..2024-10-01.');
    expect(summary).toContain('Latest 2024-10-01 102 (prev 2024-09-01 100)');
    expect(summary).toContain('2 observations after 2024-10-20 were removed (the session is as of 2024-10-20).');
    const full = r.formatFull();
    expect(full).toContain('removed_after_as_of: 2');
    expect(full).not.toContain('2024-11-01');
    expect(full).not.toContain('2024-12-01');
  });

  it('is as of the last observation with a value, never a missing (".") row', async () => {
    // August 2024 is '.' in FRED: calling the data "as of August" would claim a number nobody has.
    const r = await fetchEconomic({ series_id: 'RSAFS', end: '2024-08-31' });
    expect(r.label).toBe('RSAFS 2024-06-01..2024-08-01');
    expect(r.asOf).toBe('2024-07-01');
  });

  it('answers a series with no observations in the range with an empty result and a sentence, not "not found"', async () => {
    const r = await fetchEconomic({ series_id: 'RSAFS', start: '2025-01-01' });
    expect(r.formatSummary()).toBe('RSAFS (Advance Retail Sales: Retail Trade and Food Services; Mil. of $, M, SA): no observations in 2025-01-01..….');
    expect(r.formatFull()).toContain('observations: 0');
    expect(r.asOf).toBe('2026-11-21');
    // In a session as of a past date, the sentence says which vintage was asked, and the result passes the as-of check.
    const v = await fetchEconomic({ series_id: 'RSAFS', start: '2024-10-01' }, '2024-10-20');
    expect(v.formatSummary()).toContain(': no observations in 2024-10-01..2024-10-20 as known on 2024-10-20.');
    expect(v.asOf).toBe('2024-10-20');
    // A series that does not exist is still not found.
    await expect(fetchEconomic({ series_id: 'NOPE' })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('says "2 of 5" in the short summary when FRED sent only the most recent page', async () => {
    const r = await fetchEconomic({ series_id: 'RSAFS', limit: 2 });
    expect(r.formatSummary()).toContain(': 2 of 5 obs (the most recent) 2024-09-01..2024-10-01.');
    expect(r.formatFull()).toContain('observations: 2 (most recent of 5)');
  });

  it('caches a success (an hour for current data, a day for a past vintage) and serves it without asking FRED again', async () => {
    await fetchEconomic({ series_id: 'RSAFS' });
    await fetchEconomic({ series_id: 'RSAFS', vintage_dates: ['2024-10-20'] });
    // The series' description is shared by both; each set of observations is its own request.
    expect(fred.queries.map((q) => q.endpoint)).toEqual(['series', 'series/observations', 'series/observations']);
    expect(cachedRows()).toBe(3);
    const stored = db.prepare('SELECT key, value FROM provider_cache').all() as { key: string; value: string }[];
    expect(stored.some((s) => s.key.includes(FRED_TEST_KEY) || s.value.includes(FRED_TEST_KEY))).toBe(false);
    await fetchEconomic({ series_id: 'RSAFS' });
    expect(fred.queries.length).toBe(3);
    now = new Date(now.getTime() + 2 * 3_600_000);
    // Two hours on: the past vintage's observations are still served from the cache, current data is asked for again.
    await fetchEconomic({ series_id: 'RSAFS', vintage_dates: ['2024-10-20'] });
    expect(obsQueries()).toHaveLength(2);
    await fetchEconomic({ series_id: 'RSAFS' });
    expect(obsQueries()).toHaveLength(3);
  });
});
