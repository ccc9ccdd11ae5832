/**
 * The one RFC 4180 reader (the positions import and the CSV data provider both use it): quoted
 * fields may hold the separator, doubled quotes and line breaks. Each record keeps the file line
 * it starts on, so an error can name it. Blank records are dropped.
 */
export interface CsvRecord {
  cells: string[];
  /** 1-based line of the file the record starts on. */
  line: number;
}

export interface CsvRead {
  records: CsvRecord[];
  /** The line of a quoted field left open at the end of the text, or null. */
  unclosedQuoteAt: number | null;
  /**
   * The line of the first quoted field that runs over line breaks and is "closed" by a quote
   * followed by more text: almost surely a quote left open, paired with the next row's quote.
   */
  strayQuoteAt: number | null;
}

export function readCsv(text: string, separator = ','): CsvRead {
  const out: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let openedOn = 1;
  let strayQuoteAt: number | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
        const next = text[i + 1];
        const ends = next === undefined || next === separator || next === '\n' || next === '\r';
        if (!ends && line !== openedOn && strayQuoteAt === null) strayQuoteAt = openedOn;
      } else {
        if (c === '\n') line++;
        cell += c;
      }
    } else if (c === '"' && cell.trim() === '') {
      quoted = true;
      openedOn = line;
      cell = '';
    } else if (c === separator) {
      cells.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      cells.push(cell);
      out.push({ cells, line: start });
      cells = [];
      cell = '';
      line++;
      start = line;
    } else cell += c;
  }
  if (cell !== '' || cells.length) {
    cells.push(cell);
    out.push({ cells, line: start });
  }
  return { records: out.filter((r) => r.cells.some((c) => c.trim() !== '')), unclosedQuoteAt: quoted ? start : null, strayQuoteAt };
}

export interface CsvReadEveryRow {
  records: CsvRecord[];
  /** Lines where a quoted field opens and is never closed, first to last. */
  unclosedQuotes: number[];
}

/**
 * Like readCsv, but a quote left open does not swallow the rest of the file: the line it opens
 * on is reported and reading starts again on the next line, so an importer can still list every
 * other row's problem in the same answer (one stray quote must not hide twenty bad rows).
 */
export function readCsvEveryRow(text: string, separator = ','): CsvReadEveryRow {
  const records: CsvRecord[] = [];
  const unclosedQuotes: number[] = [];
  let rest = text;
  let offset = 0;
  for (;;) {
    const read = readCsv(rest, separator);
    // A stray quote comes before any quote left open at the end: it is what opened the run.
    const at = read.strayQuoteAt ?? read.unclosedQuoteAt;
    if (at === null) {
      records.push(...read.records.map((r) => ({ ...r, line: r.line + offset })));
      return { records, unclosedQuotes };
    }
    const open = at;
    records.push(...read.records.filter((r) => r.line < open).map((r) => ({ ...r, line: r.line + offset })));
    unclosedQuotes.push(open + offset);
    const next = startOfLine(rest, open + 1);
    if (next === null) return { records, unclosedQuotes };
    rest = rest.slice(next);
    offset += open;
  }
}

/** Offset where 1-based line `n` starts, counting \r\n, \n and \r as readCsv does; null past the end. */
function startOfLine(text: string, n: number): number | null {
  let line = 1;
  for (let i = 0; i < text.length && line < n; i++) {
    if (text[i] === '\r' && text[i + 1] === '\n') i++;
    if (text[i] === '\n' || text[i] === '\r') {
      line++;
      if (line === n) return i + 1;
    }
  }
  return line === n ? 0 : null;
}
