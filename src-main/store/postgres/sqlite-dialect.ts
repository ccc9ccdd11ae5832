/**
 * Forge's SQL, written for SQLite, as PostgreSQL reads it: the translation the desk's database
 * facade (postgres-db.ts) applies to every statement before it is sent. It is deliberately small —
 * the store's SQL is kept to the common ground of both engines, and each construct below is one
 * the two spell differently but mean the same:
 *
 * - placeholders: `?` (positional) and `@name` / `:name` / `$name` (named, better-sqlite3's three
 *   spellings) become `$1…$n`; a name used twice is one parameter; `? IS [NOT] NULL` becomes a
 *   boolean parameter of its own (PostgreSQL cannot type a placeholder there);
 * - `INSERT OR IGNORE INTO …` becomes `INSERT INTO … ON CONFLICT DO NOTHING`;
 * - the two-argument scalar `max(a, b)` / `min(a, b)` becomes `GREATEST` / `LEAST` (one argument
 *   stays the aggregate); `ifnull(` becomes `coalesce(`;
 * - a blob literal `x'…'` becomes `'\\x…'::bytea`;
 * - `total_changes()` (has this connection written?) reads the write-ahead log's insert position;
 * - `sqlite_master` (is there a table named …?) reads PostgreSQL's catalogue;
 * - an INSERT into a table with an identity key returns that key (what better-sqlite3 reports as
 *   `lastInsertRowid`).
 *
 * Text inside quotes and comments is never touched. Anything else SQLite-only (FTS5 `MATCH`,
 * `json_extract`, `rowid`) is left alone and refused by PostgreSQL with its own error, which names
 * the function: a store path not yet ported fails loudly, never silently differently.
 */

export interface TranslatedSql {
  text: string;
  /**
   * For each `$n` in order, where its value comes from: the positional index (number) or the name
   * (string), or — for a placeholder tested with IS [NOT] NULL — whether that value is null.
   */
  params: ParamSource[];
  /** The identity column appended as RETURNING, when the statement is an INSERT into such a table. */
  returnsKey?: string;
}

export type ParamSource = number | string | { isNull: number | string };

export function translateSql(sql: string, identityKeys: ReadonlyMap<string, string>): TranslatedSql {
  const params: ParamSource[] = [];
  const numbers = new Map<string, number>();
  /** The `$n` of a source (a value, or a value's nullness), allocated on first use and reused. */
  const placeholder = (source: ParamSource): number => {
    const key = typeof source === 'object' ? `null:${source.isNull}` : `${typeof source}:${source}`;
    let n = numbers.get(key);
    if (n === undefined) {
      params.push(source);
      n = params.length;
      numbers.set(key, n);
    }
    return n;
  };
  let positional = 0;
  let out = '';
  for (let i = 0; i < sql.length; ) {
    const c = sql[i];
    let source: number | string | undefined;
    let length = 0;
    if ((c === 'x' || c === 'X') && sql[i + 1] === "'" && !/[A-Za-z0-9_]/.test(sql[i - 1] ?? '')) {
      // A blob literal x'00ff' is a bit string to PostgreSQL; bytea is spelled '\x00ff'::bytea.
      const end = closingQuote(sql, i + 1, "'");
      out += `'\\x${sql.slice(i + 2, end - 1)}'::bytea`;
      i = end;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') {
      const end = closingQuote(sql, i, c);
      out += sql.slice(i, end);
      i = end;
      continue;
    }
    if ((c === '-' && sql[i + 1] === '-') || (c === '/' && sql[i + 1] === '*')) {
      const end = c === '-' ? sql.indexOf('\n', i) : sql.indexOf('*/', i + 2);
      const stop = end < 0 ? sql.length : c === '-' ? end : end + 2;
      out += sql.slice(i, stop);
      i = stop;
      continue;
    }
    if (c === '?') {
      source = positional++;
      length = 1;
    } else if ((c === '@' || c === ':' || c === '$') && /[A-Za-z_]/.test(sql[i + 1] ?? '') && !(c === ':' && sql[i - 1] === ':')) {
      source = (/^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1)) as RegExpExecArray)[0];
      length = 1 + source.length;
    }
    if (source === undefined) {
      out += c;
      i++;
      continue;
    }
    // `? IS NULL` gives PostgreSQL nothing to infer the parameter's type from (and fixes it as
    // unknown before a later `col = ?` could): the test becomes a boolean parameter of its own,
    // "is this value null?", bound from the same argument.
    const test = /^\s+IS\s+(NOT\s+)?NULL\b/i.exec(sql.slice(i + length, i + length + 24));
    if (test) {
      out += `${test[1] ? 'NOT ' : ''}$${placeholder({ isNull: source })}::boolean`;
      i += length + test[0].length;
    } else {
      out += `$${placeholder(source)}`;
      i += length;
    }
  }
  let text = rewriteFunctions(out);
  let returnsKey: string | undefined;
  const ignore = /^\s*INSERT\s+OR\s+IGNORE\s+INTO\b/i.test(text);
  if (ignore) text = text.replace(/^\s*INSERT\s+OR\s+IGNORE\s+INTO\b/i, 'INSERT INTO');
  const insert = /^\s*INSERT\s+INTO\s+"?([A-Za-z_][A-Za-z0-9_]*)"?/i.exec(text);
  const hasReturning = /\bRETURNING\b/i.test(stripQuoted(text));
  if (ignore) text = hasReturning ? text.replace(/\bRETURNING\b/i, 'ON CONFLICT DO NOTHING RETURNING') : `${text.trimEnd()} ON CONFLICT DO NOTHING`;
  if (insert && !hasReturning) {
    const key = identityKeys.get(insert[1].toLowerCase());
    if (key) {
      text = `${text.trimEnd().replace(/;$/, '')} RETURNING ${key}`;
      returnsKey = key;
    }
  }
  return { text, params, returnsKey };
}

