/**
 * A provider's parameters arrive as JSON Schema (`providers/list`). This turns that schema into a
 * small form the PM can fill in for a test fetch, and the typed-in text back into parameters.
 * The server validates again with the provider's own messages; the checks here only catch what
 * the form itself can know (a missing required field, text where a number belongs).
 */

export type JsonSchema = Record<string, unknown>;

export type FieldKind = 'text' | 'date' | 'number' | 'integer' | 'enum' | 'boolean' | 'list' | 'numberList' | 'json';

export interface FormField {
  name: string;
  kind: FieldKind;
  required: boolean;
  /** The schema's description: shown under the field. */
  hint?: string;
  /** enum: the allowed values, in the schema's order (numbers stay numbers). */
  options?: (string | number)[];
  /** What an empty field means: the schema's default, or the expected shape. */
  placeholder?: string;
  min?: number;
  max?: number;
  exclusiveMin?: number;
  exclusiveMax?: number;
  /** json: arrays of objects and other nested values get a multi-line box. */
  multiline?: boolean;
}

export interface FieldsForm {
  fields: FormField[];
  /** Properties the schema pins to one value (a union's discriminator): always sent. */
  fixed: Record<string, string | number | boolean>;
}

export interface UnionVariant {
  value: string;
  form: FieldsForm;
  hint?: string;
}

export type ParamsForm =
  | ({ kind: 'fields' } & FieldsForm)
  | { kind: 'union'; discriminator: string; variants: UnionVariant[] }
  | { kind: 'json'; reason: string };

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const isPrimitive = (v: unknown): v is string | number | boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** The form for a provider's parameter schema: fields, a selector then fields, or a JSON box. */
export function formOf(schema: JsonSchema): ParamsForm {
  const union = unionOf(schema);
  if (union) return union;
  if (isObjectSchema(schema)) return { kind: 'fields', ...fieldsOf(schema) };
  return { kind: 'json', reason: 'These parameters are too intricate for a form; write them as JSON.' };
}

function isObjectSchema(schema: JsonSchema): boolean {
  return schema.type === 'object' && (schema.properties === undefined || isObject(schema.properties)) && !schema.oneOf && !schema.anyOf;
}

/** A `oneOf`/`anyOf` of objects that all pin one property to distinct constants (e.g. `calc`). */
function unionOf(schema: JsonSchema): ParamsForm | null {
  const options = (schema.oneOf ?? schema.anyOf) as unknown;
  if (!Array.isArray(options) || options.length === 0 || !options.every((o) => isObject(o) && isObjectSchema(o))) return null;
  const first = (options[0] as JsonSchema).properties as JsonSchema | undefined;
  for (const key of Object.keys(first ?? {})) {
    const values = options.map((o) => constOf(((o as JsonSchema).properties as JsonSchema | undefined)?.[key]));
    if (values.every((v): v is string => typeof v === 'string') && new Set(values).size === values.length) {
      return {
        kind: 'union',
        discriminator: key,
        variants: options.map((o, i) => {
          const hint = typeof (o as JsonSchema).description === 'string' ? ((o as JsonSchema).description as string) : undefined;
          return { value: values[i]!, form: fieldsOf(o as JsonSchema), ...(hint ? { hint } : {}) };
        }),
      };
    }
  }
  return null;
}

function constOf(prop: unknown): unknown {
  if (!isObject(prop)) return undefined;
  if (prop.const !== undefined) return prop.const;
  if (Array.isArray(prop.enum) && prop.enum.length === 1) return prop.enum[0];
  return undefined;
}

