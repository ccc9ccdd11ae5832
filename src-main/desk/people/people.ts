import { randomBytes } from 'node:crypto';
import { ConflictError, InvalidInputError, NotFoundError } from '../../common/errors';
import type { PostgresConnection } from '../../store/postgres/connection';
import { actingAs, bindSetting } from './acting-as';
import { SIGN_IN_REFUSED, TOKEN_REFUSED, UnauthorizedError } from './errors';
import { DEFAULT_SCRYPT, hashPassword, needsRehash, rehashPassword, type ScryptParams, verifyPassword } from './password';
import { DESK_ROLES, type DeskRole, type DeskUser, requirePermission } from './permissions';
import { type CheckedUser, checkNewUser, type NewUser, type TokenInfo, tokenHash, toUser, USER_ID, type UserRow } from './rows';

/** Wrong passwords in a row before an account is locked, and for how long. */
export const MAX_FAILED_SIGN_INS = 10;
export const LOCK_MINUTES = 15;

/**
 * The people on a desk: who they are, how they sign in, and their tokens. Synchronous like the
 * rest of Forge's store; every change runs in one transaction bound to the person doing it
 * (actingAs, so row-level security applies) and writes an audit_log row naming them.
 *
 * `actor` is always a user id, read again inside the transaction: a person disabled or demoted a
 * moment ago is refused now, not at their next sign-in.
 */
/** A live session's person, as authentication reads it. */
type SessionRow = UserRow & { token_id: number; stale: boolean };

export class DeskPeople {
  private readonly sessionHours: number;
  private readonly scrypt: ScryptParams;
  // Checked against when the user id is unknown, so a wrong id costs the same time as a wrong password.
  private readonly decoyHash: string;

  constructor(
    private readonly db: PostgresConnection,
    options: { sessionHours?: number; scrypt?: ScryptParams } = {},
  ) {
    this.sessionHours = options.sessionHours ?? 12;
    this.scrypt = options.scrypt ?? DEFAULT_SCRYPT;
    this.decoyHash = hashPassword(randomBytes(24).toString('base64url'), this.scrypt);
  }

  /** The first person on an empty desk, an admin; refused once the desk has anyone. */
  createFirstAdmin(input: NewUser): DeskUser {
    const user = checkNewUser(input);
    const hash = hashPassword(user.password, this.scrypt);
    return actingAs(
      this.db,
      user.userId,
      () => {
        const count = this.db.one<{ n: number }>('SELECT count(*)::int AS n FROM desk_users')?.n ?? 0;
        if (count > 0) throw new ConflictError('This desk already has users: a desk admin creates the next ones.');
        this.insertUser(user, true, null, hash);
        this.audit(user.userId, 'desk.user.create_first_admin', `/desk/users/${user.userId}`);
        return this.mustGet(user.userId);
      },
      { isolation: 'serializable' },
    );
  }

  /** A new person on the desk, created by an admin. */
  createUser(actor: string, input: NewUser): DeskUser {
    const user = checkNewUser(input);
    const hash = hashPassword(user.password, this.scrypt);
    return actingAs(this.db, actor, () => {
      requirePermission(this.actor(actor), 'users.administer');
      if (this.getUser(user.userId))
        throw new ConflictError(`A user "${user.userId}" already exists on this desk (user ids are never reused); choose another id.`);
      this.insertUser(user, input.admin === true, actor, hash);
      this.audit(actor, 'desk.user.create', `/desk/users/${user.userId}`);
      return this.mustGet(user.userId);
    });
  }

