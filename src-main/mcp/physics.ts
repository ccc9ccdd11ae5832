import { z } from 'zod';

/**
 * physics.yaml describes the headless host's HTTP API. Shapes there are written in a compact form
 * ({field: type}, `field?` when optional, `a | b` for enums and unions, [item] for arrays); this
 * module derives that form from a zod schema, so a test can hold the contract to the real API and
 * a developer can print the entry of a new procedure instead of writing it by hand.
 */

type Json = Record<string, unknown>;

function compact(s: Json, defs: Json): unknown {
  if (typeof s.$ref === 'string') return compact((defs[s.$ref.replace('#/$defs/', '')] ?? {}) as Json, defs);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in s) return JSON.stringify(s.const);
  const alts = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (alts) {
    const parts = alts.map((a) => compact(a, defs));
    return parts.every((p) => typeof p === 'string') ? parts.join(' | ') : { one_of: parts };
  }
  const type = Array.isArray(s.type) ? (s.type as string[]).join(' | ') : s.type;
  if (type === 'object') {
    const props = (s.properties ?? {}) as Record<string, Json>;
    const required = new Set((s.required as string[] | undefined) ?? []);
    const out: Json = {};
    for (const [k, v] of Object.entries(props)) out[required.has(k) ? k : `${k}?`] = compact(v, defs);
    if (s.additionalProperties && typeof s.additionalProperties === 'object') {
      out['<key>'] = compact(s.additionalProperties as Json, defs);
    } else if (s.propertyNames && Object.keys(props).length === 0) {
      out['<key>'] = 'any';
    }
    return Object.keys(out).length || !s.additionalProperties ? out : { '<key>': 'any' };
  }
  if (type === 'array') return [s.items ? compact(s.items as Json, defs) : 'any'];
  if (typeof type === 'string') return type;
  return 'any';
}

export function shapeOf(schema: z.ZodType, io: 'input' | 'output'): unknown {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', reused: 'inline' }) as Json;
  return compact(json, (json.$defs ?? {}) as Json);
}

/** Top-level field names of a shape (without the `?`), for comparing contract and API. */
export function fieldsOf(shape: unknown): string[] {
  if (!shape || typeof shape !== 'object' || Array.isArray(shape)) return [];
  return Object.keys(shape as Json)
    .map((k) => k.replace(/\?$/, ''))
    .sort();
}

export interface PhysicsDoc {
  paths: Record<string, { method: string; procedure?: string; summary?: string; input?: unknown; output?: unknown }>;
}

/** `/api/app/info` → `app/info`, for every documented procedure path. */
export function documentedProcedures(doc: PhysicsDoc): Map<string, PhysicsDoc['paths'][string]> {
  const out = new Map<string, PhysicsDoc['paths'][string]>();
  for (const [path, entry] of Object.entries(doc.paths ?? {})) {
    if (path.startsWith('/api/')) out.set(path.slice('/api/'.length), entry);
  }
  return out;
}
