import type { z } from 'zod';

/**
 * A zod issue from a contract's structure check, said as a sentence a builder can act on:
 * the field, what it holds, and what it may hold ("paths./a.method is "FETCH"; it must be one of
 * GET, POST, PUT, PATCH or DELETE."), instead of zod's "Invalid option: expected one of …".
 */

type Path = (string | number)[];

const KIND: Record<string, string> = {
  record: 'a map of names to entries',
  object: 'a map of keys to values',
  array: 'a list',
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
};

/** Messages zod writes itself; any other message was written in the schema and is kept as it is. */
const GENERIC = /^(Invalid|Too (small|big)|Expected|Unrecognized)/;

function valueAt(data: unknown, path: Path): unknown {
  let v = data;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[p];
  }
  return v;
}

function shown(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return 'a list';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'a map';
  return String(v);
}

function oneOf(values: readonly unknown[]): string {
  const names = values.map((v) => String(v));
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : (names[0] ?? '');
}

export function issueSentence(issue: z.core.$ZodIssue, path: Path, field: string, data: unknown): string {
  const value = valueAt(data, path);
  const has = value === undefined ? 'is missing' : `is ${shown(value)}`;
  switch (issue.code) {
    case 'invalid_value':
      return `${field} ${has}; it must be one of ${oneOf(issue.values)}.`;
    case 'invalid_type':
      return `${field} ${has}; it must be ${KIND[issue.expected] ?? issue.expected}.`;
    case 'invalid_key': {
      const why = issue.issues.map((i) => i.message).filter((m) => !GENERIC.test(m));
      return `The name ${JSON.stringify(String(path[path.length - 1]))} is not allowed here${why.length ? `: ${why.join('; ')}` : ''}.`;
    }
    case 'unrecognized_keys':
      return `${field} has keys this file does not use: ${issue.keys.join(', ')}.`;
    default:
      return GENERIC.test(issue.message) ? `${field} ${has}; ${issue.message.toLowerCase()}.` : `${field}: ${issue.message}.`;
  }
}
