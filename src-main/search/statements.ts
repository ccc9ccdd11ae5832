import type { Statement } from 'better-sqlite3';
import type { Db } from '../store';

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
