import { InvalidInputError } from '../../common/errors';

/** A header value: text, a number, or a list such as `[E-001, E-002]`. */
export type HeaderValue = string | number | (string | number)[];
export type HeaderFields = Record<string, HeaderValue>;

/**
 * A memory record in its parsed form. `body` is everything after the `---` line, kept byte for
 * byte; null when the document has no `---` (short records such as an auto-recorded
 * Counterfactual are only a title and header lines).
 */
export interface MemoryDocument {
  id: string;
  title: string;
  header: HeaderFields;
  body: string | null;
}

const TITLE_SEP = ' — ';
const ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const KEY_RE = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const MAX_DOC_CHARS = 2_000_000;

function lineError(line: number, problem: string, fix: string): InvalidInputError {
  return new InvalidInputError(`Line ${line}: ${problem}. ${fix}`, [{ path: ['content', line], message: problem }]);
}

/** Numbers are only numbers when they read back identically ("0.70" stays text so nothing is lost). */
function parseScalar(raw: string): string | number {
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(raw)) {
    const n = Number(raw);
    if (Number.isFinite(n) && String(n) === raw) return n;
  }
  return raw;
}

/** Parses one header value. Lists are `[a, b, c]`; their items must not contain commas or brackets. */
export function parseHeaderValue(raw: string): HeaderValue {
  if (raw.startsWith('[') && raw.endsWith(']')) {
    const inner = raw.slice(1, -1).trim();
    if (inner === '') return [];
    return inner.split(',').map((s) => parseScalar(s.trim()));
  }
  return parseScalar(raw);
}

export function renderHeaderValue(value: HeaderValue): string {
  if (Array.isArray(value)) return `[${value.map(String).join(', ')}]`;
  return String(value);
}

/**
 * Parses canonical record markdown: `# ID — title`, `key: value` lines, optionally `---` and a body.
 * Lenient on CRLF and blank header lines (render() then gives the canonical form); anything it
 * cannot read exactly is an InvalidInputError naming the line — never a half-parsed record.
 */
export function parseRecord(content: string): MemoryDocument {
  if (typeof content !== 'string') throw new InvalidInputError('The record content must be text.');
  if (content.length > MAX_DOC_CHARS) {
    throw new InvalidInputError(`This record is ${content.length} characters long; the limit is ${MAX_DOC_CHARS}. Split it or summarise.`);
  }
  if (content.includes('\0')) throw new InvalidInputError('The record contains a NUL character; remove it and write again.');
  const text = content.replace(/\r\n/g, '\n');
  const lines = text.split('\n');
  const first = lines[0];
  if (!first.startsWith('# ')) {
    throw lineError(1, 'the first line must be the title line', 'Start the record with `# ID — title`, e.g. `# V-001 — Fed cuts before the ECB`.');
  }
  const titleLine = first.slice(2);
  const sep = titleLine.indexOf(TITLE_SEP);
  const id = (sep >= 0 ? titleLine.slice(0, sep) : titleLine).trim();
  const title = sep >= 0 ? titleLine.slice(sep + TITLE_SEP.length) : '';
  if (!ID_RE.test(id)) {
    throw lineError(1, `"${id.slice(0, 40)}" is not a record id`, 'Use an id such as V-001 followed by ` — ` and the title.');
  }
  if (title !== title.trim()) throw lineError(1, 'the title has leading or trailing spaces', 'Remove them.');

  const header: HeaderFields = {};
  const seen = new Set<string>();
  let i = 1;
  let body: string | null = null;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (line === '---') {
      body = lines.slice(i + 1).join('\n');
      break;
    }
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) {
      throw lineError(
        i + 1,
        `expected a header line \`key: value\` but found "${line.slice(0, 60)}"`,
        'Put header fields first, then a line with `---`, then the body.',
      );
    }
    const key = line.slice(0, colon);
    if (!KEY_RE.test(key) || key.startsWith('__')) {
      throw lineError(i + 1, `"${key.slice(0, 40)}" is not a valid field name`, 'Use letters, digits and underscores, e.g. `invalidation_conditions`.');
    }
    if (seen.has(key)) throw lineError(i + 1, `the field "${key}" appears twice`, 'Keep one line per field.');
    seen.add(key);
    header[key] = parseHeaderValue(line.slice(colon + 1).trim());
  }
  return { id, title, header, body };
}

/** The canonical markdown of a record. Throws if a value could not be read back as itself. */
export function renderRecord(doc: MemoryDocument): string {
  if (!ID_RE.test(doc.id)) throw new InvalidInputError(`"${String(doc.id).slice(0, 40)}" is not a record id; use one such as V-001.`);
  if (/[\n\r]/.test(doc.title) || doc.title !== doc.title.trim()) {
    throw new InvalidInputError('A record title must be one line without leading or trailing spaces.');
  }
  const out: string[] = [doc.title ? `# ${doc.id}${TITLE_SEP}${doc.title}` : `# ${doc.id}`];
  for (const [key, value] of Object.entries(doc.header)) {
    if (!KEY_RE.test(key) || key.startsWith('__')) throw new InvalidInputError(`"${key}" is not a valid field name; use letters, digits and underscores.`);
    const rendered = renderHeaderValue(value);
    // The text must survive a read exactly; a string such as "10" may come back as the number 10 (same text).
    const listOk =
      !Array.isArray(value) ||
      value.every((v) => {
        const t = String(v);
        return t !== '' && t === t.trim() && !t.includes(',');
      });
    if (!listOk || /[\n\r]/.test(rendered) || rendered !== rendered.trim() || renderHeaderValue(parseHeaderValue(rendered)) !== rendered) {
      throw new InvalidInputError(`The field "${key}" cannot be written as one header line exactly; keep it on one line without commas inside list items.`);
    }
    out.push(rendered === '' ? `${key}:` : `${key}: ${rendered}`);
  }
  if (doc.body !== null) out.push('---', doc.body);
  // A record without a body ends with a newline, like any text file.
  return doc.body !== null ? out.join('\n') : out.join('\n') + '\n';
}
