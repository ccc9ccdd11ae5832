import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FRED_TEST_KEY, type FakeFred, startFakeFred } from '../../providers/economic/testing';
import { tempCore } from '../testing';

let fred: FakeFred;
let t: ReturnType<typeof tempCore> | undefined;
beforeAll(async () => {
  fred = await startFakeFred();
});
afterAll(() => fred.close());
afterEach(async () => {
  await t?.dispose();
  t = undefined;
});

async function core(env: Record<string, string> = {}) {
  t = tempCore(env);
  await t.core.context.memory.ready;
  return t.core;
}

describe('providers/* (Settings → Data)', () => {
  it('lists the app’s providers in registration order; Alpha Vantage says it needs a key until one is set, FRED and the sample data need none', async () => {
    const c = await core();
    const r = await c.invoke('providers/list', {});
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.providers.map((p) => p.name)).toEqual(['market', 'economic', 'treasury', 'ecb', 'news', 'research', 'web', 'analytics', 'datasets']);
    const economic = r.value.providers[1]!;
    // Without a key FRED serves series by id from its graph CSV; the key adds search and vintages.
    expect(economic).toMatchObject({ enabled: true, secret: 'fredApiKey', secretSet: false, health: { state: 'ok' }, settings: { enabled: true } });
    expect(economic.params).toMatchObject({
      type: 'object',
      properties: { series_id: { type: 'string' }, units: { enum: expect.arrayContaining(['lin', 'pc1', 'log']) } },
    });
    // Market works on its bundled sample set without a key; the key only adds the vendor.
    expect(r.value.providers[0]).toMatchObject({ name: 'market', secret: 'alphaVantageApiKey', secretSet: false, health: { state: 'ok' } });
    expect(r.value.providers.find((p) => p.name === 'datasets')).toMatchObject({
      name: 'datasets',
      description: 'CSV files (3 datasets)',
      secret: null,
      health: { state: 'ok' },
    });
    const settings = await c.invoke('settings/get', {});
    expect(settings.ok && settings.value.secrets.fredApiKey).toBe(false);
  });

  it('test-fetches FRED through the configured base URL and key, and the provider turns healthy', async () => {
    const c = await core({ FRED_API_KEY: FRED_TEST_KEY });
    const conf = await c.invoke('providers/configure', { name: 'economic', settings: { baseUrl: fred.base } });
    expect(conf.ok && conf.value).toMatchObject({ secretSet: true, settings: { enabled: true, baseUrl: fred.base }, health: { state: 'ok' } });
    const r = await c.invoke('providers/test-fetch', { name: 'economic', params: { series_id: 'RSAFS' } });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value).toMatchObject({ label: 'RSAFS 2024-06-01..2024-10-01', asOf: '2024-10-01', source: 'FRED RSAFS' });
    expect(r.value.full).toContain('| 2024-10-01 | 102.0 |');
    const list = await c.invoke('providers/list', {});
    expect(list.ok && list.value.providers[1]!.health).toMatchObject({ state: 'ok', checkedAt: expect.any(String) });
  });

  it('answers a provider failure as a typed error naming its kind: bad params, as-of, no key, switched off', async () => {
    const c = await core({ FRED_API_KEY: FRED_TEST_KEY });
    await c.invoke('providers/configure', { name: 'economic', settings: { baseUrl: fred.base } });
    const bad = await c.invoke('providers/test-fetch', { name: 'economic', params: { series_id: 'RSAFS', units: 'yoy' } });
    expect(bad.ok === false && bad.error).toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/^\[bad_params\] params\.units: Invalid option/),
    });
    const later = await c.invoke('providers/test-fetch', { name: 'datasets', params: { dataset: 'ust_yields', start: '2026-11-01' }, asOf: '2026-10-15' });
    expect(later.ok === false && later.error).toMatchObject({ code: 'not_found', message: expect.stringContaining('as of 2026-10-15') });
    const vintage = await c.invoke('providers/test-fetch', {
      name: 'economic',
      params: { series_id: 'RSAFS', vintage_dates: ['2025-01-15'] },
      asOf: '2024-12-31',
    });
    expect(vintage.ok === false && vintage.error).toMatchObject({
      code: 'invalid_input',
      message: '[as_of] Vintage 2025-01-15 is after 2024-12-31: data after 2024-12-31 is not used in a session as of 2024-12-31.',
    });
    const off = await c.invoke('providers/configure', { name: 'economic', settings: { enabled: false } });
    expect(off.ok && off.value).toMatchObject({ enabled: false, settings: { enabled: false, baseUrl: fred.base } });
    const refused = await c.invoke('providers/test-fetch', { name: 'economic', params: { series_id: 'RSAFS' } });
    expect(refused.ok === false && refused.error).toMatchObject({
      code: 'unavailable',
      message: '[not_configured] The economic source is switched off on the Data screen.',
    });
    // Kept in the settings file.
    const s = await c.invoke('settings/get', {});
    expect(s.ok && s.value.settings.providers).toEqual({ economic: { enabled: false, baseUrl: fred.base } });
  });

  it('refuses to configure an unknown provider or a base URL that is not http(s)', async () => {
    const c = await core();
    const unknown = await c.invoke('providers/configure', { name: 'bloomberg', settings: { enabled: true } });
    expect(unknown.ok === false && unknown.error).toMatchObject({
      code: 'not_found',
      message: 'There is no data provider named "bloomberg". Available: market, economic, treasury, ecb, news, research, web, analytics, datasets.',
    });
    const ftp = await c.invoke('providers/configure', { name: 'economic', settings: { baseUrl: 'ftp://example.com/fred' } });
    expect(ftp.ok === false && ftp.error.code).toBe('invalid_input');
  });
});
