import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../store/open';
import { buildProviderRegistry } from '../defaults';
import { ProviderError } from '../provider';
import type { ProviderRegistry } from '../registry';
import { type FakeEcb, ecbFixture, startFakeEcb } from './testing';

// An ECB endpoint that misbehaves: each fault must reach the analyst as one typed ProviderError with
// a sentence saying what happened, and nothing from a bad answer may be cached.

let ecb: FakeEcb;
let db: ReturnType<typeof openDatabase>;
let registry: ProviderRegistry;

beforeAll(async () => {
  ecb = await startFakeEcb();
});
afterAll(() => ecb.close());
beforeEach(() => {
  db = openDatabase(':memory:');
  ecb.fault(null);
  ecb.queries.length = 0;
  registry = buildProviderRegistry({
    db,
    secret: () => undefined,
    settings: () => ({ ecb: { enabled: true, baseUrl: ecb.base } }),
    now: () => new Date('2026-11-27T15:00:00Z'),
    http: { timeoutMs: 10_000, retries: 1, retryBaseMs: 5, maxBytes: 256 * 1024 },
  });
});
afterEach(() => db.close());

const EURUSD = { series: 'eurusd', start: '2023-01-01', end: '2023-02-28' };
const cachedRows = () => (db.prepare('SELECT count(*) AS n FROM provider_cache').get() as { n: number }).n;
const health = () => registry.list().find((p) => p.name === 'ecb')!.health;
const send = (res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': type, ...headers }).end(body);
};

async function failure(params: unknown): Promise<ProviderError> {
  try {
    await registry.fetch('ecb', params);
  } catch (e) {
    expect(e).toBeInstanceOf(ProviderError);
    return e as ProviderError;
  }
  throw new Error('expected the fetch to fail');
}

describe('ecb against a misbehaving server', () => {
  it('waits out a short 429 and answers; a long Retry-After fails at once as rate_limited, caching nothing', async () => {
    ecb.fault((_req, res) => send(res, 429, 'text/plain', 'Too many requests', { 'retry-after': '1' }), 1);
    const ok = await registry.fetch('ecb', EURUSD);
    expect(ok.asOf).toBe('2023-02-28');
    expect(ecb.queries).toHaveLength(2);

    db.prepare('DELETE FROM provider_cache').run();
    ecb.queries.length = 0;
    ecb.fault((_req, res) => send(res, 429, 'text/plain', 'Too many requests', { 'retry-after': '300' }));
    const e = await failure(EURUSD);
    expect(e.kind).toBe('rate_limited');
    expect(e.message).toMatch(/^ECB EXR\/D\.USD\.EUR\.SP00\.A: .* is rate limiting requests \(HTTP 429, retry after 300 s\)\.$/);
    expect(ecb.queries).toHaveLength(1);
    expect(cachedRows()).toBe(0);
    expect(health()).toMatchObject({ state: 'failing', lastError: expect.stringContaining('rate_limited') });
  });

  it('gives up on a server error after the retries, says so, and recovers when the ECB does', async () => {
    ecb.fault((_req, res) => send(res, 500, 'text/plain', 'Internal Server Error'));
    const e = await failure(EURUSD);
    expect(e.kind).toBe('unavailable');
    expect(e.message).toMatch(
      /^ECB EXR\/D\.USD\.EUR\.SP00\.A: 127\.0\.0\.1:\d+\/service\/data\/EXR\/D\.USD\.EUR\.SP00\.A answered HTTP 500 \(server error\)\.$/,
    );
    expect(ecb.queries).toHaveLength(2);
    expect(cachedRows()).toBe(0);
    ecb.fault(null);
    await registry.fetch('ecb', EURUSD);
    expect(health().state).toBe('ok');
  });

  it('refuses a web page or XML where SDMX-CSV should be', async () => {
    const page = '<!DOCTYPE html><html><body><h1>Maintenance</h1><p>The ECB Data Portal is being updated.</p></body></html>';
    ecb.fault((_req, res) => send(res, 200, 'text/html', page));
    expect(await failure(EURUSD)).toMatchObject({ kind: 'bad_response', message: 'The ECB answered EXR/D.USD.EUR.SP00.A with a web page, not SDMX-CSV.' });
    ecb.fault((_req, res) => send(res, 200, 'text/csv', page));
    expect(await failure(EURUSD)).toMatchObject({ kind: 'bad_response', message: expect.stringContaining('with a web page, not SDMX-CSV') });
    ecb.fault((_req, res) => send(res, 200, 'text/xml', '<?xml version="1.0"?><message:GenericData/>'));
    expect(await failure(EURUSD)).toMatchObject({ kind: 'bad_response', message: expect.stringContaining('with XML, not SDMX-CSV (format=csvdata)') });
    expect(cachedRows()).toBe(0);
  });

  it('refuses a body cut off mid-row or inside a quoted title, and caches none of it', async () => {
    const csv = ecbFixture('exr-usd-eur-2023.csv');
    // Cut right after a row's value: the row lacks its attributes.
    const midRow = csv.slice(0, csv.indexOf('2023-01-10,1.0723') + '2023-01-10,1.0723'.length);
    ecb.fault((_req, res) => send(res, 200, 'text/csv', midRow));
    const row = await failure(EURUSD);
    expect(row.kind).toBe('bad_response');
    expect(row.message).toMatch(/^In the ECB's answer for EXR\/D\.USD\.EUR\.SP00\.A, line 6: 8 fields where the header has 32; the body was cut off/);
    // Cut inside the quoted TITLE_COMPL ("ECB reference exchange rate, US dollar/Euro, …").
    const midQuote = csv.slice(0, csv.indexOf('"ECB reference', 2000) + 20);
    ecb.fault((_req, res) => send(res, 200, 'text/csv', midQuote));
    expect(await failure(EURUSD)).toMatchObject({ kind: 'bad_response', message: expect.stringContaining('ends inside a quoted field') });
    expect(cachedRows()).toBe(0);
    ecb.fault(null);
    expect((await registry.fetch('ecb', EURUSD)).formatSummary()).toContain(': 40 obs 2023-01-04..2023-02-28.');
  });
});
