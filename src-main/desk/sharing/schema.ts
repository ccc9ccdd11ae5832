/**
 * Who may read which memory record on a desk: sharing with named people, and row-level security
 * on memory_records so that search, listings and every other query honour it.
 *
 * Decisions:
 * - Visibility lives on desk_record_access (private | shared | desk); the named people of a
 *   `shared` record are rows of desk_record_shares. A private record ignores any share rows (they
 *   are removed when it is made private anyway).
 * - Who is acting: every statement of `forge serve --db` runs bound to the person of the call it
 *   serves (`forge.user_id`; PostgresDb.bindActingPerson, per statement, since calls interleave
 *   between their awaits), or to the server's own work (`forge.server_work`: scheduled jobs, the
 *   search index catching up from memory_changes, the tracker, the desk's book and limit checks).
 *   The server's work reads and changes every record, like risk; the policies honour it only while
 *   no person is bound, so a call made by someone never sees more than that person may.
 * - Reading, as a person: their own records, records shared with them, desk-wide records;
 *   everything if they are an active risk manager (risk sees every book). A record with no
 *   desk_record_access row is seen by risk only: a write path that forgot to name an owner fails
 *   closed, not open. A session bound to nobody at all (neither) sees nothing.
 * - Owners: a record inserted by a person is theirs and private — research notes and Views are
 *   private until their owner shares them (the issue's rule), and an Expression belongs to its
 *   PM's book; one the server inserts on its own belongs to the desk (owner NULL) and is desk-wide:
 *   no PM wrote it, and every PM's work may depend on it. Triggers add the row in the same
 *   statement; a superuser's write (a migration, a seed) is bound to nobody and names owners itself.
 * - Changing: the owner, risk (who can halt a PM and must be able to correct a record), or the
 *   server's own work. Readers of a shared or desk-wide record do not edit it (refused, forbidden).
 * - memory_archive (earlier versions, by category and id) follows its record, so an old version
 *   of a private note does not leak what the note says.
 * - ENABLE + FORCE: the policies bind the tables' owner too. Superusers (migrations, `forge
 *   migrate`, the tests' admin connection) bypass them, as PostgreSQL does for every policy.
 * - Like the sign-in tables' policies, these guard against a query that forgets its filter, with
 *   settings chosen by the server; they are not a defence against a compromised server.
 */
