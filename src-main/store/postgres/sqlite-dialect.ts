/**
 * Forge's SQL, written for SQLite, as PostgreSQL reads it: the translation the desk's database
 * facade (postgres-db.ts) applies to every statement before it is sent. It is deliberately small —
 * the store's SQL is kept to the common ground of both engines, and each construct below is one
 * the two spell differently but mean the same:
 *
 * - placeholders: `?` (positional) and `@name` / `:name` / `$name` (named, better-sqlite3's three
 *   spellings) become `$1…$n`; a name used twice is one parameter;
 * - `INSERT OR IGNORE INTO …` becomes `INSERT INTO … ON CONFLICT DO NOTHING`;
 * - the two-argument scalar `max(a, b)` / `min(a, b)` becomes `GREATEST` / `LEAST` (one argument
 *   stays the aggregate); `ifnull(` becomes `coalesce(`;
 * - an INSERT into a table with an identity key returns that key (what better-sqlite3 reports as
 *   `lastInsertRowid`).
 *
 * Text inside quotes and comments is never touched. Anything else SQLite-only (FTS5 `MATCH`,
 * `json_extract`, `rowid`) is left alone and refused by PostgreSQL with its own error, which names
 * the function: a store path not yet ported fails loudly, never silently differently.
 */

export interface TranslatedSql {
  text: string;
  /** For each `$n` in order: the positional index (number) or the name (string) it takes its value from. */
  params: (number | string)[];
  /** The identity column appended as RETURNING, when the statement is an INSERT into such a table. */
  returnsKey?: string;
}

export function translateSql(sql: string, identityKeys: ReadonlyMap<string, string>): TranslatedSql {
  const params: (number | string)[] = [];
  const named = new Map<string, number>();
  let positional = 0;
  let out = '';
  for (let i = 0; i < sql.length; ) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === '`') {
      const end = closingQuote(sql, i, c);
      out += sql.slice(i, end);
      i = end;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end < 0 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      const stop = end < 0 ? sql.length : end + 2;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '?') {
      params.push(positional++);
      out += `$${params.length}`;
      i++;
    } else if ((c === '@' || c === ':' || c === '$') && /[A-Za-z_]/.test(sql[i + 1] ?? '') && !(c === ':' && sql[i - 1] === ':')) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1));
      const name = match ? match[0] : '';
      let n = named.get(name);
      if (n === undefined) {
        params.push(name);
        n = params.length;
        named.set(name, n);
      }
      out += `$${n}`;
      i += 1 + name.length;
    } else {
      out += c;
      i++;
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
