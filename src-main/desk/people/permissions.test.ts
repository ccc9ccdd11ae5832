import { describe, expect, it } from 'vitest';
import { isAppError } from '../../common/errors';
import { type Acting, DESK_ACTIONS, DESK_ROLES, type DeskAction, type DeskRole, may, requirePermission } from './permissions';

/**
 * The desk's policy written out by hand, independently of the table in permissions.ts: Y may,
 * O only their own, - never. If the table drifts from what a COO signed off, this fails.
 */
const EXPECTED: Record<DeskAction, Record<DeskRole, 'Y' | 'O' | '-'>> = {
  'research.read': { pm: 'Y', risk: 'Y', analyst: 'Y', viewer: 'Y' },
  'research.write': { pm: 'O', risk: 'O', analyst: 'O', viewer: '-' },
  'views.write': { pm: 'O', risk: '-', analyst: 'O', viewer: '-' },
  'expressions.propose': { pm: 'Y', risk: '-', analyst: 'Y', viewer: '-' },
  'expressions.approve': { pm: 'O', risk: '-', analyst: '-', viewer: '-' },
  'books.read_own': { pm: 'O', risk: 'Y', analyst: '-', viewer: '-' },
  'books.read_all': { pm: '-', risk: 'Y', analyst: '-', viewer: '-' },
  'limits.set': { pm: '-', risk: 'Y', analyst: '-', viewer: '-' },
  'pm.halt': { pm: '-', risk: 'Y', analyst: '-', viewer: '-' },
  'users.administer': { pm: '-', risk: '-', analyst: '-', viewer: '-' },
};

const person = (role: DeskRole, extra: Partial<Acting> = {}): Acting => ({ userId: `${role}1`, role, admin: false, disabledAt: null, ...extra });

function refusal(fn: () => void): string | undefined {
  try {
    fn();
    return undefined;
  } catch (e) {
    expect(isAppError(e) && e.code).toBe('forbidden');
    return (e as Error).message;
  }
}

describe('desk permissions: every action × every role', () => {
  it('covers exactly the actions the desk has', () => {
    // If this failed, an action was added to the table without anyone deciding who may do it here.
    expect(Object.keys(DESK_ACTIONS).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const action of Object.keys(EXPECTED) as DeskAction[]) {
    for (const role of DESK_ROLES) {
      const expected = EXPECTED[action][role];
      it(`${role} → ${action}: ${expected === 'Y' ? 'allowed' : expected === 'O' ? 'own only' : 'refused'}`, () => {
        // If this failed, a role could do what the desk forbids it (or be stopped doing its job).
        const user = person(role);
        const own = { ownerId: user.userId };
        const others = { ownerId: 'someone.else' };
        expect(may(user, action, own)).toBe(expected !== '-');
        expect(may(user, action, others)).toBe(expected === 'Y');
        if (expected === '-') expect(refusal(() => requirePermission(user, action, own))).toMatch(/may not .*: that is for /);
        if (expected !== 'Y') expect(refusal(() => requirePermission(user, action, others))).toBeDefined();
        else expect(refusal(() => requirePermission(user, action, others))).toBeUndefined();
        // The same person made admin gains administering users and nothing else.
        const admin = person(role, { admin: true });
        expect(may(admin, action, others)).toBe(expected === 'Y' || action === 'users.administer');
        // Disabled: nothing at all, whatever the role or the admin flag.
        expect(may(person(role, { admin: true, disabledAt: '2026-11-28 09:00:00+00' }), action, own)).toBe(false);
      });
    }
  }

  it('an analyst proposes but never approves; a PM approves only their own Expressions', () => {
    // If this failed, an analyst or another PM could put a trade on a PM's book.
    const analyst = person('analyst');
    expect(may(analyst, 'expressions.propose')).toBe(true);
    expect(refusal(() => requirePermission(analyst, 'expressions.approve', { ownerId: analyst.userId }))).toMatch(
      /analyst1 is an analyst and may not approve an Expression: that is for only a PM, and only the Expressions in their own book/,
    );
    const pm = person('pm');
    expect(may(pm, 'expressions.approve', { ownerId: 'pm1' })).toBe(true);
    expect(refusal(() => requirePermission(pm, 'expressions.approve', { ownerId: 'pm2' }))).toMatch(/may not approve an Expression owned by pm2/);
  });

  it('an "own" check that forgets to name the owner is refused, not waved through', () => {
    // If this failed, a handler that forgot ownerId would let any PM approve any Expression.
    expect(may(person('pm'), 'expressions.approve')).toBe(false);
    expect(refusal(() => requirePermission(person('pm'), 'expressions.approve'))).toMatch(/without naming its owner/);
  });

  it('a disabled person is told so, and an unknown action is refused', () => {
    // If this failed, a disabled user would get a confusing role message, or a typo would grant everything.
    const gone = { ...person('risk', { displayName: 'Rita Risk' }), disabledAt: '2026-11-28 09:00:00+00' };
    expect(refusal(() => requirePermission(gone, 'research.read'))).toMatch(/Rita Risk \(risk1\) was disabled/);
    expect(may(person('risk'), 'limits.sett' as DeskAction)).toBe(false);
  });
});
