import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../store';
import { ResponseCache } from '../cache';
import { ProviderError } from '../provider';
import { type LocalServer, sendJson, startLocalServer } from '../testing';
import type { AlphaVantageOptions } from './alpha-vantage';
import { MarketProvider } from './provider';
import { marketParams } from './schema';

/**
 * The Alpha Vantage adapter against a real HTTP server on 127.0.0.1 that answers with bodies shaped
 * like Alpha Vantage's documented responses, and with the faults a vendor produces. The cache is the
 * real one over a SQLite database.
 */

const KEY = 'AVKEY12345';

/** FX_DAILY as documented: "Meta Data" + "Time Series FX (Daily)", newest first, values as strings. */
const fxDaily = (closes: [string, string][]) => ({
  'Meta Data': {
    '1. Information': 'Forex Daily Prices (open, high, low, close)',
    '2. From Symbol': 'EUR',
    '3. To Symbol': 'USD',
    '4. Output Size': 'Compact',
    '5. Last Refreshed': closes[0]![0],
    '6. Time Zone': 'UTC',
  },
  'Time Series FX (Daily)': Object.fromEntries(closes.map(([d, c]) => [d, { '1. open': c, '2. high': c, '3. low': c, '4. close': c }])),
});

const equityDaily = (closes: [string, string][]) => ({
  'Meta Data': {
    '1. Information': 'Daily Prices (open, high, low, close) and Volumes',
    '2. Symbol': 'IBM',
    '3. Last Refreshed': closes[0]![0],
    '4. Output Size': 'Compact',
    '5. Time Zone': 'US/Eastern',
  },
  'Time Series (Daily)': Object.fromEntries(closes.map(([d, c]) => [d, { '1. open': c, '2. high': c, '3. low': c, '4. close': c, '5. volume': '3401122' }])),
});

/** TREASURY_YIELD as documented: name, interval, unit and data [{date, value}], "." for a missing day. */
const treasury = {
  name: '10-Year Treasury Constant Maturity Rate',
  interval: 'daily',
  unit: 'percent',
  data: [
    { date: '2026-11-20', value: '4.10' },
    { date: '2026-11-19', value: '.' },
    { date: '2026-11-18', value: '4.07' },
    { date: '2026-11-17', value: '4.02' },
  ],
};

const EURUSD_DAYS: [string, string][] = [
  ['2026-11-20', '1.0912'],
  ['2026-11-19', '1.0915'],
  ['2026-11-18', '1.0894'],
  ['2026-11-17', '1.0871'],
];

let server: LocalServer;
let db: Db;
let cache: ResponseCache;
let reply: (res: ServerResponse, n: number) => void | Promise<void>;

beforeEach(async () => {
  db = openDatabase(':memory:');
  cache = new ResponseCache(db);
  reply = (res) => sendJson(res, 200, fxDaily(EURUSD_DAYS));
  server = await startLocalServer((_req, res, n) => reply(res, n));
});
afterEach(async () => {
  await server.close();
  db.close();
});

const cachedRows = () => (db.prepare('SELECT COUNT(*) AS n FROM provider_cache').get() as { n: number }).n;

function market(over: Partial<AlphaVantageOptions> = {}) {
  return new MarketProvider({
    now: () => new Date('2026-11-21T12:00:00Z'),
    alphaVantage: { apiKey: () => KEY, baseUrl: server.url, cache, retries: 0, retryBaseMs: 10, timeoutMs: 10_000, ...over },
  });
}

async function fails(p: Promise<unknown>): Promise<ProviderError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ProviderError);
    expect((e as Error).message).not.toContain(KEY);
    return e as ProviderError;
  }
  throw new Error('expected a ProviderError');
}

const params = (p: Record<string, unknown>) => marketParams.parse(p);

