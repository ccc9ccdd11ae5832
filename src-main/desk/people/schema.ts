/**
 * Sign-in on a desk: each person's password hash and their tokens (sessions and API tokens).
 *
 * Decisions:
 * - A token is stored only as its SHA-256: someone who reads the table (a backup, a replica, a
 *   DBA) cannot sign in as anyone. 32 random bytes need no salt or slow hash.
 * - Tokens are revoked, never deleted: the row says when and stays for the audit.
 * - Row-level security, forced even for the tables' owner: a transaction bound to one person
 *   (`forge.user_id`, set by actingAs) sees only that person's rows, unless they are an active
 *   desk admin. Sign-in and authentication happen before anyone is known: a transaction that
 *   presents a token's hash (`forge.token_hash`) sees the one row with that hash, which only the
 *   holder of the token can name. These settings are chosen by the server, so RLS guards against
 *   a query that forgets its filter, not against a compromised server; superusers bypass it.
 * - Wrong passwords are counted per person (failed_sign_ins); enough in a row lock sign-in for a
 *   while (locked_until), so a password cannot be guessed at the speed of the server.
 * - desk_acting_user() and desk_acting_admin() are for every desk table's policies.
 */
export const PEOPLE_SCHEMA: readonly string[] = [
  `CREATE FUNCTION desk_acting_user() RETURNS text LANGUAGE sql STABLE AS
    $$ SELECT nullif(current_setting('forge.user_id', true), '') $$`,
  `CREATE FUNCTION desk_acting_admin() RETURNS boolean LANGUAGE sql STABLE AS
    $$ SELECT EXISTS (SELECT 1 FROM desk_users WHERE user_id = desk_acting_user() AND admin AND disabled_at IS NULL) $$`,
  `CREATE FUNCTION desk_presented_token() RETURNS bytea LANGUAGE sql STABLE AS
    $$ SELECT decode(nullif(current_setting('forge.token_hash', true), ''), 'hex') $$`,
  `CREATE TABLE desk_credentials (
    user_id text PRIMARY KEY REFERENCES desk_users (user_id),
    password_hash text NOT NULL CHECK (password_hash LIKE 'scrypt$%'),
    changed_at timestamptz NOT NULL DEFAULT now(),
    failed_sign_ins integer NOT NULL DEFAULT 0 CHECK (failed_sign_ins >= 0),
    locked_until timestamptz
  )`,
  `CREATE TABLE desk_tokens (
    token_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    token_hash bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    user_id text NOT NULL REFERENCES desk_users (user_id),
    kind text NOT NULL CHECK (kind IN ('session', 'api')),
    label text CHECK (length(label) BETWEEN 1 AND 120),
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    revoked_at timestamptz,
    last_used_at timestamptz,
    CHECK (expires_at > created_at)
  )`,
  'CREATE INDEX desk_tokens_by_user ON desk_tokens (user_id) WHERE revoked_at IS NULL',
  'ALTER TABLE desk_credentials ENABLE ROW LEVEL SECURITY',
  'ALTER TABLE desk_credentials FORCE ROW LEVEL SECURITY',
  `CREATE POLICY desk_credentials_own ON desk_credentials
    USING (user_id = desk_acting_user() OR desk_acting_admin())
    WITH CHECK (user_id = desk_acting_user() OR desk_acting_admin())`,
  'ALTER TABLE desk_tokens ENABLE ROW LEVEL SECURITY',
  'ALTER TABLE desk_tokens FORCE ROW LEVEL SECURITY',
  `CREATE POLICY desk_tokens_own ON desk_tokens
    USING (user_id = desk_acting_user() OR desk_acting_admin() OR token_hash = desk_presented_token())
    WITH CHECK (user_id = desk_acting_user() OR desk_acting_admin())`,
  // Every call on a desk authenticates its session: this is that check in one statement (one round
  // trip, not BEGIN, set_config, SELECT, COMMIT). It presents the hash, reads the live session's
  // person under the same policy as above, and takes the presented hash back: statements in a
  // function run in order, which a CTE beside the scan would not guarantee. SECURITY INVOKER:
  // row-level security applies to it as to any query of the server's role.
  `CREATE FUNCTION desk_session_person(presented bytea)
    RETURNS TABLE (user_id text, display_name text, role text, admin boolean, created_at timestamptz, created_by text,
                   disabled_at timestamptz, token_id bigint, stale boolean)
    LANGUAGE plpgsql VOLATILE AS $$
    #variable_conflict use_column
    BEGIN
      PERFORM set_config('forge.token_hash', encode(presented, 'hex'), true);
      RETURN QUERY
        SELECT u.user_id, u.display_name, u.role, u.admin, u.created_at, u.created_by, u.disabled_at, t.token_id,
               (t.last_used_at IS NULL OR t.last_used_at < now() - interval '1 minute')
          FROM desk_tokens t JOIN desk_users u ON u.user_id = t.user_id
         WHERE t.token_hash = presented AND t.revoked_at IS NULL AND t.expires_at > now() AND u.disabled_at IS NULL;
      PERFORM set_config('forge.token_hash', '', true);
    END $$`,
];
