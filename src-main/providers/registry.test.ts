import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type DataProvider, type FetchContext, ProviderError, type ProviderHealth, type ProviderResult } from './provider';
import { ProviderRegistry, paramsSignature } from './registry';

const params = z.object({
  series: z.string().min(1).describe('series id'),
  start: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD')
    .optional(),
  units: z.enum(['lin', 'pch']).default('lin'),
});

/** A provider whose answer each test scripts: the registry's rules are what is under test. */
class Scripted implements DataProvider<typeof params> {
  readonly name = 'economic';
  readonly description = 'test series';
  readonly params = params;
  readonly secret = 'fredApiKey';
  own: ProviderHealth = { state: 'ok' };
  seen: { params: z.output<typeof params>; ctx: FetchContext }[] = [];
  answer: (p: z.output<typeof params>, ctx: FetchContext) => Promise<ProviderResult> = async (p) => result(p.series, '2026-10-01');
  health() {
    return this.own;
  }
  fetch(p: z.output<typeof params>, ctx: FetchContext) {
    this.seen.push({ params: p, ctx });
    return this.answer(p, ctx);
  }
}

const result = (label: string, asOf: string): ProviderResult => ({
  label,
  asOf,
  source: 'test',
  formatFull: () => `# ${label}`,
  formatSummary: () => label,
});

const clock = () => new Date('2026-11-21T12:00:00Z');

async function kindOf(p: Promise<unknown>): Promise<[string, string]> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ProviderError);
    return [(e as ProviderError).kind, (e as ProviderError).message];
  }
  throw new Error('expected a failure');
}

