import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../store/open';
import { buildProviderRegistry } from '../defaults';
import type { ProviderRegistry } from '../registry';
import { type LocalServer, startLocalServer } from '../testing';
import { fredXmlError, parseFredObservationsXml } from './fred-xml';
import { FRED_TEST_KEY } from './testing';

// FRED's graph CSV (no key) and FRED's XML answers, each read from a real recorded file
// (fixtures/README.md), and the faults a real server produces.

const FIXTURES = join(__dirname, '..', 'fixtures');
const GRAPH = readFileSync(join(FIXTURES, 'fredgraph.csv'));
const XML = readFileSync(join(FIXTURES, 'fred-observations-sp500.xml'), 'utf8');

type Handler = (res: ServerResponse, query: URLSearchParams, path: string) => void;
let server: LocalServer;
let handler: Handler;
let db: ReturnType<typeof openDatabase>;
let key: string | undefined;
let registry: ProviderRegistry;

const csv = (res: ServerResponse, body: string | Buffer, status = 200) => {
  res.writeHead(status, { 'content-type': 'text/csv' });
  res.end(body);
};

beforeAll(async () => {
  server = await startLocalServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    handler(res, url.searchParams, url.pathname);
  });
});
afterAll(() => server.close());
beforeEach(() => {
  db = openDatabase(':memory:');
  key = undefined;
  server.requests.length = 0;
  handler = (res) => csv(res, GRAPH);
  registry = buildProviderRegistry({
    db,
    secret: (name) => (name === 'fredApiKey' ? key : undefined),
    settings: () => ({ economic: { enabled: true, baseUrl: `${server.url}/fred` } }),
    now: () => new Date('2026-11-21T15:00:00Z'),
    http: { timeoutMs: 10_000, retries: 1, retryBaseMs: 5, maxBytes: 64 * 1024 },
  });
});
afterEach(() => db.close());

const fetchEconomic = (params: unknown, asOf?: string) => registry.fetch('economic', params, { asOf });
const graphQueries = () => server.requests.filter((r) => r.url.startsWith('/graph/fredgraph.csv')).map((r) => new URL(r.url, 'http://x').searchParams);

