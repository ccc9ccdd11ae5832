import { describe, expect, it } from 'vitest';
import { type ProcedureName, procedureNames } from '../api/procedures';
import { DESK_ROLES, type DeskRole, type DeskUser } from '../desk/people';
import { DESK_CALLS, mayCall, ruleOf } from './desk-calls';

const person = (role: DeskRole, admin = false): DeskUser => ({
  userId: `${role}${admin ? '-admin' : ''}`,
  displayName: role,
  role,
  admin,
  createdAt: '2026-11-01',
  createdBy: null,
  disabledAt: null,
});

/** An input that names a path in each area memory/write can write to. */
const inputsFor = (name: ProcedureName): Record<string, unknown>[] =>
  name === 'memory/write' ? [{ path: '/memory/views/new.md' }, { path: '/memory/expressions/new.md' }, { path: '/memory/observations/new.md' }] : [{}];

const allowed = (user: DeskUser, name: ProcedureName, input: Record<string, unknown>) => {
  try {
    mayCall(user, name, input);
    return true;
  } catch {
    return false;
  }
};

/**
 * Every procedure × every role, through the one table the desk's dispatcher reads. If this failed,
 * a viewer could write, risk could propose the trades it sets limits for, an analyst could approve,
 * or a procedure added later would be open to everyone on a desk by default.
 */
describe('the desk call table, every procedure as every role', () => {
  it('lets a viewer call only reads; analysts never approve; risk never writes a View or proposes; only an admin changes the server', () => {
    const wrong: string[] = [];
    for (const name of procedureNames) {
      const rule = ruleOf(name);
      for (const input of inputsFor(name)) {
        const path = typeof input.path === 'string' ? ` ${input.path}` : '';
        for (const role of DESK_ROLES) {
          const may = allowed(person(role), name, input);
          const reads = rule === 'open' || rule === 'read';
          if (role === 'viewer' && may !== reads) wrong.push(`viewer ${may ? 'may' : 'may not'} call ${name}${path}`);
          if (rule === 'admin' && may) wrong.push(`${role} (not an admin) may call ${name}`);
          if (rule === 'admin' && !allowed(person(role, true), name, input)) wrong.push(`a desk admin who is ${role} may not call ${name}`);
          const approves = rule === 'expressions.approve';
          if (approves && may !== (role === 'pm')) wrong.push(`${role} ${may ? 'may' : 'may not'} approve through ${name}`);
          const proposesOrViews = /views\/|expressions\//.test(path) || rule === 'expressions.propose';
          if (role === 'risk' && proposesOrViews && may) wrong.push(`risk may call ${name}${path}`);
          if (role === 'analyst' && proposesOrViews && !may) wrong.push(`analyst may not call ${name}${path}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('refuses to anyone but a desk admin a procedure the table does not name (fail closed)', () => {
    const unnamed = 'area/not-in-the-table' as ProcedureName;
    expect(DESK_CALLS[unnamed]).toBeUndefined();
    expect(ruleOf(unnamed)).toBe('admin');
    expect(allowed(person('pm'), unnamed, {})).toBe(false);
    expect(allowed(person('pm', true), unnamed, {})).toBe(true);
  });

  it('keeps the calls open before sign-in to what the sign-in page needs', () => {
    expect(procedureNames.filter((n) => ruleOf(n) === 'open').sort()).toEqual(['app/health', 'app/info', 'desk/sign-in', 'desk/sign-out', 'desk/status']);
  });

  it('lets nobody disabled call anything but the open calls', () => {
    const gone = { ...person('pm', true), disabledAt: '2026-11-02' };
    expect(procedureNames.filter((n) => ruleOf(n) !== 'open' && allowed(gone, n, { path: '/memory/views/new.md' }))).toEqual([]);
  });
});