describe('ProviderRegistry', () => {
  it('validates params with the provider schema, applying defaults, and passes the as-of date to the provider', async () => {
    const p = new Scripted();
    const reg = new ProviderRegistry([p], { now: clock });
    const r = await reg.fetch('economic', { series: 'RSAFS' }, { asOf: '2026-10-31' });
    expect(r.label).toBe('RSAFS');
    expect(p.seen[0]!.params).toEqual({ series: 'RSAFS', units: 'lin' });
    expect(p.seen[0]!.ctx.asOf).toBe('2026-10-31');
    expect(p.seen[0]!.ctx.now!().toISOString()).toBe('2026-11-21T12:00:00.000Z');
  });

  it('refuses a bad parameter naming the field, and an unknown one instead of ignoring it', async () => {
    const p = new Scripted();
    const reg = new ProviderRegistry([p]);
    expect(await kindOf(reg.fetch('economic', { series: 'X', start: 'yesterday' }))).toEqual(['bad_params', 'params.start: a date YYYY-MM-DD']);
    expect(await kindOf(reg.fetch('economic', { series: 'X', units: 'log' }))).toEqual([
      'bad_params',
      'params.units: Invalid option: expected one of "lin"|"pch"',
    ]);
    // The field's hint from the schema comes with the error, since the tool description has only names.
    expect(await kindOf(reg.fetch('economic', { series: '' }))).toEqual([
      'bad_params',
      'params.series: Too small: expected string to have >=1 characters (series id)',
    ]);
    expect(await kindOf(reg.fetch('economic', { series_id: 'X' }))).toEqual([
      'bad_params',
      'params.series_id: not a parameter of economic; it takes {series, start?, units?}.',
    ]);
    expect(await kindOf(reg.fetch('economic', 'RSAFS'))).toEqual(['bad_params', 'params must be an object such as {series, start?, units?}.']);
    expect(p.seen).toEqual([]);
  });

  it('refuses a result dated after the session as-of date, with the reason', async () => {
    const p = new Scripted();
    p.answer = async () => result('RSAFS 2024-01..2026-10', '2026-10-01');
    const reg = new ProviderRegistry([p]);
    const [kind, message] = await kindOf(reg.fetch('economic', { series: 'RSAFS' }, { asOf: '2025-06-30' }));
    expect(kind).toBe('as_of');
    expect(message).toContain('data after 2025-06-30 is not used in a session as of 2025-06-30');
    expect(message).toContain('as of 2026-10-01');
    // The same result is fine on the day itself and without an as-of date.
    expect((await reg.fetch('economic', { series: 'RSAFS' }, { asOf: '2026-10-01' })).asOf).toBe('2026-10-01');
    expect((await reg.fetch('economic', { series: 'RSAFS' })).asOf).toBe('2026-10-01');
  });

  it('compares a timestamp as-of by its date, and refuses an unreadable as-of or session date', async () => {
    const p = new Scripted();
    const reg = new ProviderRegistry([p]);
    p.answer = async () => result('quote', '2026-10-02T14:00:00Z');
    expect((await kindOf(reg.fetch('economic', { series: 'X' }, { asOf: '2026-10-01' })))[0]).toBe('as_of');
    p.answer = async () => result('quote', 'recently');
    expect((await kindOf(reg.fetch('economic', { series: 'X' })))[0]).toBe('bad_response');
    expect(await kindOf(reg.fetch('economic', { series: 'X' }, { asOf: '2026-02-30' }))).toEqual([
      'bad_params',
      'The session\'s as-of date must be YYYY-MM-DD (got "2026-02-30").',
    ]);
  });

  it('records health: failing with the last source fault and its time, ok again after a success; a bad request does not mark it failing', async () => {
    const p = new Scripted();
    const reg = new ProviderRegistry([p], { now: clock });
    p.answer = async () => {
      throw new ProviderError('api.example answered HTTP 503 (server error).', 'unavailable');
    };
    await kindOf(reg.fetch('economic', { series: 'X' }));
    expect(reg.list()[0]!.health).toEqual({
      state: 'failing',
      lastError: 'unavailable: api.example answered HTTP 503 (server error).',
      at: '2026-11-21T12:00:00.000Z',
    });
    p.answer = async () => {
      throw new ProviderError('no such series', 'not_found');
    };
    await kindOf(reg.fetch('economic', { series: 'X' }));
    expect(reg.list()[0]!.health.state).toBe('failing');
    p.answer = async () => result('X', '2026-10-01');
    await reg.fetch('economic', { series: 'X' });
    expect(reg.list()[0]!.health).toEqual({ state: 'ok', checkedAt: '2026-11-21T12:00:00.000Z' });
  });

  it('wraps a provider that throws a plain Error, so callers only ever see ProviderError', async () => {
    const p = new Scripted();
    p.answer = async () => {
      throw new TypeError('cannot read x of undefined');
    };
    expect(await kindOf(new ProviderRegistry([p]).fetch('economic', { series: 'X' }))).toEqual(['unavailable', 'economic failed: cannot read x of undefined']);
  });

  it('says not configured without calling the provider, and refuses a switched-off or unknown source', async () => {
    const p = new Scripted();
    p.own = { state: 'not_configured', detail: 'add a FRED API key in Settings → API keys.' };
    let on = true;
    const reg = new ProviderRegistry([p], { isEnabled: () => on });
    expect(await kindOf(reg.fetch('economic', { series: 'X' }))).toEqual([
      'not_configured',
      'economic is not configured: add a FRED API key in Settings → API keys.',
    ]);
    on = false;
    expect(await kindOf(reg.fetch('economic', { series: 'X' }))).toEqual(['not_configured', 'The economic source is switched off on the Data screen.']);
    expect(reg.names()).toEqual([]);
    expect(await kindOf(reg.fetch('nope', {}))).toEqual(['not_found', 'Unknown source "nope". Available: none.']);
    expect(p.seen).toEqual([]);
  });

  it('lists each provider with its JSON schema, health, enabled flag and secret, and a one-line catalogue', () => {
    const reg = new ProviderRegistry([new Scripted()]);
    const [info] = reg.list();
    expect(info).toMatchObject({ name: 'economic', description: 'test series', enabled: true, secret: 'fredApiKey', health: { state: 'ok' } });
    expect(info!.params).toMatchObject({ type: 'object', properties: { series: { type: 'string', description: 'series id' } }, required: ['series'] });
    expect(reg.catalogue()).toEqual(['economic: test series {series, start?, units?}']);
    expect(paramsSignature(z.object({}))).toBe('{}');
  });

  it('keeps each line in the fetch tool short: required fields first, at most four names then `…`, a union by its discriminator', () => {
    const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
    // Declared optional-first: the required ones still lead, since a call without them cannot work.
    expect(paramsSignature(z.object({ start: day.optional(), end: day.optional(), symbol: z.string(), last: z.number().optional(), kind: z.string() }))).toBe(
      '{symbol, kind, start?, end?, …}',
    );
    // Four fields fit: no `…` when nothing is left out.
    expect(paramsSignature(z.object({ symbol: z.string(), start: day.optional(), end: day.optional(), last: z.number().optional() }))).toBe(
      '{symbol, start?, end?, last?}',
    );
    // Required fields are never cut, even past four.
    const five = Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((k) => [k, z.string()]));
    expect(paramsSignature(z.object({ ...five, note: z.string().optional() }))).toBe('{a, b, c, d, e, …}');
    // A discriminated union names the values of its discriminator, not one branch's fields.
    const calc = z.discriminatedUnion('calc', [
      z.object({ calc: z.literal('option_price'), spot: z.number(), strike: z.number() }),
      z.object({ calc: z.enum(['kelly']), p: z.number() }),
      z.object({ calc: z.literal('zscore'), series: z.array(z.number()) }),
    ]);
    expect(paramsSignature(calc)).toBe('{calc: option_price|kelly|zscore, …}');
    // A union with no shared discriminator lists its branches.
    expect(paramsSignature(z.union([z.object({ query: z.string() }), z.object({ url: z.string(), depth: z.number().optional() })]))).toBe(
      '{query} | {url, depth?}',
    );

    // The same short form is what the catalogue line and a non-object params error show.
    const maths: DataProvider<typeof calc> = {
      name: 'analytics',
      description: 'local maths',
      params: calc,
      health: () => ({ state: 'ok' }),
      fetch: async () => result('x', '2026-10-01'),
    };
    const reg = new ProviderRegistry([maths]);
    expect(reg.catalogue()).toEqual(['analytics: local maths {calc: option_price|kelly|zscore, …}']);
    return expect(kindOf(reg.fetch('analytics', 'kelly'))).resolves.toEqual([
      'bad_params',
      'params must be an object such as {calc: option_price|kelly|zscore, …}.',
    ]);
  });
});
