/**
 * Who may read which memory record on a desk: sharing with named people, and row-level security
 * on memory_records so that search, listings and every other query honour it.
 *
 * Decisions:
 * - Visibility lives on desk_record_access (private | shared | desk); the named people of a
 *   `shared` record are rows of desk_record_shares. A private record ignores any share rows (they
 *   are removed when it is made private anyway).
 * - Reading, as a person bound by actingAs (`forge.user_id`): their own records, records shared
 *   with them, desk-wide records; everything if they are an active risk manager (risk sees every
 *   book). A record with no desk_record_access row is seen by risk only: a write path that forgot
 *   to name an owner fails closed, not open. A transaction bound to nobody sees nothing.
 * - Changing: the owner, or risk (who can halt a PM and must be able to correct a record). Readers
 *   of a shared or desk-wide record do not edit it. Inserting needs a bound person; the new row is
 *   unreadable until its desk_record_access row names the owner, so a record is created with an
 *   explicit rid and its access row in one transaction (or by a superuser/migration).
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
  `CREATE FUNCTION desk_may_read_record(record_rid bigint) RETURNS boolean LANGUAGE sql STABLE AS
    $$ SELECT desk_acting_risk() OR EXISTS (
         SELECT 1 FROM desk_record_access a
         WHERE a.rid = record_rid AND (
           a.owner_id = desk_acting_user()
           OR a.visibility = 'desk'
           OR (a.visibility = 'shared' AND EXISTS (SELECT 1 FROM desk_record_shares s WHERE s.rid = a.rid AND s.user_id = desk_acting_user()))
         )
       ) $$`,
  `CREATE FUNCTION desk_may_change_record(record_rid bigint) RETURNS boolean LANGUAGE sql STABLE AS
    $$ SELECT desk_acting_risk() OR EXISTS (SELECT 1 FROM desk_record_access a WHERE a.rid = record_rid AND a.owner_id = desk_acting_user()) $$`,
  'ALTER TABLE memory_records ENABLE ROW LEVEL SECURITY',
  'ALTER TABLE memory_records FORCE ROW LEVEL SECURITY',
  'CREATE POLICY memory_records_read ON memory_records FOR SELECT USING (desk_may_read_record(rid))',
  'CREATE POLICY memory_records_insert ON memory_records FOR INSERT WITH CHECK (desk_acting_user() IS NOT NULL)',
  'CREATE POLICY memory_records_update ON memory_records FOR UPDATE USING (desk_may_change_record(rid)) WITH CHECK (desk_may_change_record(rid))',
  'CREATE POLICY memory_records_delete ON memory_records FOR DELETE USING (desk_may_change_record(rid))',
  // A record's earlier versions are read as the record is: the subquery over memory_records is
  // itself filtered by the policy above. A version whose record is gone is seen by risk only.
  'ALTER TABLE memory_archive ENABLE ROW LEVEL SECURITY',
  'ALTER TABLE memory_archive FORCE ROW LEVEL SECURITY',
  `CREATE POLICY memory_archive_read ON memory_archive FOR SELECT USING (
    desk_acting_risk() OR EXISTS (SELECT 1 FROM memory_records m WHERE m.category = memory_archive.category AND m.id = memory_archive.id)
  )`,
  // Writes (archiving before a change, pruning) come from the server for a bound person; separate
  // policies per command, since a FOR ALL policy would also widen reading (policies are OR-ed).
  'CREATE POLICY memory_archive_insert ON memory_archive FOR INSERT WITH CHECK (desk_acting_user() IS NOT NULL)',
  'CREATE POLICY memory_archive_update ON memory_archive FOR UPDATE USING (desk_acting_user() IS NOT NULL)',
  'CREATE POLICY memory_archive_delete ON memory_archive FOR DELETE USING (desk_acting_user() IS NOT NULL)',
];