  /**
   * A session token for 12 hours. Wrong id, wrong password and a locked account are the same
   * error (and cost the same time), so a caller learns nothing about which ids exist; after
   * MAX_FAILED_SIGN_INS wrong passwords in a row the account is locked for LOCK_MINUTES.
   */
  signIn(userId: string, password: string): { token: string; tokenId: number; expiresAt: string; user: DeskUser } {
    const id = typeof userId === 'string' && USER_ID.test(userId) ? userId : undefined;
    const given = typeof password === 'string' ? password : '';
    const stored = id
      ? actingAs(this.db, id, () =>
          this.db.one<{ password_hash: string; locked: boolean }>(
            'SELECT password_hash, coalesce(locked_until > now(), false) AS locked FROM desk_credentials WHERE user_id = $1',
            [id],
          ),
        )
      : undefined;
    // Same work whether or not the user exists or is locked: the decoy is checked instead.
    const usable = stored && !stored.locked ? stored.password_hash : undefined;
    const right = verifyPassword(given, usable ?? this.decoyHash) && usable !== undefined;
    if (!right || !id) {
      if (id && usable) this.countFailure(id);
      throw new UnauthorizedError(SIGN_IN_REFUSED);
    }
    return actingAs(this.db, id, () => {
      // FOR SHARE waits for a disableUser in flight, so no session is made for someone just disabled.
      const row = this.db.one<{ disabled_at: string | null }>('SELECT disabled_at FROM desk_users WHERE user_id = $1 FOR SHARE', [id]);
      if (!row || row.disabled_at !== null) throw new UnauthorizedError(`This account was disabled on this desk; ask a desk admin. ${SIGN_IN_REFUSED}`);
      const rehash = needsRehash(usable as string, this.scrypt) ? rehashPassword(given, this.scrypt) : null;
      this.db.run('UPDATE desk_credentials SET failed_sign_ins = 0, password_hash = coalesce($2, password_hash) WHERE user_id = $1', [id, rehash]);
      const issued = this.insertToken(id, 'session', null, `${this.sessionHours} hours`);
      this.audit(id, 'desk.sign_in', `/desk/users/${id}/tokens/${issued.tokenId}`);
      return { ...issued, user: this.mustGet(id) };
    });
  }

  /**
   * Sets a new password: one's own (giving the current one), or anyone's (an admin, e.g. a
   * forgotten password). Every session of that person ends (API tokens stay) and a lock is lifted.
   */
  changePassword(actor: string, userId: string, newPassword: string, currentPassword?: string): void {
    const hash = hashPassword(newPassword, this.scrypt);
    actingAs(this.db, actor, () => {
      const me = this.actor(actor);
      if (actor === userId) {
        // Even an admin gives their current password: a session left open must not be enough.
        requirePermission(me, 'research.read'); // any active person; a disabled one changes nothing
        const stored = this.db.one<{ password_hash: string }>('SELECT password_hash FROM desk_credentials WHERE user_id = $1', [userId]);
        if (!stored || !verifyPassword(currentPassword ?? '', stored.password_hash)) {
          throw new UnauthorizedError('The current password is wrong; the password was not changed.');
        }
      } else {
        requirePermission(me, 'users.administer');
      }
      const { rowCount } = this.db.run(
        'UPDATE desk_credentials SET password_hash = $2, changed_at = now(), failed_sign_ins = 0, locked_until = NULL WHERE user_id = $1',
        [userId, hash],
      );
      if (rowCount === 0) throw new NotFoundError(`There is no user "${userId}" on this desk.`);
      this.db.run("UPDATE desk_tokens SET revoked_at = now() WHERE user_id = $1 AND kind = 'session' AND revoked_at IS NULL", [userId]);
      this.audit(actor, 'desk.user.set_password', `/desk/users/${userId}`);
    });
  }

  private countFailure(userId: string): void {
    actingAs(this.db, userId, () =>
      this.db.run(
        `UPDATE desk_credentials
            SET failed_sign_ins = CASE WHEN failed_sign_ins + 1 >= $2 THEN 0 ELSE failed_sign_ins + 1 END,
                locked_until = CASE WHEN failed_sign_ins + 1 >= $2 THEN now() + make_interval(mins => $3) ELSE locked_until END
          WHERE user_id = $1`,
        [userId, MAX_FAILED_SIGN_INS, LOCK_MINUTES],
      ),
    );
  }

