import { ForbiddenError } from '../../common/errors';
import type { PostgresConnection } from '../../store/postgres/connection';

export type DeskRole = 'pm' | 'risk' | 'analyst' | 'viewer';

/**
 * The books' own minimal permission check: the actor exists, is not disabled and holds one of
 * `allowed`. Kept in this one function so the desk's full permission table (another part of the
 * desk) can replace it in one place. Refusals are ForbiddenError naming who may do it instead.
 */
export function requireRole(connection: PostgresConnection, actor: string, allowed: readonly DeskRole[], doing: string): DeskRole {
  const user = connection.one<{ role: DeskRole; disabled_at: string | null }>('SELECT role, disabled_at FROM desk_users WHERE user_id = $1', [actor]);
  if (!user) throw new ForbiddenError(`"${actor.slice(0, 40)}" is not a user of this desk; only ${names(allowed)} may ${doing}.`);
  if (user.disabled_at) throw new ForbiddenError(`${actor} was disabled on ${user.disabled_at}; a disabled user cannot ${doing}.`);
  if (!allowed.includes(user.role)) throw new ForbiddenError(`${actor} is ${article(user.role)} on this desk; only ${names(allowed)} may ${doing}.`);
  return user.role;
}

const LABEL: Record<DeskRole, string> = { pm: 'PM', risk: 'risk manager', analyst: 'analyst', viewer: 'viewer' };
const names = (roles: readonly DeskRole[]) => roles.map((r) => `a ${LABEL[r]}`).join(' or ');
const article = (role: DeskRole) => `${/^[aeiou]/i.test(LABEL[role]) ? 'an' : 'a'} ${LABEL[role]}`;
