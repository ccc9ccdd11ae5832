import { readCsv } from '../common/csv';
import { DateColumnError, type DateFormat, namesDate, readDateColumn } from './csv-dates';

/**
 * Reads a PM's CSV/TSV/semicolon export as a table of dated series, detecting its dialect
 * (delimiter, decimal comma, header row, encoding, BOM, line ending, date format) so it can be
 * shown next to the data: a file read the wrong way should be visible as such, not silently wrong.
 */

export interface CsvDialect {
  delimiter: ',' | ';' | '\t';
  decimalComma: boolean;
  header: boolean;
  encoding: 'UTF-8' | 'Windows-1252';
  bom: boolean;
  lineEnding: 'CRLF' | 'LF';
  dates: DateFormat | null;
  /** Why the dates were read that way, when it was a choice. */
  datesNote: string | null;
}

export type ColumnKind = 'date' | 'number' | 'text';

export interface CsvTable {
  dialect: CsvDialect;
  /** Column names; the date column, when there is one, comes first. */
  header: string[];
  kinds: ColumnKind[];
  /** Cells in header order: dates as YYYY-MM-DD, numbers with a decimal point, missing as null. */
  rows: (string | null)[][];
  dated: boolean;
}

/** A file that cannot be read as a table, with the row (file line) and column to look at. */
export class CsvFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CsvFormatError';
  }
}

/** Exports write a missing observation in many ways (FRED ".", Yahoo "null", Excel "#N/A"); none is 0 or text. */
const MISSING = new Set(['', '.', 'null', 'na', 'n/a', '#n/a', '-', 'nan', '#value!', '#div/0!']);
export const isMissing = (s: string): boolean => MISSING.has(s.trim().toLowerCase());

const DOT_NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const COMMA_NUMBER = /^[-+]?\d{1,3}(\.\d{3})*,\d+$|^[-+]?\d+,\d+$/;
const GROUPED_COMMA = /^[-+]?\d{1,3}(\.\d{3})+(,\d+)?$/;

/** The number a cell holds, written with a decimal point, or null when it is not a number. */
export function numberText(cell: string, decimalComma: boolean): string | null {
  let t = cell.trim();
  if (decimalComma) {
    if (GROUPED_COMMA.test(t)) t = t.replace(/\./g, '');
    t = t.replace(',', '.');
  }
  return DOT_NUMBER.test(t) ? t : null;
}

/**
 * Windows-1252's 0x80–0x9F (€, ‚, „, …, ™ …); Node's own 'windows-1252' decoder treats them as
 * ISO-8859-1 control codes, which would turn "€" into an invisible character.
 */
const CP1252_80_9F = [...'€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ'];

export function decodeCsv(bytes: Uint8Array): { text: string; encoding: CsvDialect['encoding']; bom: boolean } {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  let text: string;
  let encoding: CsvDialect['encoding'] = 'UTF-8';
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    // Not valid UTF-8: older Excel on Windows saves "CSV" in its ANSI code page, which for
    // Western European installs is Windows-1252 (a superset of ISO-8859-1's printable range).
    text = Array.from(bytes, (b) => (b >= 0x80 && b < 0xa0 ? CP1252_80_9F[b - 0x80]! : String.fromCharCode(b))).join('');
    encoding = 'Windows-1252';
  }
  return { text: text.startsWith('\uFEFF') ? text.slice(1) : text, encoding, bom };
}

