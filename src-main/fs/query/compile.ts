import type { SqlFilter } from '../../store';
import type { QueryAst, QueryTerm } from './parse';

/** Keys stored as typed columns of memory_records (everything else is read from the header JSON). */
const TEXT_COLUMNS: Record<string, string> = { status: 'r.status', scope: 'r.scope', view_id: 'r.view_id', view: 'r.view_id', id: 'r.id', title: 'r.title' };
const NUMBER_COLUMNS: Record<string, string> = { confidence: 'r.confidence', weight: 'r.weight' };
const DATE_COLUMNS: Record<string, string> = { updated: 'r.updated_at', updated_at: 'r.updated_at', created: 'r.created_at', created_at: 'r.created_at' };

const jsonPath = (key: string) => `$."${key}"`;

/** FTS5 query text: each keyword or phrase quoted (so nothing in it is FTS syntax), all required. */
function ftsExpression(terms: Extract<QueryTerm, { kind: 'text' }>[]): string {
  return terms.map((t) => `"${t.text.replace(/"/g, '""')}"`).join(' AND ');
}

function compileTerm(t: Exclude<QueryTerm, { kind: 'text' }>, out: SqlFilter & { parts: string[] }): void {
  const key = 'key' in t ? t.key.toLowerCase() : '';
  switch (t.kind) {
    case 'since':
      out.parts.push('r.updated_at >= ?');
      out.params.push(t.date);
      return;
    case 'skill':
      // PK names its skill in `skill:` or lists several in `skills: [a, b]`.
      out.parts.push(
        `(EXISTS (SELECT 1 FROM json_each(r.header, '$.skill') j WHERE lower(CAST(j.value AS TEXT)) = ?)
          OR EXISTS (SELECT 1 FROM json_each(r.header, '$.skills') j WHERE lower(CAST(j.value AS TEXT)) = ?))`,
      );
      out.params.push(t.name.toLowerCase(), t.name.toLowerCase());
      return;
    case 'eq': {
      if (key === 'status') {
        out.parts.push('r.status = ?');
        out.params.push(t.value.toLowerCase());
      } else if (TEXT_COLUMNS[key]) {
        out.parts.push(`${TEXT_COLUMNS[key]} = ? COLLATE NOCASE`);
        out.params.push(t.value);
      } else if (NUMBER_COLUMNS[key] && !Number.isNaN(Number(t.value))) {
        out.parts.push(`${NUMBER_COLUMNS[key]} = ?`);
        out.params.push(Number(t.value));
      } else {
        // A scalar field equals the value, or a list field contains it.
        out.parts.push(`EXISTS (SELECT 1 FROM json_each(r.header, ?) j WHERE lower(CAST(j.value AS TEXT)) = ?)`);
        out.params.push(jsonPath(t.key), t.value.toLowerCase());
      }
      return;
    }
    case 'cmp': {
      if (typeof t.value === 'number') {
        const col = NUMBER_COLUMNS[key];
        if (col) {
          out.parts.push(`${col} ${t.op} ?`);
        } else {
          out.parts.push(`(json_type(r.header, ?) IN ('integer', 'real') AND json_extract(r.header, ?) ${t.op} ?)`);
          out.params.push(jsonPath(t.key), jsonPath(t.key));
        }
        out.params.push(t.value);
      } else {
        const col = DATE_COLUMNS[key];
        if (col) {
          out.parts.push(`${col} ${t.op} ?`);
        } else {
          out.parts.push(`(json_type(r.header, ?) = 'text' AND json_extract(r.header, ?) ${t.op} ?)`);
          out.params.push(jsonPath(t.key), jsonPath(t.key));
        }
        out.params.push(t.value);
      }
      return;
    }
  }
}

/**
 * Compiles a parsed query to a SQL condition over `memory_records r` with bound parameters.
 * Keywords and phrases become one FTS5 MATCH; typed keys use indexed columns; other keys read the
 * header JSON. Nothing is filtered in JavaScript.
 */
export function compileQuery(ast: QueryAst): SqlFilter {
  const out: SqlFilter & { parts: string[] } = { where: '', params: [], parts: [] };
  const text = ast.terms.filter((t): t is Extract<QueryTerm, { kind: 'text' }> => t.kind === 'text');
  for (const t of ast.terms) if (t.kind !== 'text') compileTerm(t, out);
  if (text.length) {
    // With other conditions, the covering listing indexes drive the scan and each candidate is
    // checked against the keyword hits (`+` keeps SQLite from driving by rowid instead, which
    // costs one table read per keyword hit: slow for common words in a large memory).
    const lhs = out.parts.length ? '+r.rid' : 'r.rid';
    out.parts.push(`${lhs} IN (SELECT rowid FROM memory_fts WHERE memory_fts MATCH ?)`);
    out.params.push(ftsExpression(text));
  }
  return { where: out.parts.join(' AND '), params: out.params };
}
