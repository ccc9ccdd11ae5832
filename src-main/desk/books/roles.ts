import { ForbiddenError } from '../../common/errors';
import type { PostgresConnection } from '../../store/postgres/connection';
import { type Acting, type DeskAction, type DeskRole, requirePermission } from '../people';

/**
 * The person acting, read from desk_users, checked against the desk's one permission table
 * (people/permissions.ts): a refusal is a ForbiddenError naming who may do it instead. An unknown
 * user is refused like a disabled one: nothing in the books is done for someone the desk does not know.
 */
export function requireDeskPermission(connection: PostgresConnection, actor: string, action: DeskAction, context: { ownerId?: string } = {}): Acting {
  const row = connection.one<{ user_id: string; display_name: string; role: DeskRole; admin: boolean; disabled_at: string | null }>(
    'SELECT user_id, display_name, role, admin, disabled_at FROM desk_users WHERE user_id = $1',
    [actor],
  );
  if (!row) throw new ForbiddenError(`"${actor.slice(0, 40)}" is not a user of this desk; nothing was done.`);
  const user: Acting = { userId: row.user_id, displayName: row.display_name, role: row.role, admin: row.admin, disabledAt: row.disabled_at };
  requirePermission(user, action, context);
  return user;
}
