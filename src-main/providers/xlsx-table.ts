import readXlsxFile from 'read-excel-file/node';
import { namesDate } from './csv-dates';
import { type CsvTable, CsvFormatError, readCsvTable } from './csv-table';

/**
 * Reads an Excel workbook (.xlsx) as tables: one per sheet, through the same typing as a CSV
 * (header row, date column and its order, missing markers such as `#N/A`), so a sheet and a CSV
 * export of it load the same. Cells Excel stores as dates (a date number format) come out as ISO
 * days; a serial number in a column named like a date is read as an Excel serial by the date rules.
 */

export interface XlsxSheetTable {
  sheet: string;
  /** The sheet as a table, or null when it is empty or unreadable (then `problem` says why). */
  table: CsvTable | null;
  /** One sentence: which row, which column, why (null when the sheet loaded or is just empty). */
  problem: string | null;
  /** How its dates were written: `Excel date cells` or the text format found. */
  dialect: string | null;
}

/** Why a workbook could not be opened at all (not a zip, not a spreadsheet, password-protected). */
export class XlsxFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XlsxFormatError';
  }
}

type Cell = string | number | boolean | Date | null;

const isoDay = (d: Date) => (Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 10));

function cellText(v: Cell): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return isoDay(v);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  // A line break inside a cell would move every later row to another line of the text read below.
  return String(v).replace(/[\r\n]+/g, ' ');
}

const quote = (s: string) => (/[",;\t]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s);

export async function readXlsxTables(bytes: Uint8Array): Promise<XlsxSheetTable[]> {
  let sheets: { sheet: string; data: unknown[][] }[];
  try {
    sheets = (await readXlsxFile(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { trim: false })) as unknown as typeof sheets;
  } catch (e) {
    throw new XlsxFormatError(`it is not a readable Excel workbook (${String((e as Error)?.message ?? e).slice(0, 160)}); save it again from Excel as .xlsx.`);
  }
  return sheets.map(({ sheet, data }) => {
    const rows = data as Cell[][];
    if (!rows.some((r) => r.some((c) => c !== null && cellText(c).trim() !== ''))) return { sheet, table: null, problem: null, dialect: null };
    // Notes above the table (FRED's and Bloomberg's exports open with a title block) are left out;
    // each sheet row stays one line, so a row number in a message is the row Excel shows.
    const start = tableStart(rows);
    const text = rows.map((r, i) => (i < start ? '' : r.map((c) => quote(cellText(c))).join(','))).join('\n');
    try {
      const table = readCsvTable(Buffer.from(text, 'utf8'));
      const dateCells = rows.some((r) => r.some((c) => c instanceof Date));
      const d = table.dialect;
      const dates = !d.dates
        ? 'no date column'
        : dateCells && d.dates === 'YYYY-MM-DD'
          ? 'dates from Excel date cells'
          : `dates ${d.dates}${d.datesNote ? ` (${d.datesNote})` : ''}`;
      const header = d.header ? `header row ${start + 1}${start ? ` (${start} rows of notes above it skipped)` : ''}` : 'no header row';
      return { sheet, table, problem: null, dialect: `Excel workbook, sheet "${sheet}", ${dates}, ${header}` };
    } catch (e) {
      if (e instanceof CsvFormatError) return { sheet, table: null, problem: `sheet "${sheet}": ${lowerFirst(e.message)}`, dialect: null };
      throw e;
    }
  });
}

const filled = (c: Cell) => c !== null && c !== undefined && cellText(c).trim() !== '';
const DATE_TEXT = /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}/;

/**
 * The row the table's header is on: the first row of two or more text cells whose next row opens
 * with a date (a date cell, a date as text, or a number under a column named like a date). A sheet
 * with no such row starts at its first row.
 */
function tableStart(rows: Cell[][]): number {
  for (let r = 0; r + 1 < rows.length && r < 50; r++) {
    const head = rows[r]!.filter(filled);
    if (head.length < 2 || !head.every((c) => typeof c === 'string')) continue;
    const next = rows[r + 1]!;
    const at = next.findIndex(filled);
    if (at < 0) continue;
    const first = next[at]!;
    const title = rows[r]![at];
    if (
      first instanceof Date ||
      (typeof first === 'string' && DATE_TEXT.test(first.trim())) ||
      (typeof first === 'number' && typeof title === 'string' && namesDate(title))
    )
      return r;
  }
  return 0;
}

const lowerFirst = (s: string) => (s.startsWith('Row ') ? `row ${s.slice(4)}` : s);
