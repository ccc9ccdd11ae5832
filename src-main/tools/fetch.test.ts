import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildProviderRegistry, type ProviderRegistry } from '../providers';
import { FRED_TEST_KEY, type FakeFred, startFakeFred } from '../providers/economic/testing';
import { sendJson } from '../providers/testing';
import { fetchTool } from './fetch';
import { openTestWorkspace, type TestWorkspace } from './testing';

/**
 * The fetch tool over the economic provider and a local FRED: every failure is one
 * `[FETCH FAILED | source | kind]` line the model reads, never an exception, and nothing of a
 * failed call is cached or stored in the session.
 */

let fred: FakeFred;
let t: TestWorkspace;
let now: Date;
let key: string | undefined;
let registry: ProviderRegistry;

beforeAll(async () => {
  fred = await startFakeFred();
});
afterAll(() => fred.close());
beforeEach(async () => {
  t = await openTestWorkspace();
  now = new Date('2026-11-21T15:00:00Z');
  key = FRED_TEST_KEY;
  fred.fault(null);
  fred.queries.length = 0;
  registry = buildProviderRegistry({
    db: t.ws.fs.store.db,
    secret: (name) => (name === 'fredApiKey' ? key : undefined),
    settings: () => ({ economic: { enabled: true, baseUrl: fred.base } }),
    now: () => now,
    // A timeout a loaded CI machine cannot hit by accident; the slow-server case waits well past it.
    http: { timeoutMs: 1500, retries: 1, retryBaseMs: 5, maxBytes: 64 * 1024 },
  });
});
afterEach(() => t.close());

const cachedRows = () => (t.ws.fs.store.db.prepare('SELECT count(*) AS n FROM provider_cache').get() as { n: number }).n;

/** The fetch tool as the analyst calls it, over this test's registry. */
async function tool(params: Record<string, unknown>, asOf?: string) {
  return fetchTool(registry).run({ source: 'economic', params }, { ...t.context({ asOf }), providers: registry, now: () => now });
}

describe('fetch over economic: refusals', () => {
  it('refuses a vintage after the session as-of date before asking FRED', async () => {
    const r = await tool({ series_id: 'RSAFS', vintage_dates: ['2025-01-15'] }, '2024-12-31');
    expect(r).toMatchObject({ isError: true });
    expect(r.content).toBe(
      '[FETCH FAILED | economic | as_of] Vintage 2025-01-15 is after 2024-12-31: data after 2024-12-31 is not used in a session as of 2024-12-31.',
    );
    expect(fred.queries).toEqual([]);
  });

  it('says a search needs a key when there is none, without calling FRED', async () => {
    key = undefined;
    const r = await tool({ search: 'retail sales' });
    expect(r.content).toMatch(/^\[FETCH FAILED \| economic \| not_configured\] A FRED search needs a FRED API key: add one in Settings → API keys/);
    expect(fred.queries).toEqual([]);
  });
});

describe('economic faults through the fetch tool: one FETCH FAILED line each, nothing cached, nothing stored', () => {
  const big = 'x'.repeat(100 * 1024);
  const faults: [string, (res: Parameters<Parameters<FakeFred['fault']>[0] & object>[1]) => void | Promise<void>, RegExp][] = [
    [
      'rate limited past the wait cap',
      (res) => sendJson(res, 429, { error_code: 429, error_message: 'Too Many Requests.  Exceeded Rate Limit' }, { 'retry-after': '120' }),
      /^\[FETCH FAILED \| economic \| rate_limited\] 127\.0\.0\.1:\d+\/fred\/series is rate limiting requests \(HTTP 429, retry after 120 s\)\. FRED: Too Many Requests\. Exceeded Rate Limit$/,
    ],
    [
      'server errors until the retries run out',
      (res) => sendJson(res, 500, 'oops'),
      /^\[FETCH FAILED \| economic \| unavailable\] FRED series RSAFS: 127\.0\.0\.1:\d+\/fred\/series answered HTTP 500 \(server error\)\.$/,
    ],
    [
      'malformed JSON',
      (res) => sendJson(res, 200, '{"seriess": [ {"id": '),
      /^\[FETCH FAILED \| economic \| bad_response\] 127\.0\.0\.1:\d+\/fred\/series sent malformed JSON/,
    ],
    [
      'a response slower than the timeout',
      async (res) => {
        await new Promise((r) => setTimeout(r, 5000));
        sendJson(res, 200, {});
      },
      /^\[FETCH FAILED \| economic \| unavailable\] 127\.0\.0\.1:\d+\/fred\/series did not answer within 1\.5 s\.$/,
    ],
    [
      'an HTML page instead of JSON',
      (res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>maintenance</html>');
      },
      /^\[FETCH FAILED \| economic \| bad_response\] 127\.0\.0\.1:\d+\/fred\/series sent text\/html where json was expected\.$/,
    ],
    [
      'an oversized body',
      (res) => sendJson(res, 200, `{"pad":"${big}"}`),
      /^\[FETCH FAILED \| economic \| bad_response\] .* sent more than 0\.1 MiB; narrow the request\.$/,
    ],
    [
      'a JSON answer of the wrong shape',
      (res) => sendJson(res, 200, { series: [] }),
      /^\[FETCH FAILED \| economic \| bad_response\] FRED answered series RSAFS in an unexpected shape \(seriess\)\.$/,
    ],
  ];

  for (const [what, fault, line] of faults) {
    it(`${what}`, async () => {
      fred.fault((_req, res) => fault(res));
      const r = await tool({ series_id: 'RSAFS' });
      expect(r.isError).toBe(true);
      expect(r.content).toMatch(line);
      expect(r.content.split('\n')).toHaveLength(1);
      expect(r.content).not.toContain(FRED_TEST_KEY);
      expect(cachedRows()).toBe(0);
      expect(t.ws.fs.exists('/session/sess_test/context/ctx_001.md')).toBe(false);
      expect(registry.list().find((p) => p.name === 'economic')!.health.state).toBe('failing');
      // The next call is answered afresh (nothing of the failure was kept) and succeeds.
      fred.fault(null);
      const ok = await tool({ series_id: 'RSAFS' });
      expect(ok.content).toMatch(/^\[ctx_001 \| economic \| RSAFS 2024-06-01\.\.2024-10-01 \| as of 2024-10-01 \| FRED RSAFS \| \d+ tok\]/);
      expect(registry.list().find((p) => p.name === 'economic')!.health.state).toBe('ok');
    });
  }

  it('FRED errors in its own words: an unknown series, a refused key', async () => {
    const unknown = await tool({ series_id: 'NOPE' });
    expect(unknown.content).toBe('[FETCH FAILED | economic | not_found] FRED has no series NOPE (Bad Request. The series does not exist.)');
    key = 'wrong-key-000000000000000000000000';
    const refused = await tool({ series_id: 'RSAFS' });
    expect(refused.content).toMatch(
      /^\[FETCH FAILED \| economic \| not_configured\] FRED refused the API key \(Bad Request\. The value for variable api_key is not registered\./,
    );
    expect(refused.content).not.toContain('wrong-key-000000000000000000000000');
    expect(cachedRows()).toBe(0);
  });

  it('a 429 within the wait cap is waited out and the data arrives', async () => {
    fred.fault((_req, res) => sendJson(res, 429, { error_code: 429, error_message: 'Too Many Requests.' }, { 'retry-after': '0' }), 1);
    const r = await tool({ series_id: 'RSAFS' });
    expect(r.isError).toBeUndefined();
    expect(r.content).toMatch(/^\[ctx_001 \| economic \| RSAFS /);
  });
});
