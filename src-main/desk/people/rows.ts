import { createHash } from 'node:crypto';
import { InvalidInputError } from '../../common/errors';
import { checkPasswordPolicy } from './password';
import { DESK_ROLES, type DeskRole, type DeskUser } from './permissions';

/** The shapes DeskPeople reads and writes, and the checks on what callers hand it. */

export interface NewUser {
  userId: string;
  displayName: string;
  role: DeskRole;
  admin?: boolean;
  password: string;
}

export interface TokenInfo {
  tokenId: number;
  kind: 'session' | 'api';
  label: string | null;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export interface UserRow {
  user_id: string;
  display_name: string;
  role: DeskRole;
  admin: boolean;
  created_at: string;
  created_by: string | null;
  disabled_at: string | null;
}

export type CheckedUser = Omit<NewUser, 'admin'>;

export const USER_ID = /^[a-z][a-z0-9._-]{1,39}$/;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function tokenHash(token: unknown): Buffer | undefined {
  if (typeof token !== 'string' || !TOKEN.test(token)) return undefined;
  return createHash('sha256').update(token).digest();
}

export function toUser(row: UserRow): DeskUser {
  return {
    userId: row.user_id,
    displayName: row.display_name,
    role: row.role,
    admin: row.admin,
    createdAt: row.created_at,
    createdBy: row.created_by,
    disabledAt: row.disabled_at,
  };
}

export function checkNewUser(input: NewUser): CheckedUser {
  const issues: { path: string[]; message: string }[] = [];
  if (typeof input?.userId !== 'string' || !USER_ID.test(input.userId)) {
    issues.push({ path: ['userId'], message: '2-40 characters: a lowercase letter, then lowercase letters, digits, ".", "_" or "-"' });
  }
  const name = typeof input?.displayName === 'string' ? input.displayName.trim() : '';
  if (name.length < 1 || name.length > 120) issues.push({ path: ['displayName'], message: '1-120 characters' });
  if (!DESK_ROLES.includes(input?.role)) issues.push({ path: ['role'], message: `one of ${DESK_ROLES.join(', ')}` });
  if (issues.length > 0)
    throw new InvalidInputError(`The new user is not valid: ${issues.map((i) => `${i.path[0]} must be ${i.message}`).join('; ')}.`, issues);
  checkPasswordPolicy(input.password);
  return { userId: input.userId, displayName: name, role: input.role, password: input.password };
}