export const SHARING_SCHEMA: readonly string[] = [
  `CREATE TABLE desk_record_shares (
    rid bigint NOT NULL REFERENCES desk_record_access (rid) ON DELETE CASCADE,
    user_id text NOT NULL REFERENCES desk_users (user_id),
    shared_by text NOT NULL REFERENCES desk_users (user_id),
    shared_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (rid, user_id)
  )`,
  'CREATE INDEX desk_record_shares_by_user ON desk_record_shares (user_id)',
  `CREATE FUNCTION desk_acting_risk() RETURNS boolean LANGUAGE sql STABLE AS
    $$ SELECT EXISTS (SELECT 1 FROM desk_users WHERE user_id = desk_acting_user() AND role = 'risk' AND disabled_at IS NULL) $$`,
  // The server's own work: only while no person is bound, so a call made by someone never gets it.
  `CREATE FUNCTION desk_acting_server() RETURNS boolean LANGUAGE sql STABLE AS
    $$ SELECT desk_acting_user() IS NULL AND current_setting('forge.server_work', true) = 'on' $$`,
  // The record the current INSERT statement is adding (set by its BEFORE trigger, cleared by its
  // AFTER trigger): readable by its inserter for that statement, so INSERT … RETURNING passes the
  // read policy before the owner row exists.
  `CREATE FUNCTION desk_inserting_rid() RETURNS bigint LANGUAGE sql STABLE AS
    $$ SELECT nullif(current_setting('forge.inserting_rid', true), '')::bigint $$`,
  `CREATE FUNCTION desk_may_read_record(record_rid bigint) RETURNS boolean LANGUAGE sql STABLE AS
    $$ SELECT desk_acting_server() OR desk_acting_risk() OR record_rid = desk_inserting_rid() OR EXISTS (
         SELECT 1 FROM desk_record_access a
         WHERE a.rid = record_rid AND (
           a.owner_id = desk_acting_user()
           OR a.visibility = 'desk'
           OR (a.visibility = 'shared' AND EXISTS (SELECT 1 FROM desk_record_shares s WHERE s.rid = a.rid AND s.user_id = desk_acting_user()))
         )
       ) $$`,
  `CREATE FUNCTION desk_may_change_record(record_rid bigint) RETURNS boolean LANGUAGE sql STABLE AS
    $$ SELECT desk_acting_server() OR desk_acting_risk() OR EXISTS (SELECT 1 FROM desk_record_access a WHERE a.rid = record_rid AND a.owner_id = desk_acting_user()) $$`,
  `CREATE FUNCTION desk_record_inserting() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF desk_acting_user() IS NOT NULL OR desk_acting_server() THEN
        PERFORM set_config('forge.inserting_rid', NEW.rid::text, true);
      END IF;
      RETURN NEW;
    END $$`,
  // Every record written on a desk gets its owner in the same statement: the person writing it
  // (private), or for the server's own work the desk itself (owner NULL, desk-wide). A write by
  // nobody (a superuser's migration or seed) names its owners itself.
  `CREATE FUNCTION desk_record_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM set_config('forge.inserting_rid', '', true);
      IF desk_acting_user() IS NOT NULL THEN
        INSERT INTO desk_record_access (rid, owner_id, visibility) VALUES (NEW.rid, desk_acting_user(), 'private') ON CONFLICT (rid) DO NOTHING;
      ELSIF desk_acting_server() THEN
        INSERT INTO desk_record_access (rid, owner_id, visibility) VALUES (NEW.rid, NULL, 'desk') ON CONFLICT (rid) DO NOTHING;
      END IF;
      RETURN NULL;
    END $$`,
  'CREATE TRIGGER memory_records_owner_before BEFORE INSERT ON memory_records FOR EACH ROW EXECUTE FUNCTION desk_record_inserting()',
  'CREATE TRIGGER memory_records_owner_after AFTER INSERT ON memory_records FOR EACH ROW EXECUTE FUNCTION desk_record_inserted()',
  'ALTER TABLE memory_records ENABLE ROW LEVEL SECURITY',
  'ALTER TABLE memory_records FORCE ROW LEVEL SECURITY',
  'CREATE POLICY memory_records_read ON memory_records FOR SELECT USING (desk_may_read_record(rid))',
  'CREATE POLICY memory_records_insert ON memory_records FOR INSERT WITH CHECK (desk_acting_user() IS NOT NULL OR desk_acting_server())',
  // A reader's change is refused out loud, never skipped: a policy's USING filter would make a
  // reader's UPDATE or DELETE match no row, and the store would report an edit that never happened.
  // So both match what the person may read; WITH CHECK (UPDATE) and a trigger (DELETE) then refuse
  // a row they may not change, with SQLSTATE 42501 (Forge's `forbidden`).
  'CREATE POLICY memory_records_update ON memory_records FOR UPDATE USING (desk_may_read_record(rid)) WITH CHECK (desk_may_change_record(rid))',
  'CREATE POLICY memory_records_delete ON memory_records FOR DELETE USING (desk_may_read_record(rid))',
  `CREATE FUNCTION desk_record_deleting() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (desk_acting_user() IS NOT NULL OR desk_acting_server()) AND NOT desk_may_change_record(OLD.rid) THEN
        RAISE EXCEPTION 'only its owner or risk may delete % %', OLD.category, OLD.id USING ERRCODE = 'insufficient_privilege';
      END IF;
      RETURN OLD;
    END $$`,
  'CREATE TRIGGER memory_records_delete_check BEFORE DELETE ON memory_records FOR EACH ROW EXECUTE FUNCTION desk_record_deleting()',
  // A record's earlier versions are read as the record is: the subquery over memory_records is
  // itself filtered by the policy above. A version whose record is gone is seen by risk only.
  'ALTER TABLE memory_archive ENABLE ROW LEVEL SECURITY',
  'ALTER TABLE memory_archive FORCE ROW LEVEL SECURITY',
  `CREATE POLICY memory_archive_read ON memory_archive FOR SELECT USING (
    desk_acting_server() OR desk_acting_risk() OR EXISTS (SELECT 1 FROM memory_records m WHERE m.category = memory_archive.category AND m.id = memory_archive.id)
  )`,
  // Writes (archiving before a change, pruning) come from the server for a bound person or its own
  // work; separate policies per command, since a FOR ALL policy would also widen reading (policies are OR-ed).
  'CREATE POLICY memory_archive_insert ON memory_archive FOR INSERT WITH CHECK (desk_acting_user() IS NOT NULL OR desk_acting_server())',
  'CREATE POLICY memory_archive_update ON memory_archive FOR UPDATE USING (desk_acting_user() IS NOT NULL OR desk_acting_server())',
  'CREATE POLICY memory_archive_delete ON memory_archive FOR DELETE USING (desk_acting_user() IS NOT NULL OR desk_acting_server())',
];