function fieldsOf(schema: JsonSchema): FieldsForm {
  const props = (schema.properties as JsonSchema | undefined) ?? {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const fields: FormField[] = [];
  const fixed: FieldsForm['fixed'] = {};
  for (const [name, raw] of Object.entries(props)) {
    const prop = isObject(raw) ? raw : {};
    const pinned = constOf(prop);
    if (isPrimitive(pinned)) {
      fixed[name] = pinned;
      continue;
    }
    fields.push(fieldOf(name, prop, required.has(name)));
  }
  return { fields, fixed };
}

function fieldOf(name: string, prop: JsonSchema, required: boolean): FormField {
  const base: FormField = { name, kind: 'json', required };
  if (typeof prop.description === 'string') base.hint = prop.description;
  if (prop.default !== undefined) base.placeholder = typeof prop.default === 'string' ? prop.default : JSON.stringify(prop.default);
  const min = num(prop.minimum);
  const max = num(prop.maximum);
  const exMin = num(prop.exclusiveMinimum);
  const exMax = num(prop.exclusiveMaximum);
  // zod writes Number.MAX_SAFE_INTEGER for an unbounded int: not a limit worth showing.
  if (min !== undefined) base.min = min;
  if (max !== undefined && max < Number.MAX_SAFE_INTEGER) base.max = max;
  if (exMin !== undefined) base.exclusiveMin = exMin;
  if (exMax !== undefined) base.exclusiveMax = exMax;

  if (Array.isArray(prop.enum) && prop.enum.length > 0 && prop.enum.every((v) => typeof v === 'string' || typeof v === 'number')) {
    return { ...base, kind: 'enum', options: prop.enum as (string | number)[] };
  }
  // `anyOf` of constants (e.g. coupons a year: 1, 2, 4 or 12) is a choice too.
  const alternatives = prop.anyOf ?? prop.oneOf;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    const consts = alternatives.map(constOf);
    if (consts.every((v): v is string | number => typeof v === 'string' || typeof v === 'number')) return { ...base, kind: 'enum', options: consts };
    return { ...base, kind: 'json', placeholder: base.placeholder ?? 'a number or a word' };
  }
  switch (prop.type) {
    case 'string':
      if (prop.pattern === DATE_PATTERN || prop.format === 'date') return { ...base, kind: 'date', placeholder: base.placeholder ?? 'YYYY-MM-DD' };
      return { ...base, kind: 'text' };
    case 'number':
      return { ...base, kind: 'number' };
    case 'integer':
      return { ...base, kind: 'integer' };
    case 'boolean':
      return { ...base, kind: 'boolean', options: ['true', 'false'] };
    case 'array': {
      const items = isObject(prop.items) ? prop.items : {};
      if (items.type === 'string' && !items.enum) return { ...base, kind: 'list', placeholder: base.placeholder ?? 'comma-separated' };
      if (items.type === 'number' || items.type === 'integer')
        return { ...base, kind: 'numberList', placeholder: base.placeholder ?? 'numbers, comma-separated' };
      return { ...base, kind: 'json', multiline: true, placeholder: base.placeholder ?? exampleOf(prop) };
    }
    default:
      return { ...base, kind: 'json', multiline: isObject(prop.properties) };
  }
}

/** `[{"maturity": …, "coupon": …}]`: the shape of an array of objects, from its required keys. */
function exampleOf(prop: JsonSchema): string {
  const items = isObject(prop.items) ? prop.items : {};
  const keys = Array.isArray(items.required) ? (items.required as string[]) : Object.keys((items.properties as JsonSchema | undefined) ?? {});
  return keys.length ? `[{${keys.map((k) => `"${k}": …`).join(', ')}}]` : 'JSON';
}

/**
 * A number as a PM types it: `0.2`, `-1.5e-3`, `1 000`, or a percentage `20%` (= 0.2). Null for
 * anything else, including `1,5` — a decimal comma is ambiguous with a thousands separator.
 */
