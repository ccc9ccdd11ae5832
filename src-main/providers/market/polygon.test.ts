import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../store/open';
import { ResponseCache } from '../cache';
import type { ProviderError } from '../provider';
import { type LocalServer, sendJson, startLocalServer } from '../testing';
import { MarketProvider } from './provider';

// Polygon daily aggregates through the market provider, against a real HTTP server on 127.0.0.1
// serving Polygon's real recorded answers (fixtures/README.md) and, labelled, written ones.

const FIX = join(__dirname, '..', 'fixtures');
const AAPL = readFileSync(join(FIX, 'polygon-aggs-aapl.json'), 'utf8');
const SPLITS = readFileSync(join(FIX, 'polygon-splits.json'), 'utf8');
const DIVIDENDS = readFileSync(join(FIX, 'polygon-dividends.json'), 'utf8');
const KEY = 'pk_test_SECRET_123456';

type Handler = (res: ServerResponse, url: URL) => void;
let server: LocalServer;
let aggs: Handler;
let db: ReturnType<typeof openDatabase>;
let market: MarketProvider;

const bar = (iso: string, c: number) => ({ v: 1000, vw: c, o: c, c, h: c, l: c, t: Date.parse(iso), n: 10 });
const page = (results: unknown[], extra: Record<string, unknown> = {}) => ({
  ticker: 'X',
  queryCount: results.length,
  resultsCount: results.length,
  adjusted: true,
  results,
  status: 'OK',
  request_id: 'written',
  ...extra,
});

beforeAll(async () => {
  server = await startLocalServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/v3/reference/splits') return sendJson(res, 200, SPLITS);
    if (url.pathname === '/v3/reference/dividends') return sendJson(res, 200, DIVIDENDS);
    aggs(res, url);
  });
});
afterAll(() => server.close());
beforeEach(() => {
  db = openDatabase(':memory:');
  server.requests.length = 0;
  aggs = (res) => sendJson(res, 200, AAPL);
  market = new MarketProvider({
    dir: '', // no local folder: every answer is Polygon's
    polygon: { apiKey: () => KEY, baseUrl: server.url, cache: new ResponseCache(db), timeoutMs: 10_000, retries: 1, retryBaseMs: 5 },
    now: () => new Date('2026-11-21T15:00:00Z'),
  });
});
afterEach(() => db.close());

const aggRequests = () => server.requests.filter((r) => r.url.startsWith('/v2/aggs')).map((r) => new URL(r.url, 'http://x'));
const fail = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return e as ProviderError;
  }
  throw new Error('expected a failure');
};