describe('Alpha Vantage behind the market schema', () => {
  it('serves an FX pair from FX_DAILY, oldest first, and answers the repeat from the cache', async () => {
    const m = market();
    const r = await m.fetch(params({ kind: 'price', symbol: 'EURUSD' }), {});
    expect(server.requests).toHaveLength(1);
    const q = new URL(server.requests[0]!.url, server.url).searchParams;
    expect(Object.fromEntries(q)).toEqual({ function: 'FX_DAILY', from_symbol: 'EUR', to_symbol: 'USD', outputsize: 'compact', apikey: KEY });
    expect(r.source).toBe('Alpha Vantage FX_DAILY EUR/USD');
    expect(r.asOf).toBe('2026-11-20');
    expect(r.label).toBe('EURUSD price 2026-11-17..2026-11-20');
    const full = r.formatFull();
    expect(full).toContain('| date | close (USD per EUR) |');
    expect(full.indexOf('| 2026-11-17 | 1.08710 |')).toBeLessThan(full.indexOf('| 2026-11-20 | 1.09120 |'));
    expect(r.formatSummary()).toMatch(/^EUR\/USD spot, 4 obs 2026-11-17\.\.2026-11-20, in USD per EUR: 1\.0871 → 1\.0912 \(\+0\.4%/);
    expect(cachedRows()).toBe(1);
    const again = await m.fetch(params({ kind: 'price', symbol: 'EURUSD', last: 2 }), {});
    expect(server.requests).toHaveLength(1);
    expect(again.formatFull()).toContain('note: Served from the response cache');
    expect(again.label).toBe('EURUSD price 2026-11-19..2026-11-20');
    // The stored entry never holds the key.
    expect(JSON.stringify(db.prepare('SELECT * FROM provider_cache').all())).not.toContain(KEY);
  });

  it('serves Treasury yields from TREASURY_YIELD, skipping the "." days, and respects the as-of date', async () => {
    reply = (res) => sendJson(res, 200, treasury);
    const r = await market().fetch(params({ kind: 'yield', symbol: 'UST10Y' }), { asOf: '2026-11-19' });
    const q = Object.fromEntries(new URL(server.requests[0]!.url, server.url).searchParams);
    expect(q).toMatchObject({ function: 'TREASURY_YIELD', interval: 'daily', maturity: '10year' });
    expect(r.asOf).toBe('2026-11-18');
    expect(r.formatFull()).not.toContain('2026-11-20');
    expect(r.formatFull()).not.toContain('2026-11-19');
    expect(r.formatSummary()).toContain('10-Year Treasury Constant Maturity Rate, 2 obs 2026-11-17..2026-11-18, in %: 4.02 → 4.07 (+5 bp;');
  });

  it('asks for full history when the window reaches past the 100 bars of a compact answer', async () => {
    reply = (res) => sendJson(res, 200, equityDaily([['2025-03-03', '240.10']]));
    await market().fetch(params({ kind: 'price', symbol: 'IBM', start: '2025-01-01' }), {});
    const q = Object.fromEntries(new URL(server.requests[0]!.url, server.url).searchParams);
    expect(q).toMatchObject({ function: 'TIME_SERIES_DAILY', symbol: 'IBM', outputsize: 'full' });
  });

  it('does not offer implied vols, and says which kinds it serves without calling out', async () => {
    const e = await fails(market({}).vendor!.load(params({ kind: 'implied_vol', symbol: 'USDJPY' }), {}));
    expect(e.kind).toBe('not_found');
    expect(e.message).toMatch(/^Alpha Vantage does not offer implied vols; it serves prices of FX pairs .*US Treasury yields/);
    const viaProvider = await fails(market().fetch(params({ kind: 'implied_vol', symbol: 'USDJPY' }), {}));
    expect(viaProvider.message).toContain('Alpha Vantage does not offer implied vols');
    expect(server.requests).toHaveLength(0);
  });

  describe('faults: each a clear ProviderError, nothing cached, the next good call goes out', () => {
    const cases: { name: string; reply: (res: ServerResponse) => void; kind: ProviderError['kind']; message: RegExp; over?: Partial<AlphaVantageOptions> }[] = [
      {
        name: 'HTTP 429 with Retry-After',
        reply: (res) => sendJson(res, 429, { message: 'slow down' }, { 'retry-after': '120' }),
        kind: 'rate_limited',
        message: /rate limiting requests \(HTTP 429, retry after 120 s\)/,
      },
      {
        name: 'a rate-limit "Note" inside a 200 body',
        reply: (res) =>
          sendJson(res, 200, {
            Note: 'Thank you for using Alpha Vantage! Our standard API call frequency is 5 calls per minute and 500 calls per day.',
          }),
        kind: 'rate_limited',
        message: /^Alpha Vantage rate limit reached: Thank you for using Alpha Vantage! Our standard API call frequency/,
      },
      {
        name: 'a rate-limit "Information" inside a 200 body (naming the key)',
        reply: (res) =>
          sendJson(res, 200, {
            Information: `We have detected your API key as ${KEY} and our standard API rate limit is 25 requests per day. Please subscribe to any of the premium plans.`,
          }),
        kind: 'rate_limited',
        message: /^Alpha Vantage rate limit reached: We have detected your API key as \*\*\* and our standard API rate limit is 25 requests per day/,
      },
      {
        name: 'a premium-only endpoint "Information"',
        reply: (res) => sendJson(res, 200, { Information: 'Thank you for using Alpha Vantage! This is a premium endpoint.' }),
        kind: 'not_configured',
        message: /needs a premium plan/,
      },
      {
        name: 'an unknown symbol ("Error Message")',
        reply: (res) => sendJson(res, 200, { 'Error Message': 'Invalid API call. Please retry or visit the documentation for FX_DAILY.' }),
        kind: 'not_found',
        message: /^Alpha Vantage has no FX_DAILY data for EURUSD: Invalid API call/,
      },
      { name: 'HTTP 500', reply: (res) => sendJson(res, 500, { error: 'boom' }), kind: 'unavailable', message: /answered HTTP 500/ },
      {
        name: 'malformed JSON',
        reply: (res) => sendJson(res, 200, '{"Meta Data": {"1. Information": "Forex'),
        kind: 'bad_response',
        message: /malformed JSON/,
      },
      {
        name: 'a 200 body without the series',
        reply: (res) => sendJson(res, 200, { 'Meta Data': {} }),
        kind: 'bad_response',
        message: /lacks "Time Series FX \(Daily\)" for EURUSD/,
      },
      {
        name: 'a slow answer',
        reply: (res) => {
          // Far beyond the 1 s timeout, so even a starved client times out first.
          setTimeout(() => sendJson(res, 200, fxDaily(EURUSD_DAYS)), 8000);
        },
        kind: 'unavailable',
        message: /did not answer within 1 s/,
        over: { timeoutMs: 1000 },
      },
      {
        name: 'the wrong content type',
        reply: (res) => {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<html><body>Service temporarily unavailable</body></html>');
        },
        kind: 'bad_response',
        message: /sent text\/html where json was expected/,
      },
      {
        name: 'an oversized body',
        reply: (res) =>
          sendJson(
            res,
            200,
            fxDaily(Array.from({ length: 400 }, (_, i) => [new Date(Date.UTC(2025, 0, 1 + i)).toISOString().slice(0, 10), '1.1'] as [string, string])),
          ),
        kind: 'bad_response',
        message: /sent more than/,
        over: { maxBytes: 4096 },
      },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        reply = c.reply;
        const m = market(c.over);
        const e = await fails(m.fetch(params({ kind: 'price', symbol: 'EURUSD' }), {}));
        expect(e.kind).toBe(c.kind);
        expect(e.message).toMatch(c.message);
        expect(cachedRows()).toBe(0);
        if (c.kind !== 'not_found') expect(m.health()).toMatchObject({ state: 'failing', lastError: e.message });
        reply = (res) => sendJson(res, 200, fxDaily(EURUSD_DAYS));
        const before = server.requests.length;
        const ok = await m.fetch(params({ kind: 'price', symbol: 'EURUSD' }), {});
        expect(server.requests.length).toBe(before + 1);
        expect(ok.asOf).toBe('2026-11-20');
        expect(m.health().state).toBe('ok');
      });
    }

    it('a 429 with a short Retry-After is waited out and retried', async () => {
      reply = (res, n) => (n === 1 ? sendJson(res, 429, {}, { 'retry-after': '0' }) : sendJson(res, 200, fxDaily(EURUSD_DAYS)));
      const r = await market({ retries: 1 }).fetch(params({ kind: 'price', symbol: 'EURUSD' }), {});
      expect(server.requests).toHaveLength(2);
      expect(r.source).toBe('Alpha Vantage FX_DAILY EUR/USD');
    });
  });
});

