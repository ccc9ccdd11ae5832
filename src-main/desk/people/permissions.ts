import { ForbiddenError } from '../../common/errors';

/**
 * What each person on a desk may do: one table of desk actions × roles, read by `may` and
 * `require`. Every server check goes through here, so the table is the whole policy (row-level
 * security in PostgreSQL backs it up for the rows themselves).
 *
 * Decisions:
 * - 'own' means only a thing the person owns: the check must name the owner (`ownerId`); a check
 *   that forgets to is refused, never waved through.
 * - Risk does not write Views, propose or approve: the person who sets the limits is not the one
 *   who trades against them (separation of duties).
 * - Administering users is the `admin` flag, whatever the role (the desk admin is often a PM).
 * - A disabled person may do nothing, whatever the table says.
 */

export const DESK_ROLES = ['pm', 'risk', 'analyst', 'viewer'] as const;
export type DeskRole = (typeof DESK_ROLES)[number];

/** A person on the desk, as the server knows them after authentication. */
export interface DeskUser {
  userId: string;
  displayName: string;
  role: DeskRole;
  admin: boolean;
  createdAt: string;
  createdBy: string | null;
  /** When an admin disabled them (the database's text), or null. */
  disabledAt: string | null;
}

const ROLE_LABEL: Record<DeskRole, string> = { pm: 'a PM', risk: 'a risk manager', analyst: 'an analyst', viewer: 'a viewer' };

type Grant = 'yes' | 'own' | 'no';

interface ActionRule {
  /** What the action is, in a sentence's words ("approve an Expression"). */
  what: string;
  /** Who may, for the refusal message ("only a PM, and only their own Expressions"). */
  who: string;
  roles: Record<DeskRole, Grant>;
  /** The admin flag grants it, whatever the role. */
  admin?: true;
}

export const DESK_ACTIONS = {
  'research.read': {
    what: 'read research',
    who: 'every person on the desk',
    roles: { pm: 'yes', risk: 'yes', analyst: 'yes', viewer: 'yes' },
  },
  'research.write': {
    what: 'write research notes',
    who: 'PMs, analysts and risk, each their own notes',
    roles: { pm: 'own', risk: 'own', analyst: 'own', viewer: 'no' },
  },
  'views.write': {
    what: 'write a View',
    who: 'PMs and analysts, each their own Views',
    roles: { pm: 'own', risk: 'no', analyst: 'own', viewer: 'no' },
  },
  'expressions.propose': {
    what: 'propose an Expression',
    who: 'PMs and analysts',
    roles: { pm: 'yes', risk: 'no', analyst: 'yes', viewer: 'no' },
  },
  'expressions.approve': {
    what: 'approve an Expression',
    who: 'only a PM, and only the Expressions in their own book',
    roles: { pm: 'own', risk: 'no', analyst: 'no', viewer: 'no' },
  },
  'books.read_own': {
    what: 'read a book',
    who: 'the PM whose book it is, and risk',
    roles: { pm: 'own', risk: 'yes', analyst: 'no', viewer: 'no' },
  },
  'books.read_all': {
    what: 'read every book',
    who: 'risk',
    roles: { pm: 'no', risk: 'yes', analyst: 'no', viewer: 'no' },
  },
  'limits.set': {
    what: 'set limits',
    who: 'risk',
    roles: { pm: 'no', risk: 'yes', analyst: 'no', viewer: 'no' },
  },
  'pm.halt': {
    what: 'halt a PM',
    who: 'risk',
    roles: { pm: 'no', risk: 'yes', analyst: 'no', viewer: 'no' },
  },
  'users.administer': {
    what: 'administer users',
    who: 'a desk admin',
    roles: { pm: 'no', risk: 'no', analyst: 'no', viewer: 'no' },
    admin: true,
  },
} as const satisfies Record<string, ActionRule>;

export type DeskAction = keyof typeof DESK_ACTIONS;

/** The person as far as a check needs them. */
export type Acting = Pick<DeskUser, 'userId' | 'role' | 'admin' | 'disabledAt'> & Partial<Pick<DeskUser, 'displayName'>>;

/** Whether `user` may do `action` (on a thing owned by `ownerId`, for the 'own' rules). */
export function may(user: Acting, action: DeskAction, context: { ownerId?: string } = {}): boolean {
  return refusal(user, action, context) === undefined;
}

/** Throws ForbiddenError, naming who may do it instead, unless `user` may do `action`. */
export function requirePermission(user: Acting, action: DeskAction, context: { ownerId?: string } = {}): void {
  const reason = refusal(user, action, context);
  if (reason !== undefined) throw new ForbiddenError(reason);
}

function refusal(user: Acting, action: DeskAction, context: { ownerId?: string }): string | undefined {
  const rule: ActionRule | undefined = (DESK_ACTIONS as Record<string, ActionRule>)[action];
  const name = user.displayName ? `${user.displayName} (${user.userId})` : user.userId;
  if (!rule) return `"${String(action)}" is not a desk action; nothing was done.`;
  if (user.disabledAt !== null) return `${name} was disabled on this desk and may do nothing; a desk admin can tell you why.`;
  if (rule.admin && user.admin) return undefined;
  const grant: Grant = (DESK_ROLES as readonly string[]).includes(user.role) ? rule.roles[user.role] : 'no';
  if (grant === 'yes') return undefined;
  if (grant === 'own') {
    if (context.ownerId !== undefined && context.ownerId === user.userId) return undefined;
    const whose = context.ownerId === undefined ? 'without naming its owner' : `owned by ${context.ownerId}`;
    return `${name} may not ${rule.what} ${whose}: that is for ${rule.who}.`;
  }
  if (rule.admin) return `${name} is not a desk admin and may not ${rule.what}: that is for ${rule.who}. Ask a desk admin.`;
  const as = ROLE_LABEL[user.role] ?? 'without a known role';
  return `${name} is ${as} and may not ${rule.what}: that is for ${rule.who}. Ask one of them, or a desk admin to change your role.`;
}
