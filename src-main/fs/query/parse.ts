import { InvalidInputError } from '../../common/errors';

/** One condition of a listing query. `column` is 1-based, for error messages. */
export type QueryTerm =
  | { kind: 'text'; text: string; phrase: boolean; column: number }
  | { kind: 'eq'; key: string; value: string; column: number }
  | { kind: 'cmp'; key: string; op: '>=' | '<=' | '>' | '<'; value: number | string; column: number }
  | { kind: 'since'; date: string; column: number }
  | { kind: 'skill'; name: string; column: number };

export interface QueryAst {
  terms: QueryTerm[];
}

export const MAX_QUERY_CHARS = 2000;
const KEY_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NUMBER_RE = /^-?(\d+(\.\d*)?|\.\d+)$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

function syntaxError(column: number, problem: string, fix: string): InvalidInputError {
  return new InvalidInputError(`Query error at column ${column}: ${problem}. ${fix}`, [{ path: ['query', column], message: problem }]);
}

/** True for a real calendar date written YYYY-MM-DD. */
export function isIsoDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/**
 * `since:` takes a day, a month or a year; a month or a year means from its first day
 * (since:2026-03 is since:2026-03-01). Anything else is refused with the token named.
 */
function sinceDate(t: RawToken, key: string): string {
  const full = /^\d{4}$/.test(t.text) ? `${t.text}-01-01` : /^\d{4}-\d{2}$/.test(t.text) ? `${t.text}-01` : t.text;
  if (isIsoDate(full)) return full;
  const token = `${key}:${t.quoted ? `"${t.text}"` : t.text}`.slice(0, 40);
  throw syntaxError(
    t.column + key.length + 1,
    `"${token}" is not a date`,
    'Write since:YYYY-MM-DD, since:YYYY-MM or since:YYYY, e.g. since:2026-01-15, since:2026-03 or since:2026.',
  );
}

function hasWordChar(s: string): boolean {
  return /[\p{L}\p{N}]/u.test(s);
}

interface RawToken {
  text: string;
  column: number;
  /** Set when the value (or the whole token) was a quoted string. */
  quoted: boolean;
  key?: string;
  op?: ':' | '>=' | '<=' | '>' | '<';
}

/** Splits on whitespace, keeping "quoted phrases" and key:"quoted values" whole. */
function tokenize(query: string): RawToken[] {
  const tokens: RawToken[] = [];
  let i = 0;
  const n = query.length;
  while (i < n) {
    if (/\s/.test(query[i])) {
      i++;
      continue;
    }
    const start = i;
    if (query[i] === '"') {
      const close = query.indexOf('"', i + 1);
      if (close < 0) throw syntaxError(start + 1, 'this quote is never closed', 'Close the phrase with a second `"`.');
      tokens.push({ text: query.slice(i + 1, close), column: start + 1, quoted: true });
      i = close + 1;
      if (i < n && !/\s/.test(query[i])) throw syntaxError(i + 1, 'expected a space after the closing quote', 'Separate terms with spaces.');
      continue;
    }
    // A bare word, possibly key<op>value where value may be quoted.
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(>=|<=|:|>|<)/.exec(query.slice(i, i + 80));
    if (m) {
      const valueStart = i + m[0].length;
      if (query[valueStart] === '"') {
        const close = query.indexOf('"', valueStart + 1);
        if (close < 0) throw syntaxError(valueStart + 1, 'this quote is never closed', 'Close the value with a second `"`.');
        tokens.push({ key: m[1], op: m[2] as RawToken['op'], text: query.slice(valueStart + 1, close), column: start + 1, quoted: true });
        i = close + 1;
        if (i < n && !/\s/.test(query[i])) throw syntaxError(i + 1, 'expected a space after the closing quote', 'Separate terms with spaces.');
        continue;
      }
      let j = valueStart;
      while (j < n && !/\s/.test(query[j])) j++;
      const value = query.slice(valueStart, j);
      if (value.includes('"'))
        throw syntaxError(valueStart + value.indexOf('"') + 1, 'a quote inside a value', 'Quote the whole value, e.g. scope:"global rates".');
      tokens.push({ key: m[1], op: m[2] as RawToken['op'], text: value, column: start + 1, quoted: false });
      i = j;
      continue;
    }
    let j = i;
    while (j < n && !/\s/.test(query[j])) j++;
    const word = query.slice(i, j);
    const q = word.indexOf('"');
    if (q >= 0) throw syntaxError(i + q + 1, 'a quote inside a word', 'Put the quote at the start of the phrase, e.g. "rate cuts".');
    tokens.push({ text: word, column: start + 1, quoted: false });
    i = j;
  }
  return tokens;
}

/**
 * Parses a listing query once into an AST:
 * `keyword`, `"quoted phrase"`, `key:value`, `key>=N`, `key<=N`, `since:YYYY-MM-DD` (or YYYY-MM, YYYY), `skill:name`.
 * Every problem is an InvalidInputError that says at which column.
 */
export function parseQuery(query: string): QueryAst {
  if (typeof query !== 'string') throw new InvalidInputError('The query must be text.');
  if (query.length > MAX_QUERY_CHARS) throw new InvalidInputError(`The query is longer than ${MAX_QUERY_CHARS} characters; shorten it.`);
  if (query.includes('\0')) throw new InvalidInputError('The query contains a NUL character; remove it.');
  const terms: QueryTerm[] = [];
  for (const t of tokenize(query)) {
    if (t.key === undefined) {
      if (!hasWordChar(t.text)) {
        throw syntaxError(t.column, `"${t.text.slice(0, 30)}" has no letters or digits to search for`, 'Use a word, a "quoted phrase" or key:value.');
      }
      terms.push({ kind: 'text', text: t.text, phrase: t.quoted, column: t.column });
      continue;
    }
    const key = t.key;
    if (!KEY_RE.test(key)) throw syntaxError(t.column, `"${key}" is not a field name`, 'Use letters, digits and underscores.');
    if (t.text === '')
      throw syntaxError(t.column + key.length + t.op!.length, `no value after "${key}${t.op}"`, `Write e.g. ${key}${t.op}${t.op === ':' ? 'active' : '0.6'}.`);
    if (t.op === ':') {
      const lower = key.toLowerCase();
      if (lower === 'since') {
        terms.push({ kind: 'since', date: sinceDate(t, key), column: t.column });
      } else if (lower === 'skill') {
        terms.push({ kind: 'skill', name: t.text, column: t.column });
      } else {
        terms.push({ kind: 'eq', key, value: t.text, column: t.column });
      }
      continue;
    }
    const valueColumn = t.column + key.length + t.op!.length;
    if (NUMBER_RE.test(t.text)) {
      terms.push({ kind: 'cmp', key, op: t.op as '>=', value: Number(t.text), column: t.column });
    } else if (isIsoDate(t.text)) {
      terms.push({ kind: 'cmp', key, op: t.op as '>=', value: t.text, column: t.column });
    } else {
      throw syntaxError(
        valueColumn,
        `"${t.text.slice(0, 30)}" is not a number or a date`,
        `Compare with a number (${key}${t.op}0.6) or a date (${key}${t.op}2026-01-01).`,
      );
    }
  }
  return { terms };
}
