import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { AppError, InvalidInputError } from '../../common/errors';

/**
 * Desk passwords, hashed with scrypt from node:crypto (a standard, memory-hard KDF maintained with
 * Node itself: no new dependency to vet). The stored string describes itself —
 * `scrypt$N$r$p$salt$hash`, salt and hash in base64url — so the parameters can be raised later
 * without breaking the hashes already stored: verification reads them from the string, and
 * `needsRehash` tells sign-in to store a stronger hash once the password is known to be right.
 */

export interface ScryptParams {
  /** CPU/memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
}

/** 2^15 × 8 × 128 bytes = 32 MiB per hash: OWASP's 2026 floor for scrypt. */
export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };
export const MIN_PASSWORD_LENGTH = 12;
/** Long enough for any passphrase; bounded so a megabyte "password" cannot tie up a server. */
export const MAX_PASSWORD_LENGTH = 1024;

const SALT_BYTES = 16;
const HASH_BYTES = 32;
// A stored hash is data: its parameters are bounded so a tampered row cannot ask for gigabytes.
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

/** Refuses a password too short or too long, in words a person can act on. */
export function checkPasswordPolicy(password: unknown): asserts password is string {
  if (typeof password !== 'string') throw new InvalidInputError('A password must be text.', [{ path: ['password'], message: 'not text' }]);
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) {
    throw new InvalidInputError(
      `A password needs at least ${MIN_PASSWORD_LENGTH} characters (this one has ${length}); a few unrelated words make a good one.`,
      [{ path: ['password'], message: `at least ${MIN_PASSWORD_LENGTH} characters` }],
    );
  }
  if (length > MAX_PASSWORD_LENGTH) {
    throw new InvalidInputError(`A password can have at most ${MAX_PASSWORD_LENGTH} characters.`, [
      { path: ['password'], message: `at most ${MAX_PASSWORD_LENGTH} characters` },
    ]);
  }
}

/** A new self-describing hash of `password` (which must meet the policy) with a fresh random salt. */
export function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): string {
  checkPasswordPolicy(password);
  return rehashPassword(password, params);
}

/**
 * A new hash of a password just verified against its old, weaker hash. No policy check: a
 * password set under an older, shorter minimum must still upgrade, not fail its sign-in.
 */
export function rehashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): string {
  const salt = randomBytes(SALT_BYTES);
  const hash = derive(password, salt, params, HASH_BYTES);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/**
 * Whether `password` is the one `stored` was made from, compared in constant time. A wrong
 * password is `false`; a stored string Forge cannot read is a fault (never "any password fits").
 */
export function verifyPassword(password: string, stored: string): boolean {
  const parsed = parseStored(stored);
  if (typeof password !== 'string' || password.length > MAX_PASSWORD_LENGTH * 2) return false;
  const candidate = derive(password, parsed.salt, parsed.params, parsed.hash.length);
  return timingSafeEqual(candidate, parsed.hash);
}

/** Whether a stored hash is weaker than `params` (then sign-in stores a new one). */
export function needsRehash(stored: string, params: ScryptParams = DEFAULT_SCRYPT): boolean {
  const p = parseStored(stored).params;
  return p.N < params.N || p.r < params.r || p.p < params.p;
}

function derive(password: string, salt: Buffer, params: ScryptParams, length: number): Buffer {
  // Node refuses to use more than maxmem; scrypt needs 128·N·r bytes, so allow twice that.
  return scryptSync(password.normalize('NFC'), salt, length, { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r });
}

function parseStored(stored: string): { params: ScryptParams; salt: Buffer; hash: Buffer } {
  const parts = typeof stored === 'string' ? stored.split('$') : [];
  const [scheme, n, r, p, salt, hash] = parts;
  const N = Number(n);
  const R = Number(r);
  const P = Number(p);
  const ok =
    parts.length === 6 &&
    scheme === 'scrypt' &&
    Number.isInteger(N) &&
    N >= 2 &&
    N <= MAX_N &&
    (N & (N - 1)) === 0 &&
    Number.isInteger(R) &&
    R >= 1 &&
    R <= MAX_R &&
    Number.isInteger(P) &&
    P >= 1 &&
    P <= MAX_P &&
    /^[A-Za-z0-9_-]{16,}$/.test(salt ?? '') &&
    /^[A-Za-z0-9_-]{22,}$/.test(hash ?? '');
  if (!ok)
    throw new AppError(
      'internal',
      'A stored password hash is not in the scrypt$N$r$p$salt$hash form Forge writes; a desk admin must set a new password for this user.',
    );
  return { params: { N, r: R, p: P }, salt: Buffer.from(salt as string, 'base64url'), hash: Buffer.from(hash as string, 'base64url') };
}
