import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { events } from './events';
import { procedures } from './procedures';

/**
 * The contract is what the main process, the preload, the renderer and the HTTP transport all
 * parse with, so each schema is exercised for real: a sample made from the schema itself parses, a
 * wrong value is refused with an issue naming the field (what the UI shows next to the input), and
 * an output survives the trip over the wire (JSON) unchanged.
 */

type Def = { type: string; [k: string]: unknown };
type Check = { check: string; [k: string]: unknown };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const checksOf = (s: z.ZodType): Check[] => ((defOf(s).checks as { _zod: { def: Check } }[] | undefined) ?? []).map((c) => c._zod.def);

/** Strings tried, in order, against a pattern the sample must match (ids, paths, names). */
const PATTERN_CANDIDATES = [
  'E-004',
  'V-001',
  'PK-001',
  'SEP-001',
  'sess_1',
  'claude-sonnet-5-5',
  'quick-note',
  'a',
  '1',
  '/memory/views/V-001.md',
  '2026-01-01',
  '2026-01-01T00:00:00Z',
  'abc123',
  'Europe/London',
  // A desk session token (32 random bytes, base64url), as desk/sign-in gives one.
  'Zm9yZ2UtZGVzay1zZXNzaW9uLXRva2VuLWZvci10ZXN0cw',
  // Settings → Desk database.
  'postgres://forge@127.0.0.1:5432/desk',
];
const FORMATS: Record<string, string> = {
  url: 'https://example.com/',
  email: 'pm@example.com',
  uuid: '00000000-0000-4000-8000-000000000000',
  datetime: '2026-01-01T00:00:00Z',
  date: '2026-01-01',
};

function stringSample(s: z.ZodType, where: string): string {
  const checks = checksOf(s);
  const def = defOf(s);
  let min = 1;
  let max = Infinity;
  const patterns: RegExp[] = [];
  let format = typeof def.format === 'string' ? def.format : undefined;
  for (const c of checks) {
    if (c.check === 'min_length') min = Math.max(min, c.minimum as number);
    else if (c.check === 'max_length') max = Math.min(max, c.maximum as number);
    else if (c.check === 'length_equals') min = max = c.length as number;
    else if (c.check === 'string_format') {
      if (c.format === 'regex' || c.format === 'starts_with' || c.format === 'ends_with' || c.format === 'includes') patterns.push(c.pattern as RegExp);
      else format = c.format as string;
    }
  }
  const fits = (v: string) => v.length >= min && v.length <= max && patterns.every((p) => new RegExp(p.source, p.flags.replace('g', '')).test(v));
  if (format && format in FORMATS && fits(FORMATS[format]!)) return FORMATS[format]!;
  if (!patterns.length) return 'x'.repeat(Math.min(Math.max(min, 4), max));
  const found = PATTERN_CANDIDATES.find(fits);
  if (!found) throw new Error(`${where}: no sample string fits ${patterns.join(' ')}; add one to PATTERN_CANDIDATES`);
  return found;
}

function numberSample(s: z.ZodType): number {
  let lo = -Infinity;
  let hi = Infinity;
  let int = false;
  for (const c of checksOf(s)) {
    if (c.check === 'greater_than') lo = Math.max(lo, (c.value as number) + (c.inclusive ? 0 : 1));
    else if (c.check === 'less_than') hi = Math.min(hi, (c.value as number) - (c.inclusive ? 0 : 1));
    else if (c.check === 'number_format') int = true;
  }
  const n = Math.min(Math.max(lo, 1), hi);
  return int ? Math.ceil(n) : n;
}

/** A value the schema should accept, with every optional field filled in so its shape is exercised too. */
function sample(s: z.ZodType, where: string, depth = 0): unknown {
  if (depth > 12) throw new Error(`${where}: schema nests too deep for a sample`);
  const d = defOf(s);
  const inner = (x: unknown, at = where) => sample(x as z.ZodType, at, depth + 1);
  switch (d.type) {
    case 'string':
      return stringSample(s, where);
    case 'number':
      return numberSample(s);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'literal':
      return (d.values as unknown[])[0];
    case 'enum':
      return Object.values(d.entries as Record<string, unknown>)[0];
    case 'any':
    case 'unknown':
      return { any: 'value' };
    case 'object':
      return Object.fromEntries(Object.entries(d.shape as Record<string, z.ZodType>).map(([k, v]) => [k, inner(v, `${where}.${k}`)]));
    case 'array': {
      const min = checksOf(s).find((c) => c.check === 'min_length')?.minimum as number | undefined;
      const max = checksOf(s).find((c) => c.check === 'max_length')?.maximum as number | undefined;
      return Array.from({ length: Math.min(Math.max(min ?? 1, 1), max ?? 1) }, () => inner(d.element, `${where}[]`));
    }
    case 'tuple':
      return (d.items as z.ZodType[]).map((x, i) => inner(x, `${where}[${i}]`));
    case 'record': {
      const key = defOf(d.keyType as z.ZodType);
      // An exhaustive record over an enum needs every key; a free one gets one entry.
      const keys = key.type === 'enum' ? Object.values(key.entries as Record<string, string>) : [String(inner(d.keyType, `${where}{key}`))];
      return Object.fromEntries(keys.map((k) => [k, inner(d.valueType, `${where}.${k}`)]));
    }
    case 'union':
      return inner((d.options as z.ZodType[])[0]);
    case 'intersection':
      return { ...(inner(d.left) as object), ...(inner(d.right) as object) };
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return inner(d.innerType);
    case 'pipe':
      return inner(d.in);
    case 'lazy':
      return inner((d.getter as () => z.ZodType)());
    default:
      throw new Error(`${where}: no sample for a zod "${d.type}"; teach procedures.test.ts`);
  }
}