export function parseNumber(text: string): number | null {
  let t = text.trim().replace(/[\s\u00a0\u2009_]/g, '');
  let scale = 1;
  if (t.endsWith('%')) {
    t = t.slice(0, -1);
    scale = 0.01;
  }
  if (t === '' || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return null;
  const n = Number(t) * scale;
  return Number.isFinite(n) ? n : null;
}

/** "must be at least 1" — the bounds a field states, checked before a round trip. */
function boundsError(field: FormField, n: number): string | null {
  if (field.min !== undefined && n < field.min) return `must be at least ${field.min}`;
  if (field.max !== undefined && n > field.max) return `must be at most ${field.max}`;
  if (field.exclusiveMin !== undefined && n <= field.exclusiveMin) return `must be more than ${field.exclusiveMin}`;
  if (field.exclusiveMax !== undefined && n >= field.exclusiveMax) return `must be less than ${field.exclusiveMax}`;
  return null;
}

type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

/** One field's text as the value the provider expects. */
export function parseField(field: FormField, text: string): Parsed {
  const t = text.trim();
  switch (field.kind) {
    case 'text':
      return { ok: true, value: t };
    case 'date':
      return DAY.test(t) ? { ok: true, value: t } : { ok: false, error: 'must be a date YYYY-MM-DD' };
    case 'number':
    case 'integer': {
      const n = parseNumber(t);
      if (n === null) return { ok: false, error: 'must be a number (use . for decimals)' };
      if (field.kind === 'integer' && !Number.isInteger(n)) return { ok: false, error: 'must be a whole number' };
      const bad = boundsError(field, n);
      return bad ? { ok: false, error: bad } : { ok: true, value: n };
    }
    case 'enum':
    case 'boolean': {
      const options = field.kind === 'boolean' ? [true, false] : (field.options ?? []);
      const hit = options.find((o) => String(o) === t);
      return hit === undefined ? { ok: false, error: `must be one of ${options.join(', ')}` } : { ok: true, value: hit };
    }
    case 'list':
      return {
        ok: true,
        value: t
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s.length > 0),
      };
    case 'numberList': {
      const parts = t.split(/[,\s;]+/).filter((s) => s.length > 0);
      const out: number[] = [];
      for (const p of parts) {
        const n = parseNumber(p);
        if (n === null) return { ok: false, error: `"${p}" is not a number` };
        out.push(n);
      }
      return { ok: true, value: out };
    }
    case 'json':
      try {
        return { ok: true, value: JSON.parse(t) };
      } catch (e) {
        // A bare word ("ols", "aic") is what the PM means as text; broken brackets are a typo to show.
        if (/^[[{"]/.test(t)) return { ok: false, error: `is not valid JSON (${(e as Error).message})` };
        return { ok: true, value: t };
      }
  }
}

export type BuildResult = { ok: true; params: Record<string, unknown> } | { ok: false; errors: Record<string, string> };

/** The typed-in values (by field name) as parameters: empty optional fields are left out. */
export function buildParams(form: FieldsForm, values: Record<string, string>): BuildResult {
  const params: Record<string, unknown> = { ...form.fixed };
  const errors: Record<string, string> = {};
  for (const field of form.fields) {
    const text = values[field.name] ?? '';
    if (text.trim() === '') {
      if (field.required) errors[field.name] = 'is required';
      continue;
    }
    const parsed = parseField(field, text);
    if (parsed.ok) params[field.name] = parsed.value;
    else errors[field.name] = parsed.error;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, params };
}

/** The JSON box: must hold one object (the parameters), `{}` when empty. */
export function parseJsonParams(text: string): BuildResult {
  if (text.trim() === '') return { ok: true, params: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, errors: { json: `is not valid JSON (${(e as Error).message})` } };
  }
  if (!isObject(value)) return { ok: false, errors: { json: 'must be a JSON object such as {"dataset": "…"}' } };
  return { ok: true, params: value };
}

/** What a selected variant's form is, or the plain form; null for the JSON box. */
export function activeFields(form: ParamsForm, variant: string | null): FieldsForm | null {
  if (form.kind === 'fields') return form;
  if (form.kind === 'union') return form.variants.find((v) => v.value === variant)?.form ?? form.variants[0]?.form ?? null;
  return null;
}