/** The delimiter under which the first lines split most consistently into more than one field. */
function detectDelimiter(text: string): CsvDialect['delimiter'] {
  const sample = text.split(/\r?\n/).slice(0, 30).join('\n');
  let best: CsvDialect['delimiter'] = ',';
  let bestScore = 0;
  // On a tie ';' and tab win: a comma also appears inside decimal-comma numbers (1,5), they do not.
  for (const d of ['\t', ';', ','] as const) {
    const recs = readCsv(sample, d).records;
    const width = recs[0]?.cells.length ?? 0;
    if (width < 2) continue;
    const score = recs.filter((r) => r.cells.length === width).length;
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

const looksLikeValue = (s: string) =>
  isMissing(s) || DOT_NUMBER.test(s.trim()) || COMMA_NUMBER.test(s.trim()) || /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$/.test(s.trim());

export function readCsvTable(bytes: Uint8Array): CsvTable {
  const { text, encoding, bom } = decodeCsv(bytes);
  const delimiter = detectDelimiter(text);
  const read = readCsv(text, delimiter);
  if (read.unclosedQuoteAt !== null)
    throw new CsvFormatError(`Row ${read.unclosedQuoteAt}: a quoted field opens there and is never closed, so the file looks cut off.`);
  const records = read.records;
  if (!records.length) throw new CsvFormatError('The file holds no rows.');

  // A header row is one where no cell reads as a value (number, date or missing marker).
  const header = !records[0]!.cells.some((c) => looksLikeValue(c) && !isMissing(c));
  const width = records[0]!.cells.length;
  const names = header ? records[0]!.cells.map((h, i) => h.trim() || `column ${i + 1}`) : Array.from({ length: width }, (_, i) => `column ${i + 1}`);
  const body = header ? records.slice(1) : records;

  const raw: (string | null)[][] = body.map((r) => {
    const extra = r.cells.slice(width).findIndex((c) => c.trim() !== '');
    if (extra >= 0)
      throw new CsvFormatError(
        `Row ${r.line}, column ${width + extra + 1}: the row has ${r.cells.length} fields where the header has ${width}, so its values cannot be matched to columns.`,
      );
    // A short row (Stooq leaves out a volume it does not have) loads with the missing fields empty.
    return Array.from({ length: width }, (_, i) => {
      const c = r.cells[i];
      return c === undefined || isMissing(c) ? null : c.trim();
    });
  });

  const decimalComma = delimiter !== ',' && raw.some((r) => r.some((c) => c !== null && COMMA_NUMBER.test(c)));

  // The date column: the first one named like a date, else the first column if it holds dates.
  const named = names.findIndex((n) => namesDate(n));
  let dateCol = -1;
  let dates: ReturnType<typeof readDateColumn> = null;
  const i = named >= 0 ? named : 0;
  if (width > 0) {
    try {
      dates = readDateColumn(
        raw.map((r) => r[i]!),
        names[i]!,
      );
    } catch (e) {
      if (!(e instanceof DateColumnError)) throw e;
      throw new CsvFormatError(`Row ${body[e.index]!.line}, column ${i + 1} "${names[i]}": ${e.message}.`);
    }
    if (dates) dateCol = i;
    else if (named >= 0 && raw.some((r) => r[i] !== null)) {
      // A column named "Date" whose values are no dates is a file read wrongly, not undated data.
      const bad = raw.findIndex((r) => r[i] !== null);
      throw new CsvFormatError(`Row ${body[bad]!.line}, column ${i + 1} "${names[i]}": "${raw[bad]![i]}" is not a date.`);
    }
  }
  if (dates) {
    const missing = dates.iso.indexOf(null);
    if (missing >= 0)
      throw new CsvFormatError(
        `Row ${body[missing]!.line}, column ${dateCol + 1} "${names[dateCol]}": the date is missing, so the row cannot be placed in the series.`,
      );
  }

  const order = dateCol >= 0 ? [dateCol, ...names.map((_, i) => i).filter((i) => i !== dateCol)] : names.map((_, i) => i);
  const kinds: ColumnKind[] = order.map((i) => {
    if (i === dateCol) return 'date';
    return raw.every((r) => r[i] === null || numberText(r[i]!, decimalComma) !== null) ? 'number' : 'text';
  });
  const rows = raw.map((r, ri) =>
    order.map((i, k) => {
      if (i === dateCol) return dates!.iso[ri]!;
      const c = r[i]!;
      return c === null || kinds[k] === 'text' ? c : numberText(c, decimalComma);
    }),
  );
  const dialect: CsvDialect = {
    delimiter,
    decimalComma,
    header,
    encoding,
    bom,
    lineEnding: /\r\n/.test(text) ? 'CRLF' : 'LF',
    dates: dates?.format ?? null,
    datesNote: dates?.note ?? null,
  };
  return { dialect, header: order.map((i) => names[i]!), kinds, rows, dated: dateCol >= 0 };
}

/** One line a PM can check against the file, e.g. `; delimited, decimal comma, dates DD.MM.YYYY (…), header row, UTF-8 with BOM, CRLF`. */
export function describeDialect(d: CsvDialect): string {
  const delim = d.delimiter === '\t' ? 'tab' : d.delimiter;
  return [
    `${delim} delimited`,
    d.decimalComma ? 'decimal comma' : 'decimal point',
    d.dates ? `dates ${d.dates}${d.datesNote ? ` (${d.datesNote})` : ''}` : 'no date column',
    d.header ? 'header row' : 'no header row',
    `${d.encoding}${d.bom ? ' with BOM' : ''}`,
    d.lineEnding,
  ].join(', ');
}
