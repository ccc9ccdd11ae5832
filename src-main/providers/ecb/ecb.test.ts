import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../store/open';
import { buildProviderRegistry } from '../defaults';
import type { ProviderRegistry } from '../registry';
import { type FakeEcb, startFakeEcb } from './testing';

// EXR is a real recorded ECB answer (2023 USD/EUR reference rates, full 32-column SDMX-CSV, CRLF);
// the HICP and €STR files are written in the same format (see ../fixtures/README.md).

let ecb: FakeEcb;
let db: ReturnType<typeof openDatabase>;
let now: Date;
let registry: ProviderRegistry;

beforeAll(async () => {
  ecb = await startFakeEcb();
});
afterAll(() => ecb.close());
beforeEach(() => {
  db = openDatabase(':memory:');
  now = new Date('2026-11-27T15:00:00Z');
  ecb.fault(null);
  ecb.queries.length = 0;
  registry = buildProviderRegistry({
    db,
    secret: () => undefined,
    settings: () => ({ ecb: { enabled: true, baseUrl: ecb.base } }),
    now: () => now,
    http: { timeoutMs: 10_000, retries: 1, retryBaseMs: 5, maxBytes: 256 * 1024 },
  });
});
afterEach(() => db.close());

const fetchEcb = (params: unknown, asOf?: string) => registry.fetch('ecb', params, { asOf });
const cachedRows = () => (db.prepare('SELECT count(*) AS n FROM provider_cache').get() as { n: number }).n;

