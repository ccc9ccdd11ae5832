import { createHash } from 'node:crypto';

/**
 * A row's digest for the migration's row-by-row check: sha256 of a canonical encoding of its
 * column values in table order. Both engines' rows pass through this one encoder, read with exact
 * types (SQLite with safeIntegers, PostgreSQL's bigint as BigInt), so equal digests mean equal
 * values, column by column.
 *
 * The encoding compares values, not storage classes: an integral number is encoded as the integer
 * it is, so SQLite's INTEGER 3 and a REAL 3.0 that PostgreSQL holds in a bigint both read "i3". A
 * text '3' and a number 3 stay different ("s1:3" vs "i3"): a type that changed in the copy is
 * caught. Each value is prefixed by its kind and, for text and bytes, its length, so no two rows
 * encode alike by shifting a boundary between columns.
 */
export function rowDigest(values: readonly unknown[]): Buffer {
  const hash = createHash('sha256');
  for (const v of values) hash.update(encodeValue(v));
  return hash.digest();
}

const INT64_LIMIT = 2 ** 63;

export function encodeValue(v: unknown): Buffer {
  if (v === null || v === undefined) return Buffer.from('n;');
  if (typeof v === 'bigint') return Buffer.from(`i${v.toString()};`);
  if (typeof v === 'number') {
    if (Number.isInteger(v) && Math.abs(v) < INT64_LIMIT) return Buffer.from(`i${BigInt(v).toString()};`);
    // Shortest round-trip form: PostgreSQL prints a double the same way (extra_float_digits = 1).
    return Buffer.from(`r${String(v)};`);
  }
  if (typeof v === 'string') {
    const bytes = Buffer.from(v, 'utf8');
    return Buffer.concat([Buffer.from(`s${bytes.length}:`), bytes, Buffer.from(';')]);
  }
  if (v instanceof Uint8Array) return Buffer.concat([Buffer.from(`b${v.length}:`), v, Buffer.from(';')]);
  throw new TypeError(`A value of type ${typeof v} cannot be compared between SQLite and PostgreSQL.`);
}