/** A value of the wrong kind for this schema (under optional/default wrappers). */
function wrongFor(s: z.ZodType): unknown {
  let d = defOf(s);
  while (['optional', 'nullable', 'default', 'prefault', 'readonly'].includes(d.type)) d = defOf(d.innerType as z.ZodType);
  const t = d.type;
  if (t === 'any' || t === 'unknown') return undefined; // nothing is wrong for it
  return t === 'string' || t === 'enum' || t === 'literal' ? 12345 : t === 'number' ? 'not a number' : t === 'boolean' ? 'yes' : 'not an object';
}

/** The object schema under optional/default/pipe wrappers, if any. */
function objectOf(s: z.ZodType): Def | null {
  let d = defOf(s);
  while (['optional', 'nullable', 'default', 'prefault', 'readonly', 'pipe'].includes(d.type)) d = defOf((d.innerType ?? d.in) as z.ZodType);
  // A discriminated union of objects (memory/table: one shape per category) is checked on its first branch,
  // which is also the branch `sample` builds.
  if (d.type === 'union' && Array.isArray(d.options)) return objectOf(d.options[0] as z.ZodType);
  return d.type === 'object' ? d : null;
}

const entries = Object.entries(procedures) as [string, { input: z.ZodType; output: z.ZodType }][];

describe('API contract', () => {
  it('names every procedure area/verb, so transports can route it (POST /api/<area>/<verb>, forge:invoke:<name>)', () => {
    for (const name of Object.keys(procedures)) expect(name).toMatch(/^[a-z]+\/[a-z][a-z-]*$/);
    for (const name of Object.keys(events)) expect(name).toMatch(/^[a-z]+\/[a-z][a-z-]*$/);
  });

  it('accepts a well-formed input for every procedure (a schema that refuses everything would lock the UI out)', () => {
    expect(entries.length).toBeGreaterThan(30);
    for (const [name, spec] of entries) {
      const input = sample(spec.input, `${name} input`);
      const parsed = spec.input.safeParse(input);
      expect(parsed.success ? [] : parsed.error.issues, `${name}: ${JSON.stringify(input)}`).toEqual([]);
    }
  });

  it("refuses a wrong value in every procedure's input with an issue naming the field, or an unknown field on a strict input", () => {
    for (const [name, spec] of entries) {
      const obj = objectOf(spec.input);
      expect(obj, `${name} input is an object`).not.toBeNull();
      const shape = Object.entries(obj!.shape as Record<string, z.ZodType>);
      const good = sample(spec.input, name) as Record<string, unknown>;
      const checkable = shape.find(([, f]) => wrongFor(f) !== undefined);
      if (checkable) {
        // Breaking a field must be reported at that field, not somewhere vague.
        const [field, fieldSchema] = checkable;
        const bad = spec.input.safeParse({ ...good, [field]: wrongFor(fieldSchema) });
        expect(bad.success, `${name}: ${field} = ${JSON.stringify(wrongFor(fieldSchema))} was accepted`).toBe(false);
        expect(
          bad.error!.issues.map((i) => i.path[0]),
          name,
        ).toContain(field);
      }
      if (obj!.catchall && defOf(obj!.catchall as z.ZodType).type === 'never') {
        const extra = spec.input.safeParse({ ...good, notAField: 1 });
        expect(extra.success, `${name} accepted an unknown field`).toBe(false);
        expect(extra.error!.issues).toContainEqual(expect.objectContaining({ code: 'unrecognized_keys', keys: ['notAField'] }));
      }
    }
  });

  it('returns outputs that survive the wire unchanged: parse, JSON, parse again gives the same value', () => {
    for (const [name, spec] of entries) {
      const first = spec.output.safeParse(sample(spec.output, `${name} output`));
      expect(first.success ? [] : first.error.issues, `${name} output sample`).toEqual([]);
      const wire = JSON.parse(JSON.stringify(first.data)) as unknown;
      const second = spec.output.safeParse(wire);
      expect(second.success, `${name} output after JSON`).toBe(true);
      expect(second.data, `${name} output round trip`).toEqual(first.data);
    }
  });

  it('refuses what the PM could get wrong, with the words the UI shows', () => {
    const approve = procedures['expressions/approve'].input.safeParse({ id: 'V-001' });
    expect(approve.error?.issues).toEqual([expect.objectContaining({ path: ['id'], message: 'an Expression id such as E-004' })]);
    const send = procedures['agent/send'].input.safeParse({ message: '' });
    expect(send.error?.issues.map((i) => i.path)).toEqual([['message']]);
    // A secret cannot be slipped in through the settings the renderer edits.
    const smuggled = procedures['settings/set'].input.safeParse({ settings: { anthropicApiKey: 'sk-x' } });
    expect(smuggled.success).toBe(false);
    expect(smuggled.error!.issues[0]!.path).toEqual(['settings']);
  });

  it('keeps secrets out of the settings the renderer can read', () => {
    const keys = Object.keys(procedures['settings/get'].output.shape.settings.shape);
    expect(keys.some((k) => /key|secret|token/i.test(k))).toBe(false);
    expect(keys.length).toBeGreaterThan(5);
  });
});
