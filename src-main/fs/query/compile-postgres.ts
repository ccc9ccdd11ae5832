import type { SqlFilter } from '../../store';
import type { QueryAst, QueryTerm } from './parse';

/**
 * The query language on a desk's PostgreSQL database: the same meaning as compile.ts (SQLite),
 * spelled in PostgreSQL's SQL. Keywords and phrases match memory_records' generated tsvector
 * (English stemming, as FTS5's porter tokenizer), each one required; header keys are read with
 * jsonb operators. A header value of the wrong type never matches and never fails the query: the
 * cast sits behind a CASE on the value's JSON type.
 */
const TEXT_COLUMNS: Record<string, string> = { status: 'r.status', scope: 'r.scope', view_id: 'r.view_id', view: 'r.view_id', id: 'r.id', title: 'r.title' };
const NUMBER_COLUMNS: Record<string, string> = { confidence: 'r.confidence', weight: 'r.weight' };
const DATE_COLUMNS: Record<string, string> = { updated: 'r.updated_at', updated_at: 'r.updated_at', created: 'r.created_at', created_at: 'r.created_at' };

/** A jsonpath that yields a scalar field's value, or each element of a list field (lax mode unwraps). */
const listPath = (key: string) => `$."${key.replace(/["\\]/g, (c) => `\\${c}`)}"[*]`;

function compileTerm(t: Exclude<QueryTerm, { kind: 'text' }>, out: SqlFilter & { parts: string[] }): void {
  const key = 'key' in t ? t.key.toLowerCase() : '';
  switch (t.kind) {
    case 'since':
      out.parts.push('r.updated_at >= ?');
      out.params.push(t.date);
      return;
    case 'skill':
      out.parts.push(
        `(EXISTS (SELECT 1 FROM jsonb_path_query(r.header::jsonb, '$.skill[*]') j WHERE lower(j #>> '{}') = ?::text)
          OR EXISTS (SELECT 1 FROM jsonb_path_query(r.header::jsonb, '$.skills[*]') j WHERE lower(j #>> '{}') = ?::text))`,
      );
      out.params.push(t.name.toLowerCase(), t.name.toLowerCase());
      return;
    case 'eq':
      if (key === 'status') {
        out.parts.push('r.status = ?::text');
        out.params.push(t.value.toLowerCase());
      } else if (TEXT_COLUMNS[key]) {
        out.parts.push(`lower(${TEXT_COLUMNS[key]}) = lower(?::text)`);
        out.params.push(t.value);
      } else if (NUMBER_COLUMNS[key] && !Number.isNaN(Number(t.value))) {
        out.parts.push(`${NUMBER_COLUMNS[key]} = ?::double precision`);
        out.params.push(Number(t.value));
      } else {
        out.parts.push(`EXISTS (SELECT 1 FROM jsonb_path_query(r.header::jsonb, ?::jsonpath) j WHERE lower(j #>> '{}') = ?::text)`);
        out.params.push(listPath(t.key), t.value.toLowerCase());
      }
      return;
    case 'cmp':
      if (typeof t.value === 'number') {
        const col = NUMBER_COLUMNS[key];
        out.parts.push(
          col
            ? `${col} ${t.op} ?::double precision`
            : `(CASE WHEN jsonb_typeof(r.header::jsonb -> ?::text) = 'number' THEN (r.header::jsonb ->> ?::text)::double precision END) ${t.op} ?::double precision`,
        );
        if (!col) out.params.push(t.key, t.key);
      } else {
        const col = DATE_COLUMNS[key];
        out.parts.push(
          col
            ? `${col} ${t.op} ?::text`
            : `(CASE WHEN jsonb_typeof(r.header::jsonb -> ?::text) = 'string' THEN r.header::jsonb ->> ?::text END) ${t.op} ?::text`,
        );
        if (!col) out.params.push(t.key, t.key);
      }
      out.params.push(t.value);
      return;
  }
}

export function compileQueryForPostgres(ast: QueryAst): SqlFilter {
  const out: SqlFilter & { parts: string[] } = { where: '', params: [], parts: [] };
  const text = ast.terms.filter((t): t is Extract<QueryTerm, { kind: 'text' }> => t.kind === 'text');
  for (const t of ast.terms) if (t.kind !== 'text') compileTerm(t, out);
  for (const t of text) {
    // phraseto_tsquery: a phrase's words in order; one word is that word. Stop words drop out, so
    // a term of stop words only matches everything, as it would be ignored by FTS5's ranking.
    out.parts.push("r.search_vector @@ phraseto_tsquery('english', ?::text)");
    out.params.push(t.text);
  }
  return { where: out.parts.join(' AND '), params: out.params };
}