describe('ecb (ECB Data Portal, SDMX-CSV)', () => {
  it('reads a named series from the real SDMX-CSV, quoted titles and CRLF included, as of its last observation', async () => {
    const r = await fetchEcb({ series: 'eurusd', start: '2023-01-01', end: '2023-01-31' });
    expect(ecb.queries).toEqual([{ id: 'EXR/D.USD.EUR.SP00.A', query: { format: 'csvdata', startPeriod: '2023-01-01', endPeriod: '2023-01-31' } }]);
    expect(r.label).toBe('ECB eurusd 2023-01-04..2023-01-31');
    expect(r.asOf).toBe('2023-01-31');
    expect(r.source).toBe('ECB Data Portal EXR/D.USD.EUR.SP00.A');
    expect(r.formatSummary()).toBe(
      'ECB eurusd — ECB reference rate, US dollars per euro (EXR/D.USD.EUR.SP00.A): 20 obs 2023-01-04..2023-01-31. Latest 2023-01-31 1.0833 (prev 2023-01-30 1.0903); min 1.05, max 1.0903.',
    );
    const full = r.formatFull();
    expect(full).toContain('series eurusd: EXR.D.USD.EUR.SP00.A — US dollar/Euro [USD]');
    expect(full).toContain('| date | eurusd |');
    expect(full).toContain('| 2023-01-06 | 1.05 |');
    // Any FLOW/KEY works too, in the portal's dotted form as well.
    const dotted = await fetchEcb({ series: 'EXR.D.USD.EUR.SP00.A', start: '2023-02-01', end: '2023-02-03' });
    expect(dotted.formatFull()).toContain('| 2023-02-02 | 1.0988 |');
    expect(ecb.queries[1]!.id).toBe('EXR/D.USD.EUR.SP00.A');
  });

  it('reads monthly periods (2024-03) and dates each by its last day', async () => {
    const r = await fetchEcb({ series: 'hicp', start: '2024-01', end: '2024-12' });
    expect(ecb.queries[0]!.query).toMatchObject({ startPeriod: '2024-01', endPeriod: '2024-12' });
    expect(r.label).toBe('ECB hicp 2024-01..2024-12');
    expect(r.asOf).toBe('2024-12-31');
    expect(r.formatSummary()).toContain('12 obs 2024-01..2024-12. Latest 2024-12 2.4 (prev 2024-11 2.2); min 1.7, max 2.8.');
    expect(r.formatFull()).toContain('unit: % change');
  });

  it('in a session as of a past date, asks only up to it and still cuts a period that ends after it, saying how many', async () => {
    // The ECB includes March when asked up to 15 March; March's inflation is not known on 15 March.
    const r = await fetchEcb({ series: 'hicp', start: '2024-01' }, '2024-03-15');
    expect(ecb.queries[0]!.query).toMatchObject({ startPeriod: '2024-01', endPeriod: '2024-03-15' });
    expect(r.asOf).toBe('2024-02-29');
    expect(r.label).toBe('ECB hicp 2024-01..2024-02');
    const summary = r.formatSummary();
    expect(summary).toContain('1 row after 2024-03-15 was removed (the session is as of 2024-03-15).');
    expect(summary).toContain('Periods are dated by their last day; their later release date is not modelled.');
    expect(r.formatFull()).not.toContain('| 2024-03 |');
    await expect(fetchEcb({ series: 'hicp', start: '2024-04' }, '2024-03-15')).rejects.toMatchObject({ kind: 'as_of' });
  });

  it('is as of the last observation with a value, never a missing (status M) row', async () => {
    const r = await fetchEcb({ series: 'estr', start: '2024-06-01', end: '2024-06-30' });
    expect(r.asOf).toBe('2024-06-14');
    expect(r.formatFull()).toContain('| 2024-06-17 |  |');
    expect(r.formatSummary()).toContain('Latest 2024-06-14 3.661 (prev 2024-06-13 3.662)');
  });

  it('puts several series of one key side by side, a curve in maturity order with each tenor named', async () => {
    // Written in the ECB's format (no recorded multi-series answer was found): the ECB lists keys as
    // text, so SR_10Y arrives before SR_2Y; 2024-06-14 has no 2-year point.
    const head = 'KEY,FREQ,REF_AREA,CURRENCY,PROVIDER_FM,INSTRUMENT_FM,PROVIDER_FM_ID,DATA_TYPE_FM,TIME_PERIOD,OBS_VALUE,OBS_STATUS,TITLE,UNIT';
    const row = (t: string, d: string, v: string) =>
      `YC.B.U2.EUR.4F.G_N_A.SV_C_YM.${t},B,U2,EUR,4F,G_N_A,SV_C_YM,${t},${d},${v},${v ? 'A' : 'M'},"Yield curve spot rate, ${t}",PCPA`;
    const body = [
      head,
      row('SR_10Y', '2024-06-13', '2.52'),
      row('SR_10Y', '2024-06-14', '2.41'),
      row('SR_2Y', '2024-06-13', '2.85'),
      row('SR_2Y', '2024-06-14', ''),
    ];
    ecb.fault((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' }).end(`${body.join('\r\n')}\r\n`);
    }, 1);
    const r = await fetchEcb({ series: 'aaa_curve', start: '2024-06-13', end: '2024-06-14' });
    expect(ecb.queries[0]!.id).toBe('YC/B.U2.EUR.4F.G_N_A.SV_C_YM.SR_3M+SR_1Y+SR_2Y+SR_5Y+SR_10Y+SR_30Y');
    const full = r.formatFull();
    expect(full).toContain('| date | SR_2Y | SR_10Y |');
    expect(full).toContain('| 2024-06-14 |  | 2.41 |');
    expect(full).toContain('unit: % per annum');
    expect(r.formatSummary()).toContain('2 obs 2024-06-13..2024-06-14. Latest 2024-06-14: SR_10Y 2.41.');
  });

  it('answers a window with no observations (the ECB says 404) with an empty result and a sentence; an unknown series is not found', async () => {
    const r = await fetchEcb({ series: 'eurusd', start: '2023-01-01', end: '2023-01-03' });
    expect(ecb.queries.map((q) => q.query.lastNObservations ?? 'range')).toEqual(['range', '1']);
    expect(r.formatSummary()).toBe(
      'ECB eurusd — ECB reference rate, US dollars per euro (EXR/D.USD.EUR.SP00.A): no observations in 2023-01-01..2023-01-03. The latest observation is 2023-02-28 (1.0619).',
    );
    expect(r.asOf).toBe('2023-01-03');
    await expect(fetchEcb({ series: 'EXR/D.XXX.EUR.SP00.A', start: '2023-01-01' })).rejects.toMatchObject({
      kind: 'not_found',
      message: expect.stringContaining('The ECB has no series EXR/D.XXX.EUR.SP00.A (No results found.)'),
    });
    await expect(fetchEcb({ series: 'EXR/D.XXX.EUR.SP00.A' })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('says "5 of 20" in the short summary when only the most recent observations are shown', async () => {
    const r = await fetchEcb({ series: 'eurusd', start: '2023-01-01', end: '2023-01-31', limit: 5 });
    expect(r.formatSummary()).toContain(': 5 of 20 obs (the most recent) 2023-01-25..2023-01-31.');
    expect(r.formatFull()).toContain('rows: 5 (most recent of 20)');
  });

  it('caches a success and serves it again without asking the ECB', async () => {
    await fetchEcb({ series: 'eurusd', start: '2023-01-01', end: '2023-01-31' });
    await fetchEcb({ series: 'EXR/D.USD.EUR.SP00.A', start: '2023-01-01', end: '2023-01-31' });
    expect(ecb.queries).toHaveLength(1);
    expect(cachedRows()).toBe(1);
    // A window that ended years ago does not change: still served a few hours later.
    now = new Date(now.getTime() + 5 * 3_600_000);
    await fetchEcb({ series: 'eurusd', start: '2023-01-01', end: '2023-01-31' });
    expect(ecb.queries).toHaveLength(1);
  });

  it('refuses a series that is neither a name nor FLOW/KEY, and periods it cannot read, before asking', async () => {
    await expect(fetchEcb({ series: 'euro dollar' })).rejects.toMatchObject({
      kind: 'bad_params',
      message: expect.stringContaining('is neither a known name (estr, dfr, hicp'),
    });
    await expect(fetchEcb({ series: 'hicp', start: 'March 2024' })).rejects.toMatchObject({ message: expect.stringContaining('params.start:') });
    await expect(fetchEcb({ series: 'hicp', start: '2024-06', end: '2024-01' })).rejects.toMatchObject({
      message: expect.stringContaining('ends before start'),
    });
    expect(ecb.queries).toEqual([]);
    expect(registry.list().find((p) => p.name === 'ecb')).toMatchObject({ health: { state: 'ok' }, enabled: true });
  });
});
