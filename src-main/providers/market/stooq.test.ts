import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../store/open';
import { ResponseCache } from '../cache';
import type { ProviderError } from '../provider';
import { type LocalServer, startLocalServer } from '../testing';
import { MarketProvider } from './provider';

// Stooq's keyless daily CSV through the market provider, against a real HTTP server on 127.0.0.1
// serving a real Stooq download (fixtures/README.md: SPY.US, CRLF) and Stooq's refusal bodies.

const SPY = readFileSync(join(__dirname, '..', 'fixtures', 'stooq-spy.us.csv'));

type Handler = (res: ServerResponse, url: URL) => void;
let server: LocalServer;
let handler: Handler;
let db: ReturnType<typeof openDatabase>;
let market: MarketProvider;

// Stooq sends its download as a file attachment; the type it names varies, the bytes are CSV.
const send = (res: ServerResponse, body: string | Buffer, status = 200, type = 'application/octet-stream') => {
  res.writeHead(status, { 'content-type': type, 'content-disposition': 'attachment; filename=spy_us_d.csv' });
  res.end(body);
};

beforeAll(async () => {
  server = await startLocalServer((req, res) => handler(res, new URL(req.url ?? '/', 'http://x')));
});
afterAll(() => server.close());
beforeEach(() => {
  db = openDatabase(':memory:');
  server.requests.length = 0;
  handler = (res) => send(res, SPY);
  market = new MarketProvider({
    dir: '',
    stooq: { baseUrl: server.url, cache: new ResponseCache(db), timeoutMs: 10_000, retries: 1, retryBaseMs: 5 },
    now: () => new Date('2026-11-21T15:00:00Z'),
  });
});
afterEach(() => db.close());

const fail = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return e as ProviderError;
  }
  throw new Error('expected a failure');
};

describe('market via Stooq daily CSV (no key)', () => {
  it('reads the real SPY.US download (CRLF) as Stooq publishes it, says it is Stooq-adjusted, and that Stooq lists no events', async () => {
    const r = await market.fetch({ kind: 'price', symbol: 'spy.us' }, {});
    const q = new URL(server.requests[0]!.url, 'http://x');
    expect(q.pathname).toBe('/q/d/l/');
    expect(Object.fromEntries(q.searchParams)).toEqual({ s: 'spy.us', i: 'd' });
    expect(r.label).toBe('SPY.US price 2025-12-11..2026-02-09');
    expect(r.asOf).toBe('2026-02-09');
    expect(r.source).toContain('adjusted by Stooq for splits and dividends; not adjusted again');
    expect(r.formatFull()).toContain('| 2026-02-09 | 695.16 |');
    expect(r.formatSummary()).toContain('in USD');
    expect(r.formatSummary()).toContain('Stooq lists no splits or dividends');
    // Not also "none in this range": Stooq lists none at all, which is a different statement.
    expect(r.formatSummary()).not.toContain('No splits or dividends listed in this range');
    // The market health line names Stooq, so the PM knows symbols like SPY.US work without a key.
    expect(market.health()).toMatchObject({ state: 'ok', detail: expect.stringContaining('Stooq, no key') });
  });

  it('loads a short row without volume (written: the last row cut to five fields) and cuts rows after the as-of date', async () => {
    const text = SPY.toString('utf8').trimEnd();
    const lines = text.split('\r\n');
    lines[lines.length - 1] = lines.at(-1)!.split(',').slice(0, 5).join(',');
    handler = (res) => send(res, `${lines.join('\r\n')}\r\n`);
    const r = await market.fetch({ kind: 'price', symbol: 'SPY.US', start: '2026-02-01' }, { asOf: '2026-02-05' });
    const q = new URL(server.requests[0]!.url, 'http://x');
    expect(q.searchParams.get('d1')).toBe('20260201');
    expect(q.searchParams.get('d2')).toBe('20260205');
    expect(r.asOf).toBe('2026-02-05');
    expect(r.formatSummary()).toContain('2 observations after 2026-02-05 were removed (the session is as of 2026-02-05).');
    const all = await market.fetch({ kind: 'price', symbol: 'SPY.US', start: '2026-02-01', last: 2 }, {});
    expect(all.formatFull()).toContain('| 2026-02-09 | 695.16 |');
    expect(all.formatSummary()).toContain('Showing 2 of 6 obs (the most recent).');
  });

  it('says "no data", "needs a key", a web page, a server error and a cut-off file in words, retries a 429, and caches none of the failures', async () => {
    const cases: [Handler, string, RegExp][] = [
      [(res) => send(res, 'No data', 200, 'text/plain'), 'not_found', /Stooq has no data for ZZZ\.US/],
      [(res) => send(res, 'Get your apikey:\n\n1. Open https://stooq.com', 200, 'text/plain'), 'not_configured', /drop it into your data folder/],
      // Written: the browser-check page Stooq serves scripts since 2026 comes with HTTP 200.
      [
        (res) => send(res, '<!DOCTYPE html><html><body>Checking your browser</body></html>', 200, 'text/html'),
        'bad_response',
        /web page .*drop it into your data folder/,
      ],
      [(res) => send(res, 'Service Unavailable', 503, 'text/plain'), 'unavailable', /HTTP 503/],
      [(res) => send(res, SPY.subarray(0, SPY.indexOf('2026-01-') + 6)), 'bad_response', /cannot be read/],
    ];
    for (const [h, kind, msg] of cases) {
      handler = h;
      const e = await fail(market.fetch({ kind: 'price', symbol: 'ZZZ.US' }, {}));
      expect({ kind: e.kind, message: e.message }).toMatchObject({ kind, message: expect.stringMatching(msg) });
    }
    expect((db.prepare("SELECT count(*) AS n FROM provider_cache WHERE key LIKE 'market:stooq%'").get() as { n: number }).n).toBe(0);
    let n = 0;
    handler = (res) => (n++ === 0 ? send(res, 'slow down', 429, 'text/plain') : send(res, SPY));
    expect((await market.fetch({ kind: 'price', symbol: 'SPY.US' }, {})).asOf).toBe('2026-02-09');
  });

  it('does not send a symbol without a market suffix to Stooq, and names what would serve it', async () => {
    const e = await fail(market.fetch({ kind: 'price', symbol: 'SPY' }, {}));
    expect(e.kind).toBe('not_found');
    expect(e.message).toContain('Stooq (no key) serves daily prices by Stooq symbol with its market suffix (SPY.US');
    expect(server.requests).toEqual([]);
  });

  it('sends a symbol naming its Stooq market to Stooq even when Polygon and Alpha Vantage have keys', async () => {
    const all = new MarketProvider({
      dir: '',
      stooq: { baseUrl: server.url, timeoutMs: 10_000, retries: 0 },
      polygon: { apiKey: () => 'pk', baseUrl: server.url, timeoutMs: 10_000, retries: 0 },
      alphaVantage: { apiKey: () => 'av', baseUrl: server.url, timeoutMs: 10_000, retries: 0 },
      now: () => new Date('2026-11-21T15:00:00Z'),
    });
    const r = await all.fetch({ kind: 'price', symbol: 'SPY.US' }, {});
    expect(r.source).toMatch(/^Stooq daily spy\.us/);
    expect(server.requests.map((q) => new URL(q.url, 'http://x').pathname)).toEqual(['/q/d/l/']);
  });
});
