import type { Db, SchemaDifferences } from '../store';

/**
 * Signs that an imported workspace's history was stripped or rewritten before it was exported.
 * Every write of a record appends an audit entry with the record's path and content hash, entries
 * are numbered 1, 2, 3… and never deleted, and only Forge's migrations make triggers. So an empty
 * log beside records, a gap in the numbers, a record whose current content no entry accounts for,
 * or a trigger that is not Forge's (or one of Forge's gone or changed) each mean someone edited the
 * database by hand. These checks find stripping, not a careful forgery: a rewritten log that is
 * consistent passes them, which is what the archive's signature is for.
 */
export function historyProblems(db: Db, schema: SchemaDifferences): string[] {
  const problems: string[] = [];
  const { records } = db.prepare('SELECT count(*) AS records FROM memory_records').get() as { records: number };
  const audit = db.prepare('SELECT count(*) AS n, min(seq) AS lo, max(seq) AS hi FROM audit_log').get() as { n: number; lo: number | null; hi: number | null };
  if (records > 0 && audit.n === 0) problems.push(`its audit log is empty although it holds ${records} records`);
  if (audit.n > 0 && (audit.lo !== 1 || audit.hi !== audit.n)) {
    problems.push(`${(audit.hi ?? 0) - audit.n} audit entries are missing (entries run from ${audit.lo} to ${audit.hi} but there are ${audit.n})`);
  }
  if (audit.n > 0) {
    // The path is the one src-main/fs/memory-backend.ts recordPath gives a record.
    const unaccounted = db
      .prepare(
        `SELECT '/memory/' || category || '/' || id || '.md' AS path FROM memory_records r
         WHERE NOT EXISTS (SELECT 1 FROM audit_log a WHERE a.path = '/memory/' || r.category || '/' || r.id || '.md' AND a.content_hash = r.content_hash)
         ORDER BY category, id`,
      )
      .all() as { path: string }[];
    if (unaccounted.length) {
      problems.push(`${unaccounted.length} record(s) have no audit entry for their current content (first: ${unaccounted[0]!.path})`);
    }
  }
  if (schema.alteredTriggers.length) problems.push(`Forge's own rules were removed or changed in its database (${schema.alteredTriggers.join(', ')})`);
  if (schema.foreignTriggers.length) {
    problems.push(
      `its database has triggers Forge does not make, which may have changed data before export (${schema.foreignTriggers.join(', ')}); they were not copied`,
    );
  }
  return problems;
}
