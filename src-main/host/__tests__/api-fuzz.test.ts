import { request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { procedureNames, procedures } from '../../api/procedures';
import type { Envelope } from '../../api/envelope';
import { startHeadlessHost, type HeadlessHost } from '../http/server';
import { tempCore } from '../testing';

/**
 * Every API procedure, fed inputs derived from its own zod schema and then broken on purpose:
 * wrong types, huge strings, deep nesting, prototype-pollution keys. Whatever arrives, the answer
 * must be a typed envelope (a valid result or an error with a known code, never `internal`), in
 * bounded time, and must not change Object.prototype. Over HTTP the same holds for bytes no
 * procedure would ever see: invalid UTF-8, malformed percent escapes, oversized and odd bodies.
 */

/** Procedures that start long work the fuzzer must not set off with a lucky valid sample. */
const STARTS_WORK =
  /^(agent\/(send|demo)|demo\/enter|builds\/start|schedule\/run|tracking\/run|search\/reindex|search\/model-download|demo\/exit|providers\/test)/;

const KNOWN_CODES = new Set([
  'invalid_input',
  'unauthorized',
  'missing_key',
  'forbidden',
  'not_found',
  'conflict',
  'too_large',
  'blocked',
  'guardrail_violation',
  'cancelled',
  'unavailable',
]);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A plausible input from the procedure's JSON Schema: required fields with the simplest values they accept. */
function sampleOf(schema: Record<string, unknown> | undefined, depth = 0): Json {
  if (!schema || depth > 6) return null;
  if (Array.isArray(schema.enum)) return schema.enum[0] as Json;
  if ('const' in schema) return schema.const as Json;
  const anyOf = (schema.anyOf ?? schema.oneOf) as Record<string, unknown>[] | undefined;
  if (anyOf?.length) return sampleOf(anyOf[0], depth + 1);
  switch (schema.type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      const out: Record<string, Json> = {};
      for (const key of (schema.required as string[] | undefined) ?? []) out[key] = sampleOf(props[key], depth + 1);
      return out;
    }
    case 'array':
      return [];
    case 'string':
      return 'x'.repeat(Math.max(1, Number(schema.minLength ?? 1)));
    case 'integer':
    case 'number':
      return Number(schema.minimum ?? 1);
    case 'boolean':
      return true;
    default:
      return null;
  }
}

function deep(levels: number): Json {
  let v: Json = 'bottom';
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

/** The mutations: each one is something a buggy client or an attacker could send. */
function mutationsOf(sample: Json, props: string[]): { label: string; input: unknown }[] {
  const wrong: Json[] = [null, 0, -1, 1e308, '', 'x'.repeat(1_000_000), [], [[[]]], {}, true, '\u0000', '\ud800', '../../etc/passwd'];
  const out: { label: string; input: unknown }[] = [
    { label: 'no input', input: undefined },
    { label: 'a string instead of an object', input: 'memory' },
    { label: 'an array instead of an object', input: [sample] },
    { label: 'deep nesting', input: deep(5_000) },
    { label: '__proto__ key', input: JSON.parse('{"__proto__": {"polluted": true}}') },
    { label: 'constructor.prototype key', input: { constructor: { prototype: { polluted: true } } } },
  ];
  const base = sample && typeof sample === 'object' && !Array.isArray(sample) ? sample : {};
  for (const prop of props) {
    for (const w of wrong) out.push({ label: `${prop} = ${JSON.stringify(w)?.slice(0, 20)}`, input: { ...base, [prop]: w } });
    out.push({ label: `${prop} nested deep`, input: { ...base, [prop]: deep(2_000) } });
    out.push({ label: `${prop} with a __proto__ key`, input: { ...base, [prop]: JSON.parse('{"__proto__": {"polluted": true}}') } });
  }
  out.push({ label: 'an unknown extra key', input: { ...base, zzUnknown: 1 } });
  return out;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

function expectTyped(env: Envelope<unknown>, what: string) {
  if (env.ok) return;
  // `internal` is a crash in disguise: the input reached code that did not expect it.
  expect(KNOWN_CODES.has(env.error.code), `${what} → ${env.error.code}: ${env.error.message.slice(0, 300)}`).toBe(true);
  expect(typeof env.error.message, what).toBe('string');
}

let t: ReturnType<typeof tempCore>;
let host: HeadlessHost;

beforeAll(async () => {
  t = tempCore();
  host = await startHeadlessHost({ core: t.core });
});
afterAll(async () => {
  await host?.close();
  await t?.dispose();
});

describe('every API procedure survives hostile input (in-process)', () => {
  it('answers each mutation with a typed envelope, in time, without polluting prototypes', { timeout: 600_000 }, async () => {
    let calls = 0;
    for (const name of procedureNames) {
      const json = z.toJSONSchema(procedures[name].input, { unrepresentable: 'any', io: 'input' }) as Record<string, unknown>;
      const props = Object.keys((json.properties ?? {}) as object);
      const sample = sampleOf(json);
      const cases = mutationsOf(sample, props);
      if (!STARTS_WORK.test(name)) cases.unshift({ label: 'the schema sample', input: sample });
      for (const c of cases) {
        // A mutation that happens to be valid would start real work (a demo run, a rebuild): only refusals are sent there.
        if (STARTS_WORK.test(name) && procedures[name].input.safeParse(c.input ?? {}).success) continue;
        const what = `${name} with ${c.label}`;
        const env = await withTimeout(t.core.invokeUnknown(name, c.input), 15_000, what);
        expectTyped(env, what);
        calls++;
      }
      expect(({} as Record<string, unknown>).polluted, `${name} polluted Object.prototype`).toBeUndefined();
    }
    // Every procedure was reached with a dozen or more inputs.
    expect(calls).toBeGreaterThan(procedureNames.length * 8);
  });

  it('answers random JSON values for every procedure with a typed envelope (property test)', { timeout: 300_000 }, async () => {
    const names = procedureNames.filter((n) => !STARTS_WORK.test(n));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...names), fc.jsonValue({ maxDepth: 4 }), async (name, input) => {
        const env = await withTimeout(t.core.invokeUnknown(name, input), 15_000, name);
        expectTyped(env, `${name} with ${JSON.stringify(input).slice(0, 200)}`);
      }),
      { numRuns: 400 },
    );
  });

  it('refuses procedure names that are not in the contract', async () => {
    for (const name of ['', 'memory', '__proto__', 'constructor', 'memory/list/../../app/info', 'toString', 'x'.repeat(10_000)]) {
      const env = await t.core.invokeUnknown(name, {});
      expect(env.ok, name.slice(0, 40)).toBe(false);
      if (!env.ok) expect(env.error.code).toBe('not_found');
    }
  });
});

