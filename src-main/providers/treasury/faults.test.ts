import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../store/open';
import { buildProviderRegistry } from '../defaults';
import { ProviderError } from '../provider';
import type { ProviderRegistry } from '../registry';
import { type FakeTreasury, PAR_2022_XML, PAR_2023_CSV, startFakeTreasury } from './testing';

// A Treasury site that misbehaves the ways real ones do. Each fault must reach the analyst as one
// typed ProviderError with a sentence saying what happened, and nothing from a bad answer may be
// cached (or the next fetch would serve the fault as data). Retries and Retry-After themselves
// are tested in ../http.test.ts; here: that the provider turns each into the right error.

let ust: FakeTreasury;
let db: ReturnType<typeof openDatabase>;
let registry: ProviderRegistry;

beforeAll(async () => {
  ust = await startFakeTreasury();
});
afterAll(() => ust.close());
beforeEach(() => {
  db = openDatabase(':memory:');
  ust.fault(null);
  ust.queries.length = 0;
  registry = buildProviderRegistry({
    db,
    secret: () => undefined,
    settings: () => ({ treasury: { enabled: true, baseUrl: ust.base } }),
    now: () => new Date('2026-11-27T15:00:00Z'),
    http: { timeoutMs: 10_000, retries: 1, retryBaseMs: 5, maxBytes: 256 * 1024 },
  });
});
afterEach(() => db.close());

const CSV_2023 = { start: '2023-07-01', end: '2023-09-01' };
const cachedRows = () => (db.prepare('SELECT count(*) AS n FROM provider_cache').get() as { n: number }).n;
const health = () => registry.list().find((p) => p.name === 'treasury')!.health;
const send = (res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': type, ...headers }).end(body);
};

async function failure(params: unknown): Promise<ProviderError> {
  try {
    await registry.fetch('treasury', params);
  } catch (e) {
    expect(e).toBeInstanceOf(ProviderError);
    return e as ProviderError;
  }
  throw new Error('expected the fetch to fail');
}

describe('treasury against a misbehaving server', () => {
  it('waits out a short 429 and answers; a long Retry-After fails at once as rate_limited, caching nothing', async () => {
    ust.fault((_req, res) => send(res, 429, 'text/plain', 'Too Many Requests', { 'retry-after': '1' }), 1);
    const ok = await registry.fetch('treasury', CSV_2023);
    expect(ok.asOf).toBe('2023-09-01');
    expect(ust.queries).toHaveLength(2);

    db.prepare('DELETE FROM provider_cache').run();
    ust.queries.length = 0;
    ust.fault((_req, res) => send(res, 429, 'text/plain', 'Too Many Requests', { 'retry-after': '120' }));
    const e = await failure(CSV_2023);
    expect(e.kind).toBe('rate_limited');
    expect(e.message).toMatch(/^US Treasury, the 2023 nominal curve CSV: .* is rate limiting requests \(HTTP 429, retry after 120 s\)\.$/);
    expect(ust.queries).toHaveLength(1);
    expect(cachedRows()).toBe(0);
    expect(health()).toMatchObject({ state: 'failing', lastError: expect.stringContaining('rate_limited') });
  });

  it('gives up on a server error after the retries, says so, and recovers when the site does', async () => {
    ust.fault((_req, res) => send(res, 503, 'text/html', '<html><body>Service Unavailable</body></html>'));
    const e = await failure(CSV_2023);
    expect(e.kind).toBe('unavailable');
    expect(e.message).toMatch(
      /^US Treasury, the 2023 nominal curve CSV: 127\.0\.0\.1:\d+\/interest-rates\/daily-treasury-rates\.csv\/2023\/all answered HTTP 503 \(server error\)\.$/,
    );
    expect(ust.queries).toHaveLength(2);
    expect(cachedRows()).toBe(0);
    expect(health().state).toBe('failing');
    ust.fault(null);
    await registry.fetch('treasury', CSV_2023);
    expect(health().state).toBe('ok');
  });

  it('refuses a web page where the data should be, whether labelled HTML or mislabelled CSV', async () => {
    const page = '<!DOCTYPE html><html><head><title>Access Denied</title></head><body>Request blocked.</body></html>';
    ust.fault((_req, res) => send(res, 200, 'text/html; charset=utf-8', page));
    const html = await failure(CSV_2023);
    expect(html).toMatchObject({ kind: 'bad_response', message: 'Treasury answered the 2023 nominal curve CSV with a web page, not the CSV.' });
    ust.fault((_req, res) => send(res, 200, 'text/csv', page));
    expect(await failure(CSV_2023)).toMatchObject({ kind: 'bad_response', message: expect.stringContaining('with a web page, not the CSV') });
    ust.fault((_req, res) => send(res, 200, 'text/html', page));
    const xml = await failure({ ...CSV_2023, start: '2022-01-03', end: '2022-01-10', format: 'xml' });
    expect(xml).toMatchObject({
      kind: 'bad_response',
      message: expect.stringMatching(/^US Treasury, the 2022 nominal curve XML: .* sent text\/html where xml was expected\.$/),
    });
    expect(cachedRows()).toBe(0);
  });

  it('refuses a body cut off mid-row, mid-element or mid-transfer, and caches none of it', async () => {
    const csv = PAR_2023_CSV();
    const cut = csv.slice(0, csv.indexOf('\n', 2000) + 12); // ends a dozen characters into a row
    ust.fault((_req, res) => send(res, 200, 'text/csv', cut));
    const row = await failure(CSV_2023);
    expect(row.kind).toBe('bad_response');
    expect(row.message).toMatch(/^Treasury's the 2023 nominal curve CSV, line \d+ has \d+ fields where the header has 14: the body was cut off/);

    const xml = PAR_2022_XML();
    ust.fault((_req, res) => send(res, 200, 'application/xml', xml.slice(0, Math.floor(xml.length / 2))));
    const element = await failure({ start: '2022-01-03', end: '2022-01-10', format: 'xml' });
    expect(element).toMatchObject({ kind: 'bad_response', message: expect.stringContaining("Treasury's the 2022 nominal curve XML is not well-formed XML") });

    // The server promises more bytes than it sends and hangs up: a broken transfer, retried, then reported.
    ust.fault((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(csv.length) });
      res.write(csv.slice(0, 500), () => res.destroy());
    });
    const transfer = await failure(CSV_2023);
    expect(transfer.kind).toBe('unavailable');
    // (Where the socket closes before the headers are read, the same fault is "could not reach".)
    expect(transfer.message).toMatch(/^US Treasury, the 2023 nominal curve CSV: (The connection to .* broke while reading|Could not reach .*)/);
    expect(cachedRows()).toBe(0);

    ust.fault(null);
    const good = await registry.fetch('treasury', CSV_2023);
    expect(good.formatSummary()).toContain(': 44 days 2023-07-03..2023-09-01.');
  });
});
