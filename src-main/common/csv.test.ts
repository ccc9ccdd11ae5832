import { describe, expect, it } from 'vitest';
import { readCsv, readCsvEveryRow } from './csv';

describe('readCsv (RFC 4180)', () => {
  it('keeps separators, doubled quotes and line breaks inside quoted fields, and the line each record starts on', () => {
    const r = readCsv('a,b\n"x, y","say ""hi"""\r\n\n"two\nlines",z\n');
    expect(r.records).toEqual([
      { cells: ['a', 'b'], line: 1 },
      { cells: ['x, y', 'say "hi"'], line: 2 },
      { cells: ['two\nlines', 'z'], line: 4 },
    ]);
    expect(r.unclosedQuoteAt).toBeNull();
  });

  it('reads another separator and reports a quote left open (a truncated export must not import)', () => {
    expect(readCsv('a;b\n1;2', ';').records.map((x) => x.cells)).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(readCsv('a,b\n"1,2\n').unclosedQuoteAt).toBe(2);
  });
});

describe('readCsvEveryRow', () => {
  it('reports each open quote by line and goes on reading the rows after it', () => {
    const r = readCsvEveryRow('h\r\n"a\r\nb\n"c\nd\n');
    expect(r.unclosedQuotes).toEqual([2, 4]);
    expect(r.records).toEqual([
      { cells: ['h'], line: 1 },
      { cells: ['b'], line: 3 },
      { cells: ['d'], line: 5 },
    ]);
  });
});