function closingQuote(sql: string, start: number, quote: string): number {
  for (let i = start + 1; i < sql.length; i++) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i++;
      else return i + 1;
    }
  }
  return sql.length;
}

/** The SQL with quoted text blanked, for keyword tests that must not match inside a string. */
function stripQuoted(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"/g, "''");
}

/** max(a, b) → GREATEST(a, b), min(a, b) → LEAST(a, b), ifnull( → coalesce(. Outside quotes only. */
function rewriteFunctions(sql: string): string {
  let out = '';
  for (let i = 0; i < sql.length; ) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      const end = closingQuote(sql, i, c);
      out += sql.slice(i, end);
      i = end;
      continue;
    }
    const catalogue = /^(sqlite_master|sqlite_schema)\b/i.exec(sql.slice(i));
    if (catalogue && !/[A-Za-z0-9_.]/.test(sql[i - 1] ?? '')) {
      out += `${CATALOGUE} AS ${catalogue[1]}`;
      i += catalogue[0].length;
      continue;
    }
    const changes = /^total_changes\s*\(\s*\)/i.exec(sql.slice(i));
    if (changes && !/[A-Za-z0-9_.]/.test(sql[i - 1] ?? '')) {
      // "Has this connection written since?" — the log's insert position moves with every write, ours included.
      out += "(pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint";
      i += changes[0].length;
      continue;
    }
    const m = /^(max|min|ifnull)\s*\(/i.exec(sql.slice(i));
    if (m && !/[A-Za-z0-9_.]/.test(sql[i - 1] ?? '')) {
      const name = m[1].toLowerCase();
      if (name === 'ifnull') {
        out += 'coalesce(';
        i += m[0].length;
        continue;
      }
      const open = i + m[0].length - 1;
      const close = matchingParen(sql, open);
      if (close > 0 && hasTopLevelComma(sql.slice(open + 1, close))) {
        out += `${name === 'max' ? 'GREATEST' : 'LEAST'}(${rewriteFunctions(sql.slice(open + 1, close))})`;
        i = close + 1;
        continue;
      }
    }
    out += c;
    i++;
  }
  return out;
}

/** SQLite's catalogue, as far as Forge reads it (does a table or index exist?), from PostgreSQL's. */
const CATALOGUE = `(SELECT 'table'::text AS type, table_name::text AS name, table_name::text AS tbl_name FROM information_schema.tables WHERE table_schema = current_schema()
  UNION ALL SELECT 'index', indexname::text, tablename::text FROM pg_indexes WHERE schemaname = current_schema())`;

function matchingParen(sql: string, open: number): number {
  let depth = 0;
  for (let i = open; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"') i = closingQuote(sql, i, c) - 1;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

function hasTopLevelComma(inner: string): boolean {
  let depth = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === "'" || c === '"') i = closingQuote(inner, i, c) - 1;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) return true;
  }
  return false;
}
