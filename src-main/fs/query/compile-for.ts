import { type Db, engineOf, type SqlFilter } from '../../store';
import { compileQuery } from './compile';
import { compileQueryForPostgres } from './compile-postgres';
import type { QueryAst } from './parse';

/** The query compiled for the engine that answers `db`: SQLite's FTS5 and JSON1, or PostgreSQL's tsvector and jsonb. */
export function compileQueryFor(db: Db, ast: QueryAst): SqlFilter {
  return engineOf(db) === 'postgres' ? compileQueryForPostgres(ast) : compileQuery(ast);
}
