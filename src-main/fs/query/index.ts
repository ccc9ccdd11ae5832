export { parseQuery, isIsoDate, MAX_QUERY_CHARS } from './parse';
export type { QueryAst, QueryTerm } from './parse';
export { compileQuery } from './compile';
export { compileQueryForPostgres } from './compile-postgres';
export { compileQueryFor } from './compile-for';