describe('market provider: which backend answers', () => {
  it('uses Alpha Vantage for the symbols it names when a key is set, the local folder for the rest; source says which', async () => {
    reply = (res) => sendJson(res, 200, treasury);
    const m = market();
    expect((await m.fetch(params({ kind: 'yield', symbol: 'UST10Y' }), {})).source).toBe('Alpha Vantage TREASURY_YIELD 10year');
    expect((await m.fetch(params({ kind: 'yield', symbol: 'BUND10Y' }), {})).source).toBe('sample yields.csv (synthetic)');
    // SPX looks like a ticker, but the local folder holds it: the local series answers.
    expect((await m.fetch(params({ kind: 'price', symbol: 'SPX' }), {})).source).toBe('sample prices.csv (synthetic)');
    expect((await m.fetch(params({ kind: 'implied_vol', symbol: 'EURUSD', last: 1 }), {})).source).toBe('sample implied_vols.csv (synthetic)');
    expect(server.requests).toHaveLength(1);
  });

  it('without a key: not configured for the vendor, sample data for the sample symbols, a clear hint for the rest', async () => {
    let key: string | undefined;
    const m = market({ apiKey: () => key });
    expect(m.vendor!.health()).toEqual({ state: 'not_configured', detail: 'Alpha Vantage needs an API key (Settings → secrets: alphaVantageApiKey).' });
    expect(m.health()).toMatchObject({ state: 'ok', detail: expect.stringMatching(/Add an Alpha Vantage key/) });
    expect((await m.fetch(params({ kind: 'price', symbol: 'EURUSD' }), {})).source).toBe('sample prices.csv (synthetic)');
    const ibm = await fails(m.fetch(params({ kind: 'price', symbol: 'IBM' }), {}));
    expect(ibm.kind).toBe('not_found');
    expect(ibm.message).toContain('Alpha Vantage would serve it: add the alphaVantageApiKey secret in Settings.');
    expect(server.requests).toHaveLength(0);
    // A key entered later applies without rebuilding the provider.
    key = KEY;
    expect((await m.fetch(params({ kind: 'price', symbol: 'EURUSD' }), {})).source).toBe('Alpha Vantage FX_DAILY EUR/USD');
  });

  it('a vendor failure is reported, never replaced by sample data', async () => {
    reply = (res) => sendJson(res, 503, {});
    const e = await fails(market().fetch(params({ kind: 'price', symbol: 'EURUSD' }), {}));
    expect(e.kind).toBe('unavailable');
  });
});