  /**
   * The person a token belongs to, if it is neither unknown, expired, revoked nor theirs a
   * disabled person's. Marks it used, at most once a minute (not a write per request).
   */
  authenticate(token: string): DeskUser {
    const hash = tokenHash(token);
    if (!hash) throw new UnauthorizedError(TOKEN_REFUSED);
    // Every call on a desk comes through here: one statement where the desk has the function for it
    // (desk_session_person, people/schema.ts), else the same check as a transaction of four.
    const row = this.hasSessionFunction()
      ? // Under whatever binding the connection holds: the hash finds the same row for anyone (schema.ts).
        this.db.underCurrentSettings(() => this.db.one<SessionRow>('SELECT * FROM desk_session_person($1)', [hash]))
      : this.db.transaction(() => {
          bindSetting(this.db, 'forge.token_hash', hash.toString('hex'));
          return this.db.one<SessionRow>(
            `SELECT u.*, t.token_id, (t.last_used_at IS NULL OR t.last_used_at < now() - interval '1 minute') AS stale
               FROM desk_tokens t JOIN desk_users u USING (user_id)
              WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > now() AND u.disabled_at IS NULL`,
            [hash],
          );
        });
    if (!row) throw new UnauthorizedError(TOKEN_REFUSED);
    // "Last used" moves at most once a minute per token: not a write on every call.
    if (row.stale) {
      this.db.transaction(() => {
        bindSetting(this.db, 'forge.user_id', row.user_id);
        this.db.run(
          `UPDATE desk_tokens SET last_used_at = now()
            WHERE token_id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
          [row.token_id],
        );
      });
    }
    return toUser(row);
  }

  private sessionFunction: boolean | undefined;

  /** Whether this desk's schema has desk_session_person (desks made before it do not). */
  private hasSessionFunction(): boolean {
    this.sessionFunction ??= !!this.db.one<{ f: string | null }>("SELECT to_regprocedure('desk_session_person(bytea)')::text AS f")?.f;
    return this.sessionFunction;
  }

  /** Ends the session of `token` (no error when it already ended: signing out twice is harmless). */
  signOut(token: string): void {
    const hash = tokenHash(token);
    if (!hash) return;
    this.db.transaction(() => {
      bindSetting(this.db, 'forge.token_hash', hash.toString('hex'));
      const row = this.db.one<{ token_id: number; user_id: string }>('SELECT token_id, user_id FROM desk_tokens WHERE token_hash = $1 AND revoked_at IS NULL', [
        hash,
      ]);
      if (!row) return;
      bindSetting(this.db, 'forge.user_id', row.user_id);
      this.db.run('UPDATE desk_tokens SET revoked_at = now() WHERE token_id = $1', [row.token_id]);
      this.audit(row.user_id, 'desk.sign_out', `/desk/users/${row.user_id}/tokens/${row.token_id}`);
    });
  }

  /** A long-lived token for scripts and IDEs (the governance MCP server), shown once. */
  issueApiToken(actor: string, label: string, options: { expiresInDays?: number } = {}): { token: string; tokenId: number; expiresAt: string } {
    if (typeof label !== 'string' || label.trim().length === 0 || label.length > 120) {
      throw new InvalidInputError('An API token needs a label of 1-120 characters saying where it is used (e.g. "laptop IDE").', [
        { path: ['label'], message: '1-120 characters' },
      ]);
    }
    const days = options.expiresInDays ?? 90;
    if (!Number.isInteger(days) || days < 1 || days > 366) {
      throw new InvalidInputError('An API token lasts 1 to 366 days.', [{ path: ['expiresInDays'], message: 'a whole number from 1 to 366' }]);
    }
    return actingAs(this.db, actor, () => {
      const me = this.actor(actor);
      requirePermission(me, 'research.read'); // anyone active on the desk; a disabled person gets nothing
      const issued = this.insertToken(actor, 'api', label.trim(), `${days} days`);
      this.audit(actor, 'desk.token.issue', `/desk/users/${actor}/tokens/${issued.tokenId}`);
      return issued;
    });
  }

  /** Revokes a token: one's own, or (an admin) anyone's. Someone else's is "not found", as if it did not exist. */
  revokeToken(actor: string, tokenId: number): void {
    if (!Number.isSafeInteger(tokenId) || tokenId < 1) throw new NotFoundError(`There is no token #${String(tokenId).slice(0, 20)} among yours.`);
    actingAs(this.db, actor, () => {
      const me = this.actor(actor);
      const row = this.db.one<{ user_id: string; revoked_at: string | null }>('SELECT user_id, revoked_at FROM desk_tokens WHERE token_id = $1', [tokenId]);
      const adminHere = me.admin && me.disabledAt === null;
      if (!row || (row.user_id !== actor && !adminHere)) {
        throw new NotFoundError(`There is no token #${tokenId} among yours; a desk admin can revoke anyone's.`);
      }
      if (row.user_id === actor) requirePermission(me, 'research.read'); // a disabled person changes nothing
      if (row.revoked_at !== null) return;
      this.db.run('UPDATE desk_tokens SET revoked_at = now() WHERE token_id = $1', [tokenId]);
      this.audit(actor, 'desk.token.revoke', `/desk/users/${row.user_id}/tokens/${tokenId}`);
    });
  }

  /** One's own tokens (never the tokens themselves, which are not kept), newest first. */
  listTokens(actor: string): TokenInfo[] {
    return actingAs(this.db, actor, () =>
      this.db.query<TokenInfo>(
        `SELECT token_id AS "tokenId", kind, label, created_at AS "createdAt", expires_at AS "expiresAt",
                revoked_at AS "revokedAt", last_used_at AS "lastUsedAt"
           FROM desk_tokens WHERE user_id = $1 ORDER BY token_id DESC`,
        [actor],
      ),
    );
  }

  /** Changes someone's role (an admin); their open sessions carry the new role at once. */
  setRole(actor: string, userId: string, role: DeskRole): DeskUser {
    if (!DESK_ROLES.includes(role)) throw new InvalidInputError(`A role is one of ${DESK_ROLES.join(', ')}.`, [{ path: ['role'], message: 'unknown role' }]);
    return actingAs(this.db, actor, () => {
      requirePermission(this.actor(actor), 'users.administer');
      const { rowCount } = this.db.run('UPDATE desk_users SET role = $2 WHERE user_id = $1', [userId, role]);
      if (rowCount === 0) throw new NotFoundError(`There is no user "${userId}" on this desk.`);
      if (role === 'pm') this.ensureBook(userId);
      this.audit(actor, `desk.user.set_role:${role}`, `/desk/users/${userId}`);
      return this.mustGet(userId);
    });
  }

  /** Disables someone (an admin) and revokes all their tokens in the same transaction. */
  disableUser(actor: string, userId: string): DeskUser {
    return actingAs(
      this.db,
      actor,
      () => {
        requirePermission(this.actor(actor), 'users.administer');
        const target = this.getUser(userId);
        if (!target) throw new NotFoundError(`There is no user "${userId}" on this desk.`);
        if (target.disabledAt !== null) return target;
        if (target.admin) {
          const admins = this.db.one<{ n: number }>('SELECT count(*)::int AS n FROM desk_users WHERE admin AND disabled_at IS NULL')?.n ?? 0;
          if (admins <= 1)
            throw new ConflictError(`${userId} is the desk's last active admin; make someone else an admin first, or nobody could manage users.`);
        }
        this.db.run('UPDATE desk_users SET disabled_at = now() WHERE user_id = $1', [userId]);
        this.db.run('UPDATE desk_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [userId]);
        this.audit(actor, 'desk.user.disable', `/desk/users/${userId}`);
        return this.mustGet(userId);
      },
      // Two admins disabling each other at once must not leave the desk with none.
      { isolation: 'serializable' },
    );
  }

  getUser(userId: string): DeskUser | undefined {
    const row = this.db.one<UserRow>('SELECT * FROM desk_users WHERE user_id = $1', [userId]);
    return row ? toUser(row) : undefined;
  }

  private mustGet(userId: string): DeskUser {
    const user = this.getUser(userId);
    if (!user) throw new NotFoundError(`There is no user "${userId}" on this desk.`);
    return user;
  }

  /** The person acting, as they are now; an unknown id is refused as an invalid sign-in. */
  private actor(userId: string): DeskUser {
    const user = this.getUser(userId);
    if (!user) throw new UnauthorizedError(TOKEN_REFUSED);
    return user;
  }

  private insertUser(user: CheckedUser, admin: boolean, createdBy: string | null, hash: string): void {
    this.db.run('INSERT INTO desk_users (user_id, display_name, role, admin, created_by) VALUES ($1, $2, $3, $4, $5)', [
      user.userId,
      user.displayName,
      user.role,
      admin,
      createdBy,
    ]);
    this.db.run('INSERT INTO desk_credentials (user_id, password_hash) VALUES ($1, $2)', [user.userId, hash]);
    if (user.role === 'pm') this.ensureBook(user.userId);
  }

  /** Every PM has a book (named after them) for risk to put limits on; kept if they change role. */
  private ensureBook(pmId: string): void {
    this.db.run("INSERT INTO desk_books (book_id, kind, owner_id) VALUES ($1, 'pm', $1) ON CONFLICT DO NOTHING", [pmId]);
  }

  private insertToken(userId: string, kind: 'session' | 'api', label: string | null, lifetime: string): { token: string; tokenId: number; expiresAt: string } {
    const token = randomBytes(32).toString('base64url');
    const row = this.db.one<{ token_id: number; expires_at: string }>(
      `INSERT INTO desk_tokens (token_hash, user_id, kind, label, expires_at) VALUES ($1, $2, $3, $4, now() + $5::interval)
       RETURNING token_id, expires_at`,
      [tokenHash(token), userId, kind, label, lifetime],
    );
    if (!row) throw new Error('INSERT … RETURNING returned no row');
    return { token, tokenId: row.token_id, expiresAt: row.expires_at };
  }

  private audit(actor: string, operation: string, path: string): void {
    this.db.run('INSERT INTO audit_log (at, actor, operation, path) VALUES ($1, $2, $3, $4)', [new Date().toISOString(), actor, operation, path]);
  }
}