/** A raw request, so the test can send bytes and paths no well-behaved client would. */
function raw(path: string, body: Buffer | string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: host.port,
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token}`, ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.setTimeout(15_000, () => req.destroy(new Error(`${path} hung`)));
    req.on('error', reject);
    req.end(body);
  });
}

describe('the HTTP transport survives hostile bytes', () => {
  it('refuses invalid UTF-8 in the body with a typed 400, not a silently altered input', async () => {
    const bad = Buffer.concat([Buffer.from('{"path":"/memory/'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]);
    const r = await raw('/api/memory/list', bad);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error.code).toBe('invalid_input');
    expect(JSON.parse(r.body).error.message).toMatch(/UTF-8/);
  });

  it('answers malformed and hostile percent escapes in the procedure name with a 4xx', async () => {
    for (const path of [
      '/api/memory%ZZlist',
      '/api/%E0%A4%A',
      '/api/..%2f..%2fapp%2finfo',
      '/api/%00',
      '/api/memory%2Flist%00',
      `/api/${'%41'.repeat(5000)}`,
    ]) {
      const r = await raw(path, '{}');
      expect(r.status, path.slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(r.status, path.slice(0, 40)).toBeLessThan(500);
      expect(KNOWN_CODES.has(JSON.parse(r.body).error.code)).toBe(true);
    }
  });

  it('answers odd bodies with a typed 4xx and keeps serving', async () => {
    const bodies: [string, Buffer | string][] = [
      ['not JSON', '{"path": '],
      ['JSON null', 'null'],
      ['a bare number', '42'],
      ['deeply nested JSON', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
      ['a BOM before JSON', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"path":"/memory/"}')])],
      ['NUL bytes', Buffer.from([0x7b, 0x00, 0x7d])],
    ];
    for (const [label, body] of bodies) {
      const r = await raw('/api/memory/list', body);
      expect(r.status, label).toBeLessThan(500);
      const env = JSON.parse(r.body) as Envelope<unknown>;
      if (!env.ok) expect(KNOWN_CODES.has(env.error.code), label).toBe(true);
    }
    const big = await raw('/api/memory/list', Buffer.alloc(5 * 1024 * 1024, 0x20));
    expect(big.status).toBe(413);
    // Still serving after all that.
    const info = await raw('/api/app/info', '{}');
    expect(info.status).toBe(200);
  });
});
