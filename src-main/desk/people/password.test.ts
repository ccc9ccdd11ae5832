import { describe, expect, it } from 'vitest';
import { isAppError } from '../../common/errors';
import { DEFAULT_SCRYPT, hashPassword, needsRehash, verifyPassword } from './password';

describe('desk passwords (scrypt)', { timeout: 60_000 }, () => {
  const password = 'correct horse battery staple';

  it('stores a self-describing scrypt hash with the 2026 parameters, never the password', () => {
    // If this failed, a stolen backup would hand over passwords, or hashes too cheap to resist cracking.
    const stored = hashPassword(password);
    const [scheme, n, r, p, salt, hash] = stored.split('$');
    expect(scheme).toBe('scrypt');
    expect(Number(n)).toBeGreaterThanOrEqual(2 ** 15);
    expect([Number(r), Number(p)]).toEqual([DEFAULT_SCRYPT.r, DEFAULT_SCRYPT.p]);
    expect(Buffer.from(salt ?? '', 'base64url').length).toBe(16);
    expect(Buffer.from(hash ?? '', 'base64url').length).toBe(32);
    expect(stored).not.toContain(password);
    expect(stored).not.toContain(Buffer.from(password).toString('base64url'));
    // A fresh salt each time: two people with the same password do not share a hash.
    expect(hashPassword(password)).not.toBe(stored);
  });

  it('accepts the right password and refuses a wrong one', () => {
    // If this failed, a PM could not sign in, or anyone could.
    const stored = hashPassword(password);
    expect(verifyPassword(password, stored)).toBe(true);
    expect(verifyPassword('correct horse battery stapler', stored)).toBe(false);
    expect(verifyPassword('', stored)).toBe(false);
  });

  it('still verifies a hash stored with other parameters, and says it should be upgraded', () => {
    // If this failed, raising the parameters would lock out everyone whose hash predates it.
    const older = hashPassword(password, { N: 2 ** 14, r: 8, p: 1 });
    expect(older.startsWith('scrypt$16384$8$1$')).toBe(true);
    expect(verifyPassword(password, older)).toBe(true);
    expect(verifyPassword('wrong password here', older)).toBe(false);
    expect(needsRehash(older)).toBe(true);
    expect(needsRehash(hashPassword(password))).toBe(false);
  });

  it('refuses a password under 12 characters with a typed error saying how long it must be', () => {
    // If this failed, an admin could give a desk account "hunter2".
    let error: unknown;
    try {
      hashPassword('elevenchars');
    } catch (e) {
      error = e;
    }
    expect(isAppError(error) && error.code).toBe('invalid_input');
    expect((error as Error).message).toMatch(/at least 12 characters \(this one has 11\)/);
    expect(hashPassword('twelve chars').startsWith('scrypt$')).toBe(true);
  });

  it('treats an unreadable or tampered stored hash as a fault, never as a match', () => {
    // If this failed, a damaged row (or one asking for gigabytes of memory) could let anyone in or stall the server.
    for (const bad of ['', 'plain text', 'scrypt$16384$8$1$c2FsdA$aGFzaA', `scrypt$${2 ** 30}$8$1$${'A'.repeat(22)}$${'A'.repeat(43)}`, 'bcrypt$x$y$z$a$b']) {
      expect(() => verifyPassword(password, bad)).toThrow(/scrypt\$N\$r\$p\$salt\$hash/);
    }
  });
});
