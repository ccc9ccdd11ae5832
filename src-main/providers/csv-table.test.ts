import { describe, expect, it } from 'vitest';
import { DateColumnError, readDateColumn } from './csv-dates';
import { decodeCsv, describeDialect, numberText, readCsvTable } from './csv-table';

const bytes = (s: string) => Buffer.from(s, 'utf8');

describe('date reader', () => {
  it('infers the day/month order from the whole column: one value above 12 decides it (else 03/04 would silently become 4 March)', () => {
    const us = readDateColumn(['03/04/2024', '03/13/2024'], 'Date')!;
    expect(us).toMatchObject({ format: 'MM/DD/YYYY', note: 'inferred: 03/13/2024 has month first', iso: ['2024-03-04', '2024-03-13'] });
    const eu = readDateColumn(['03/04/2024', '13/04/2024', null], 'Date')!;
    expect(eu).toMatchObject({ format: 'DD/MM/YYYY', iso: ['2024-04-03', '2024-04-13', null] });
  });

  it('refuses a column where every date could be either order, or where both orders appear, naming the value', () => {
    expect(() => readDateColumn(['01/02/2024', '03/04/2024'], 'date')).toThrow(DateColumnError);
    expect(() => readDateColumn(['01/02/2024', '03/04/2024'], 'date')).toThrow('could be day-first or month-first');
    expect(() => readDateColumn(['13/01/2024', '01/13/2024'], 'date')).toThrow('mixes day-first dates ("13/01/2024") with month-first ones ("01/13/2024")');
    // ISO is never ambiguous.
    expect(readDateColumn(['2024-01-02', '2024-03-04'], 'x')).toMatchObject({ format: 'YYYY-MM-DD', note: null });
  });

  it('reads compact and Excel serial dates only in a column named like a date (a price of 45322 is not a date)', () => {
    expect(readDateColumn(['20240131'], '<DATE>')).toMatchObject({ format: 'YYYYMMDD', iso: ['2024-01-31'] });
    expect(readDateColumn(['45322', '45351'], 'Date')).toMatchObject({ format: 'Excel serial', iso: ['2024-01-31', '2024-02-29'] });
    expect(readDateColumn(['45322'], 'close')).toBeNull();
    expect(readDateColumn(['2024-01-31 00:00:00', '2024-02-01T00:00:00Z'], 'ts')).toMatchObject({ iso: ['2024-01-31', '2024-02-01'] });
  });

  it('names an impossible date or one written differently from the rest', () => {
    expect(() => readDateColumn(['2024-01-01', '2024-02-30'], 'd')).toThrow('"2024-02-30" is not a calendar date');
    expect(() => readDateColumn(['2024-01-01', 'soon'], 'd')).toThrow('"soon" is not a date written like "2024-01-01" above it');
  });
});

describe('dialect detector', () => {
  it('falls back to Windows-1252 when the bytes are not valid UTF-8, keeping € and accents', () => {
    const d = decodeCsv(Uint8Array.from([0x80, 0x3b, 0x4d, 0xfc, 0x6e]));
    expect(d).toEqual({ text: '€;Mün', encoding: 'Windows-1252', bom: false });
    expect(decodeCsv(bytes('\uFEFFa,b'))).toEqual({ text: 'a,b', encoding: 'UTF-8', bom: true });
  });

  it('reads decimal-comma numbers with thousands points only when the file uses a decimal comma', () => {
    expect(numberText('1.234,5', true)).toBe('1234.5');
    expect(numberText('-0,25', true)).toBe('-0.25');
    expect(numberText('1.234,5', false)).toBeNull();
    expect(numberText('3.50', false)).toBe('3.50');
  });

  it('reads a file without a header row under numbered column names and says so', () => {
    const t = readCsvTable(bytes('2024-01-01;1,5\n2024-01-02;2,5\n'));
    expect(t.header).toEqual(['column 1', 'column 2']);
    expect(t.rows).toEqual([
      ['2024-01-01', '1.5'],
      ['2024-01-02', '2.5'],
    ]);
    expect(describeDialect(t.dialect)).toBe('; delimited, decimal comma, dates YYYY-MM-DD, no header row, UTF-8, LF');
  });

  it('puts a date column that is not first in front, and keeps a text column with missing markers as text with gaps', () => {
    const t = readCsvTable(bytes('ticker,observation_date,px,comment\nA,2024-01-02,1,ok\nA,2024-01-03,#N/A,N/A\n'));
    expect(t.header).toEqual(['observation_date', 'ticker', 'px', 'comment']);
    expect(t.kinds).toEqual(['date', 'text', 'number', 'text']);
    expect(t.rows[1]).toEqual(['2024-01-03', 'A', null, null]);
  });
});
