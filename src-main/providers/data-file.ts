import { readFileSync } from 'node:fs';
import { type CsvTable, CsvFormatError, describeDialect, readCsvTable } from './csv-table';
import { readVendorFile, VENDOR_FILE } from './market/vendor-files';
import { readXlsxTables, XlsxFormatError } from './xlsx-table';

/**
 * One file of the PM's data folder, read: a CSV/TSV/TXT export, an Excel workbook (a table per
 * sheet), or a saved vendor answer (Yahoo chart JSON, FRED XML). A file that cannot be read gives
 * one sentence (which row, which column, why) and never stops the rest of the folder.
 */

const MAX_BYTES = { csv: 50 * 1024 * 1024, xlsx: 20 * 1024 * 1024 };

export interface ParsedFile {
  tables: { sheet: string | null; table: CsvTable; dialect: string }[];
  dialect: string | null;
  problems: string[];
}

/** One file, read: its tables, its dialect, and one sentence per problem (the rest of the folder is unaffected). */
export async function parseDataFile(path: string, file: string, size: number): Promise<ParsedFile> {
  if (file.toLowerCase().endsWith('.xls'))
    return {
      tables: [],
      dialect: null,
      problems: ['Not read: this is the old Excel 97-2003 format (.xls); open it in Excel and save it as .xlsx (Excel Workbook).'],
    };
  const xlsx = file.toLowerCase().endsWith('.xlsx');
  const limit = xlsx ? MAX_BYTES.xlsx : MAX_BYTES.csv;
  if (size > limit)
    return {
      tables: [],
      dialect: null,
      problems: [`Not read: ${Math.round(size / 1048576)} MB is more than the ${limit / 1048576} MB Forge reads from one file.`],
    };
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    return {
      tables: [],
      dialect: null,
      problems: [`Not read: ${(e as NodeJS.ErrnoException).code === 'EACCES' ? 'Forge may not read it (permissions)' : 'it went away while being read'}.`],
    };
  }
  // A saved Yahoo chart JSON or FRED XML answer: the same table a CSV gives, its events in the dialect sentence.
  if (VENDOR_FILE.test(file)) {
    try {
      const v = readVendorFile(file, bytes);
      const dialect = [v.dialect, ...v.notes].join('. ');
      return {
        tables: v.table.rows.length ? [{ sheet: null, table: v.table, dialect }] : [],
        dialect,
        problems: v.table.rows.length ? [] : ['It holds no rows.'],
      };
    } catch (e) {
      if (e instanceof CsvFormatError) return { tables: [], dialect: null, problems: [e.message] };
      throw e;
    }
  }
  if (!xlsx) {
    try {
      const table = readCsvTable(bytes);
      if (!table.rows.length) return { tables: [], dialect: describeDialect(table.dialect), problems: ['It has a header but no rows.'] };
      return { tables: [{ sheet: null, table, dialect: describeDialect(table.dialect) }], dialect: describeDialect(table.dialect), problems: [] };
    } catch (e) {
      if (e instanceof CsvFormatError) return { tables: [], dialect: null, problems: [e.message] };
      throw e;
    }
  }
  try {
    const sheets = await readXlsxTables(bytes);
    const tables = sheets.filter((s) => s.table?.rows.length).map((s) => ({ sheet: s.sheet, table: s.table!, dialect: s.dialect! }));
    const problems = sheets.flatMap((s) => (s.problem ? [`${s.problem.charAt(0).toUpperCase()}${s.problem.slice(1)}`] : []));
    if (!tables.length && !problems.length) problems.push('Every sheet is empty.');
    return { tables, dialect: tables.map((t) => t.dialect).join('; ') || null, problems };
  } catch (e) {
    if (e instanceof XlsxFormatError) return { tables: [], dialect: null, problems: [`Not read: ${e.message}`] };
    throw e;
  }
}