describe('economic without a FRED key (fredgraph CSV)', () => {
  it('serves any series by id from the graph CSV, "." kept missing, as of the last real value', async () => {
    // Without this a PM with no FRED key gets "not configured" for the 10-year yield FRED gives away.
    expect(registry.list().find((p) => p.name === 'economic')!.health).toMatchObject({ state: 'ok', detail: expect.stringContaining('graph CSV') });
    const r = await fetchEconomic({ series_id: 'dgs3mo', end: '1980-03-31' });
    expect(graphQueries()[0]!.get('id')).toBe('DGS3MO');
    expect(graphQueries()[0]!.get('coed')).toBe('1980-03-31');
    expect(r.source).toBe('FRED DGS3MO (fredgraph CSV, no key)');
    // DGS3MO starts later than the file: every row here is FRED's "." — missing, never 0, never text.
    expect(r.formatFull()).toContain('| 1979-08-01 | . |');
    expect(r.formatSummary()).toContain('No numeric values (all missing).');
    const dgs10 = await fetchEconomic({ series_id: 'DGS10', start: '1980-01-01', end: '1980-03-31' });
    expect(dgs10.label).toBe('DGS10 1980-01-01..1980-03-01');
    expect(dgs10.asOf).toBe('1980-03-01');
    expect(dgs10.formatSummary()).toContain('Latest 1980-03-01 12.749 (prev 1980-02-01 12.4147)');
  });

  it("in a past-dated session cuts rows after the as-of date even when the server sends them, and says the values are today's", async () => {
    const r = await fetchEconomic({ series_id: 'DGS10' }, '1980-06-15');
    expect(graphQueries()[0]!.get('coed')).toBe('1980-06-15');
    expect(r.asOf).toBe('1980-06-01');
    const summary = r.formatSummary();
    expect(summary).toMatch(/observations after 1980-06-15 were removed/);
    expect(summary).toContain('not as known on 1980-06-15: a FRED API key gets that vintage.');
    expect(r.formatFull()).not.toContain('1980-07-01');
  });

  it('says "3 of 30" in the short summary when only the most recent rows are shown', async () => {
    const r = await fetchEconomic({ series_id: 'DFF', limit: 3 });
    expect(r.formatSummary()).toContain(': 3 of 30 obs (the most recent)');
  });

  it('answers an empty range with a sentence, and refuses what needs a key without asking FRED', async () => {
    const empty = await fetchEconomic({ series_id: 'DGS10', start: '2030-01-01' });
    expect(empty.formatSummary()).toBe('DGS10: no observations in 2030-01-01..….');
    server.requests.length = 0;
    await expect(fetchEconomic({ search: 'treasury' })).rejects.toMatchObject({
      kind: 'not_configured',
      message: expect.stringContaining('A FRED search needs a FRED API key'),
    });
    await expect(fetchEconomic({ series_id: 'RSAFS', vintage_dates: ['2024-10-20'] })).rejects.toMatchObject({ kind: 'not_configured' });
    await expect(fetchEconomic({ series_id: 'RSAFS', units: 'pch' })).rejects.toMatchObject({ kind: 'not_configured' });
    expect(server.requests).toEqual([]);
  });

  it('turns a 429, a server error, a web page, a truncated body and an unknown id into clear failures, and caches none', async () => {
    let n = 0;
    // 429 then the file: the retry honours Retry-After and the PM gets the data.
    handler = (res) => {
      if (n++ > 0) return csv(res, GRAPH);
      res.writeHead(429, { 'retry-after': '0', 'content-type': 'text/plain' });
      res.end('slow down');
    };
    expect((await fetchEconomic({ series_id: 'DGS5', limit: 1 })).asOf).toBe('1982-01-01');

    handler = (res) => csv(res, 'upstream failed', 503);
    await expect(fetchEconomic({ series_id: 'DGS10', limit: 2 })).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringContaining('HTTP 503') });

    handler = (res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!DOCTYPE html><html><body>Series not found</body></html>');
    };
    await expect(fetchEconomic({ series_id: 'DGS10', limit: 3 })).rejects.toMatchObject({ kind: 'bad_response', message: expect.stringContaining('web page') });

    // Cut mid-row: "1980-0" is no date, so the body is a fault, not a shorter series.
    handler = (res) => csv(res, GRAPH.subarray(0, GRAPH.indexOf('1980-02-01') + 6));
    await expect(fetchEconomic({ series_id: 'DGS10', limit: 4 })).rejects.toMatchObject({ kind: 'bad_response' });

    handler = (res) => csv(res, 'Not Found', 404);
    await expect(fetchEconomic({ series_id: 'NOPE' })).rejects.toMatchObject({
      kind: 'not_found',
      message: expect.stringContaining('FRED has no series NOPE'),
    });

    const cached = db.prepare("SELECT count(*) AS n FROM provider_cache WHERE key LIKE 'economic:fredgraph%'").get() as { n: number };
    expect(cached.n).toBe(1); // only the one success
  });

  it('uses the keyed API, not the graph CSV, once a key is set', async () => {
    key = FRED_TEST_KEY;
    handler = (res) => {
      // FRED's XML error body (as recorded by fredapi): its message must reach the PM.
      res.writeHead(400, { 'content-type': 'text/xml' });
      res.end('<?xml version="1.0" encoding="utf-8" ?>\n<error code="400" message="Bad Request.\nThe series does not exist." />\n');
    };
    await expect(fetchEconomic({ series_id: 'NOPE' })).rejects.toMatchObject({
      kind: 'not_found',
      message: expect.stringContaining('Bad Request. The series does not exist.'),
    });
    expect(graphQueries()).toEqual([]);
  });
});

describe('FRED XML answers', () => {
  it('reads observations like the JSON answer: strings kept, "." missing, count for paging', () => {
    const r = parseFredObservationsXml(XML);
    expect(r.count).toBe(4);
    expect(r.observations[0]).toEqual({ date: '2014-09-02', value: '2002.28', realtime_start: '2015-06-28', realtime_end: '2015-06-28' });
    expect(r.observations.map((o) => o.value)).toEqual(['2002.28', '2000.72', '1997.65', '2007.71']);
    const dot = parseFredObservationsXml(XML.replace('value="2000.72"', 'value="."'));
    expect(dot.observations[1]!.value).toBe('.');
  });

  it("reads FRED's XML error and refuses a cut-off document", () => {
    expect(fredXmlError('<?xml version="1.0" encoding="utf-8" ?>\n<error code="400" message="Bad Request.\n  The series does not exist." />')).toEqual({
      code: 400,
      message: 'Bad Request. The series does not exist.',
    });
    expect(() => parseFredObservationsXml('<error code="400" message="Bad Request. The series does not exist."/>')).toThrow(/does not exist/);
    expect(() => parseFredObservationsXml(XML.slice(0, XML.indexOf('date="2014-09-04"')))).toThrow(/not well formed/);
    expect(() => parseFredObservationsXml('<html><body>Gateway</body></html>')).toThrow(/no <observations>/);
  });
});
