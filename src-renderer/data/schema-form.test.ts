import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { activeFields, buildParams, type FieldsForm, formOf, type JsonSchema, parseField, parseJsonParams, parseNumber } from './schema-form';

/** JSON Schema exactly as `providers/list` sends it: zod's output for the input side, `$schema` dropped. */
function jsonOf(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
}

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD');

/** Shaped like the sample `market` provider's parameters. */
const csvLike = z.object({
  dataset: z.string().describe('one of fx_spot, us_labour, ust_yields'),
  columns: z.array(z.string()).optional().describe('value columns to keep'),
  start: day.optional().describe('first date to include'),
  last: z.number().int().min(1).max(500).optional().describe('only the last N rows'),
});

/** Shaped like the analytics provider: a union keyed by `calc`, with enums, defaults and arrays of objects. */
const analyticsLike = z.discriminatedUnion('calc', [
  z.object({
    calc: z.literal('option_price'),
    model: z.enum(['bsm', 'black76']).default('bsm').describe('bsm: spot; black76: futures'),
    type: z.enum(['call', 'put']),
    underlying: z.number().positive().describe('spot or futures price'),
    vol: z.number().positive().max(10),
  }),
  z.object({
    calc: z.literal('bootstrap'),
    bonds: z.array(z.object({ maturity: z.number(), coupon: z.number(), price: z.number().optional() })).min(1),
    frequency: z.union([z.literal(1), z.literal(2), z.literal(4), z.literal(12)]).optional(),
  }),
  z.object({
    calc: z.literal('zscore'),
    series: z.array(z.number()).optional(),
    hedge_ratio: z.union([z.number(), z.literal('ols')]).optional(),
    strict: z.boolean().optional(),
  }),
]);

const fieldsOf = (schema: z.ZodType) => {
  const form = formOf(jsonOf(schema));
  if (form.kind !== 'fields') throw new Error(`expected a plain form, got ${form.kind}`);
  return form;
};

describe('a parameter schema becomes a form', () => {
  it('gives each parameter its own input with its description as the hint and its required flag', () => {
    const form = fieldsOf(csvLike);
    expect(form.fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['dataset', 'text', true],
      ['columns', 'list', false],
      ['start', 'date', false],
      ['last', 'integer', false],
    ]);
    expect(form.fields[0]!.hint).toBe('one of fx_spot, us_labour, ust_yields');
    expect(form.fields.find((f) => f.name === 'last')).toMatchObject({ min: 1, max: 500 });
  });

  it('shows a selector first for a discriminated union, each choice with its own fields and the key pinned', () => {
    const form = formOf(jsonOf(analyticsLike));
    expect(form.kind).toBe('union');
    if (form.kind !== 'union') return;
    expect(form.discriminator).toBe('calc');
    expect(form.variants.map((v) => v.value)).toEqual(['option_price', 'bootstrap', 'zscore']);
    const option = form.variants[0]!.form;
    expect(option.fixed).toEqual({ calc: 'option_price' });
    expect(option.fields.map((f) => f.name)).toEqual(['model', 'type', 'underlying', 'vol']);
    // The default is what an empty choice means, so the PM sees it rather than guessing.
    expect(option.fields[0]).toMatchObject({ kind: 'enum', options: ['bsm', 'black76'], placeholder: 'bsm', required: false });
    const bootstrap = form.variants[1]!.form;
    expect(bootstrap.fields[0]).toMatchObject({ name: 'bonds', kind: 'json', multiline: true, required: true });
    expect(bootstrap.fields[0]!.placeholder).toBe('[{"maturity": …, "coupon": …}]');
    expect(bootstrap.fields[1]).toMatchObject({ name: 'frequency', kind: 'enum', options: [1, 2, 4, 12] });
    const zscore = form.variants[2]!.form;
    expect(zscore.fields.map((f) => [f.name, f.kind])).toEqual([
      ['series', 'numberList'],
      ['hedge_ratio', 'json'],
      ['strict', 'boolean'],
    ]);
  });

  it('falls back to a JSON box when the schema is not an object or a keyed union', () => {
    expect(formOf(jsonOf(z.union([z.string(), z.number()]))).kind).toBe('json');
    expect(formOf(jsonOf(z.array(z.string()))).kind).toBe('json');
    // A union of objects without a shared constant key has no selector to offer.
    expect(formOf(jsonOf(z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]))).kind).toBe('json');
  });

  it('activeFields follows the chosen variant, and the first when none is chosen', () => {
    const form = formOf(jsonOf(analyticsLike));
    expect(activeFields(form, 'bootstrap')?.fixed).toEqual({ calc: 'bootstrap' });
    expect(activeFields(form, null)?.fixed).toEqual({ calc: 'option_price' });
    expect(activeFields({ kind: 'json', reason: '' }, null)).toBeNull();
  });
});