describe('market via Polygon aggregates', () => {
  it('reads the recorded AAPL answer: New York trading days, split-adjusted closes said in the source, key never shown', async () => {
    const r = await market.fetch({ kind: 'price', symbol: 'AAPL', start: '2005-04-01', end: '2005-04-04' }, {});
    const q = aggRequests()[0]!;
    expect(q.pathname).toBe('/v2/aggs/ticker/AAPL/range/1/day/2005-04-01/2005-04-04');
    expect(q.searchParams.get('adjusted')).toBe('true');
    expect(q.searchParams.get('apiKey')).toBe(KEY);
    expect(r.label).toBe('AAPL price 2005-04-01..2005-04-04');
    expect(r.source).toContain('adjusted=true: split-adjusted by Polygon, not adjusted again');
    const full = r.formatFull();
    expect(full).toContain('| 2005-04-01 | 1.46040 |');
    expect(full).toContain('| 2005-04-04 | 1.46750 |');
    // The reference data lists other tickers only: none of them is reported as AAPL's.
    expect(r.formatSummary()).toContain('No splits or dividends listed in this range.');
    expect(full + r.formatSummary() + r.source).not.toContain(KEY);
  });

  it('puts an evening bar on its New York day, not the UTC one, and follows next_url with the key on every page (written pages)', async () => {
    aggs = (res, url) => {
      if (url.searchParams.get('cursor') === 'p2') return sendJson(res, 200, page([bar('2024-11-05T01:00:00Z', 102), bar('2024-11-06T05:00:00Z', 103)]));
      // 20:00 in New York on 2024-11-04 is 01:00 UTC on 2024-11-05 (the evening bar).
      return sendJson(
        res,
        200,
        page([bar('2024-11-01T04:00:00Z', 100), bar('2024-11-04T05:00:00Z', 101)], {
          next_url: `${server.url}/v2/aggs/ticker/X/range/1/day/2024-11-01/2024-11-05?cursor=p2`,
        }),
      );
    };
    const r = await market.fetch({ kind: 'price', symbol: 'X', start: '2024-11-01', end: '2024-11-06', last: 2 }, {});
    const reqs = aggRequests();
    expect(reqs).toHaveLength(2);
    expect(reqs[1]!.searchParams.get('cursor')).toBe('p2');
    expect(reqs[1]!.searchParams.get('apiKey')).toBe(KEY);
    // The evening bar (written) belongs to 2024-11-04, where the session started; the later one of that day wins.
    const full = r.formatFull();
    expect(full).toContain('| 2024-11-04 | 102.00 |');
    expect(full).not.toContain('2024-11-05');
    expect(r.formatSummary()).toContain('Showing 2 of 3 obs (the most recent).');
  });

  it("reports a split in the window from Polygon's reference data without applying it (GOOGL 20:1, written bars)", async () => {
    aggs = (res) => sendJson(res, 200, page([bar('2022-07-15T04:00:00Z', 2235.55), bar('2022-07-18T04:00:00Z', 109.03), bar('2022-07-19T04:00:00Z', 114.39)]));
    const r = await market.fetch({ kind: 'price', symbol: 'GOOGL', start: '2022-07-15', end: '2022-07-19' }, {});
    expect(r.formatSummary()).toContain('Events: split 20:1 on 2022-07-18 (reported, not applied).');
    const full = r.formatFull();
    expect(full).toContain('## EVENTS');
    // The vendor's numbers as sent: no second adjustment divides the pre-split close by 20.
    expect(full).toContain('| 2022-07-15 | 2235.55 |');
  });

  it('cuts bars after the session as-of date even when Polygon sends them, and answers an empty range with a sentence', async () => {
    aggs = (res) => sendJson(res, 200, page([bar('2024-11-01T04:00:00Z', 100), bar('2024-11-04T05:00:00Z', 101), bar('2024-11-05T05:00:00Z', 103)]));
    const r = await market.fetch({ kind: 'price', symbol: 'X', start: '2024-11-01' }, { asOf: '2024-11-04' });
    expect(aggRequests()[0]!.pathname).toBe('/v2/aggs/ticker/X/range/1/day/2024-11-01/2024-11-04');
    expect(r.asOf).toBe('2024-11-04');
    expect(r.formatSummary()).toContain('1 observation after 2024-11-04 was removed (the session is as of 2024-11-04).');

    aggs = (res) => sendJson(res, 200, { ticker: 'ZZZZ', queryCount: 0, resultsCount: 0, adjusted: true, status: 'OK', request_id: 'written' });
    const empty = await market.fetch({ kind: 'price', symbol: 'ZZZZ', start: '2024-01-01', end: '2024-01-31' }, {});
    expect(empty.formatSummary()).toMatch(/^ZZZZ daily close: no observations in 2024-01-01\.\.2024-01-31\./);
    expect(empty.label).toBe('ZZZZ price 2024-01-01..2024-01-31 (no observations)');
  });

  it('turns 429, 5xx, a web page, a cut-off body and a refused key into clear failures, never showing the key, caching none', async () => {
    let n = 0;
    aggs = (res) =>
      n++ === 0
        ? sendJson(res, 429, { status: 'ERROR', error: "You've exceeded the maximum requests per minute" }, { 'retry-after': '0' })
        : sendJson(res, 200, AAPL);
    expect((await market.fetch({ kind: 'price', symbol: 'AAPL', start: '2005-04-01', end: '2005-04-04' }, {})).asOf).toBe('2005-04-04');

    const cases: [Handler, string, RegExp][] = [
      [(res) => sendJson(res, 502, 'bad gateway'), 'unavailable', /HTTP 502/],
      [
        (res) => {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<!DOCTYPE html><html><body>Maintenance</body></html>');
        },
        'bad_response',
        /text\/html where json was expected/,
      ],
      [(res) => sendJson(res, 200, AAPL.slice(0, 200)), 'bad_response', /malformed JSON/],
      [(res) => sendJson(res, 401, { status: 'ERROR', request_id: 'x', error: 'Unknown API Key' }), 'not_configured', /Unknown API Key/],
    ];
    for (const [h, kind, msg] of cases) {
      aggs = h;
      const e = await fail(market.fetch({ kind: 'price', symbol: 'MSFT', start: '2024-01-01', end: '2024-01-31' }, {}));
      expect(e.kind).toBe(kind);
      expect(e.message).toMatch(msg);
      expect(e.message).not.toContain(KEY);
    }
    const rows = db.prepare("SELECT key, value FROM provider_cache WHERE key LIKE 'market:polygon%'").all() as { key: string; value: string }[];
    expect(rows.filter((r) => r.key.includes('MSFT') && r.key.includes('/v2/aggs'))).toEqual([]);
    expect(rows.some((r) => r.key.includes(KEY) || r.value.includes(KEY))).toBe(false);
  });

  it('stops a next_url chain that does not end and says so, instead of paging forever (written pages)', async () => {
    let n = 0;
    aggs = (res) => {
      n++;
      const day = `2024-01-${String(n + 1).padStart(2, '0')}T05:00:00Z`;
      sendJson(res, 200, page([bar(day, 100 + n)], { next_url: `${server.url}/v2/aggs/ticker/X/range/1/day/2024-01-01/2024-01-31?cursor=c${n}` }));
    };
    const capped = new MarketProvider({ dir: '', polygon: { apiKey: () => KEY, baseUrl: server.url, maxPages: 3, timeoutMs: 10_000, retries: 0 } });
    const r = await capped.fetch({ kind: 'price', symbol: 'X', start: '2024-01-01', end: '2024-01-31' }, {});
    expect(aggRequests()).toHaveLength(3);
    expect(r.formatFull()).toContain('note: Polygon had more pages than the 3 read; ask for a shorter range.');
    expect(r.formatSummary()).toContain('3 obs 2024-01-02..2024-01-04');
  });
});
