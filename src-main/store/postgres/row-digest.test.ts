import { describe, expect, it } from 'vitest';
import { rowDigest } from './row-digest';

const same = (a: unknown[], b: unknown[]) => rowDigest(a).equals(rowDigest(b));

describe('the row digest the migration compares', () => {
  // If this failed, the row-by-row check would either miss a changed value or refuse a faithful copy.
  it('equals for the same values read by either engine, and differs for any changed value, type or boundary', () => {
    // SQLite's INTEGER (BigInt with safeIntegers) vs a REAL 3.0 PostgreSQL holds in a bigint: the same value.
    expect(same([3n, 'a', null], [3, 'a', null])).toBe(true);
    expect(same([Buffer.from([1, 2])], [new Uint8Array([1, 2])])).toBe(true);
    expect(same([9007199254740993n], [9007199254740992n])).toBe(false);
    expect(same([3], ['3'])).toBe(false);
    expect(same([0.1], [0.1000000000000001])).toBe(false);
    expect(same(['ab', 'c'], ['a', 'bc'])).toBe(false);
    expect(same([null], [''])).toBe(false);
    expect(same([Buffer.from('x')], ['x'])).toBe(false);
    expect(same(['café'], ['cafe\u0301'])).toBe(false);
  });
});
