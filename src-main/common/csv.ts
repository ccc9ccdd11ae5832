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
}

export function readCsv(text: string, separator = ','): CsvRead {
  const out: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        cell += c;
      }
    } else if (c === '"' && cell.trim() === '') {
      quoted = true;
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
  return { records: out.filter((r) => r.cells.some((c) => c.trim() !== '')), unclosedQuoteAt: quoted ? start : null };
}
