import type { Statement } from 'better-sqlite3';
import { type Db, engineOf } from '../store';

/**
 * The search's SQL statements, prepared once per database and kept: preparing costs ~0.1 ms, a
 * noticeable share of a search that takes a few. Queries built from a filter vary, so the cache is
 * bounded and starts again when full.
 */
export function cachedStatement(db: Db, sql: string): Statement {
  let cache = statementCache.get(db);
  if (!cache) {
    cache = new Map();
    statementCache.set(db, cache);
  }
  let s = cache.get(sql);
  if (!s) {
    if (cache.size > 200) cache.clear();
    s = db.prepare(sql);
    cache.set(sql, s);
  }
  return s;
}
const statementCache = new WeakMap<Db, Map<string, Statement>>();

/**
 * The ids in a JSON array (bound as the one parameter), as a subquery: SQLite's json_each gives
 * numbers back as numbers, a desk's (store/postgres/schema.ts) as text, which PostgreSQL will not
 * compare with a bigint id unless cast.
 */
export function idsIn(db: Db): string {
  return engineOf(db) === 'postgres' ? 'SELECT CAST(value AS bigint) FROM json_each(?)' : 'SELECT value FROM json_each(?)';
}