describe('typed-in values become parameters', () => {
  it('builds what the provider validates: numbers as numbers, lists split, empty optional fields left out', () => {
    const form = fieldsOf(csvLike);
    const built = buildParams(form, { dataset: ' ust_yields ', columns: 'us2y, us10y,', start: '', last: '5' });
    expect(built).toEqual({ ok: true, params: { dataset: 'ust_yields', columns: ['us2y', 'us10y'], last: 5 } });
    // The output must pass the very schema it was built from.
    expect(csvLike.safeParse(built.ok ? built.params : null).success).toBe(true);
  });

  it('names each field the PM must fix instead of sending a request bound to fail', () => {
    const form = fieldsOf(csvLike);
    expect(buildParams(form, { dataset: '', start: '23/11/2026', last: '2.5' })).toEqual({
      ok: false,
      errors: { dataset: 'is required', start: 'must be a date YYYY-MM-DD', last: 'must be a whole number' },
    });
    expect(buildParams(form, { dataset: 'x', last: '0' })).toEqual({ ok: false, errors: { last: 'must be at least 1' } });
    expect(buildParams(form, { dataset: 'x', last: '501' })).toEqual({ ok: false, errors: { last: 'must be at most 500' } });
  });

  it('a union variant sends its key with its fields, and its output passes the union schema', () => {
    const form = formOf(jsonOf(analyticsLike));
    const fields = activeFields(form, 'option_price') as FieldsForm;
    const built = buildParams(fields, { type: 'put', underlying: '101.5', vol: '20%', model: '' });
    expect(built).toEqual({ ok: true, params: { calc: 'option_price', type: 'put', underlying: 101.5, vol: 0.2 } });
    expect(analyticsLike.safeParse(built.ok ? built.params : null).success).toBe(true);
    const bonds = buildParams(activeFields(form, 'bootstrap') as FieldsForm, { bonds: '[{"maturity": 1, "coupon": 0.04}]', frequency: '4' });
    expect(bonds).toEqual({ ok: true, params: { calc: 'bootstrap', bonds: [{ maturity: 1, coupon: 0.04 }], frequency: 4 } });
    expect(analyticsLike.safeParse(bonds.ok ? bonds.params : null).success).toBe(true);
  });

  it('a bare word in a JSON field is text (hedge ratio "ols"); broken JSON is an error to show', () => {
    const field = { name: 'hedge_ratio', kind: 'json' as const, required: false };
    expect(parseField(field, 'ols')).toEqual({ ok: true, value: 'ols' });
    expect(parseField(field, '0.8')).toEqual({ ok: true, value: 0.8 });
    const broken = parseField({ ...field, name: 'bonds' }, '[{"maturity": 1,');
    expect(broken.ok).toBe(false);
    expect(broken.ok ? '' : broken.error).toMatch(/^is not valid JSON/);
  });

  it('reads lists of numbers and names the item that is not one', () => {
    const field = { name: 'series', kind: 'numberList' as const, required: false };
    expect(parseField(field, '1.5, -2  3e2;4')).toEqual({ ok: true, value: [1.5, -2, 300, 4] });
    expect(parseField(field, '1, two, 3')).toEqual({ ok: false, error: '"two" is not a number' });
  });

  it('enum and boolean choices go back to their typed values', () => {
    expect(parseField({ name: 'f', kind: 'enum', required: false, options: [1, 2, 4, 12] }, '12')).toEqual({ ok: true, value: 12 });
    expect(parseField({ name: 'b', kind: 'boolean', required: false }, 'false')).toEqual({ ok: true, value: false });
    expect(parseField({ name: 'u', kind: 'enum', required: false, options: ['lin', 'pch'] }, 'yoy')).toEqual({ ok: false, error: 'must be one of lin, pch' });
  });
});

describe('numbers as a PM types them', () => {
  it('accepts plain, signed, exponent, grouped and percentage forms', () => {
    expect(parseNumber('0.2')).toBe(0.2);
    expect(parseNumber(' -1.5e-3 ')).toBe(-0.0015);
    expect(parseNumber('1 000')).toBe(1000);
    expect(parseNumber('20%')).toBeCloseTo(0.2, 15);
    expect(parseNumber('.5')).toBe(0.5);
  });

  it('refuses what would be silently misread', () => {
    // A decimal comma could equally be a thousands separator: refuse rather than guess.
    expect(parseNumber('1,5')).toBeNull();
    expect(parseNumber('')).toBeNull();
    expect(parseNumber('12abc')).toBeNull();
    expect(parseNumber('Infinity')).toBeNull();
    expect(parseNumber('0x10')).toBeNull();
  });
});

describe('the JSON box', () => {
  it('takes one object, {} when empty, and explains anything else', () => {
    expect(parseJsonParams('')).toEqual({ ok: true, params: {} });
    expect(parseJsonParams('{"dataset": "fx_spot"}')).toEqual({ ok: true, params: { dataset: 'fx_spot' } });
    expect(parseJsonParams('["fx_spot"]')).toEqual({ ok: false, errors: { json: 'must be a JSON object such as {"dataset": "…"}' } });
    const bad = parseJsonParams('{dataset: fx}');
    expect(bad.ok ? '' : bad.errors.json).toMatch(/^is not valid JSON/);
  });
});
