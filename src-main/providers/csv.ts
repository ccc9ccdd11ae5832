import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { z } from 'zod';
import { readCsv } from '../common/csv';
import type { ColumnKind } from './csv-table';
import { DataFolder, datasetName } from './data-folder';
import { type DataProvider, type FetchContext, ProviderError, type ProviderHealth, type ProviderResult } from './provider';

/** Parses CSV text (RFC 4180 quoting, comma separator) into rows of cells. */
export function parseCsv(text: string): string[][] {
  return readCsv(text).records.map((r) => r.cells);
}

const ISO = /^\d{4}-\d{2}-\d{2}$/;
const MAX_ROWS = 500;

const fmt = (n: number) => String(Math.round(n * 1e4) / 1e4);
const cellText = (s: string) => s.replace(/\|/g, '/').replace(/\s+/g, ' ').trim();
const day = z.string().regex(ISO, 'a date YYYY-MM-DD');

function csvParams(datasets: string[]) {
  return z.object({
    dataset: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/i, 'a dataset name')
      .describe(
        datasets.length
          ? `one of ${datasets.slice(0, 40).join(', ')}${datasets.length > 40 ? `, … (${datasets.length} in all)` : ''}`
          : 'a data file name without .csv/.tsv/.txt/.xlsx',
      ),
    columns: z.array(z.string().max(64)).max(50).optional().describe('value columns to keep (the date column always stays)'),
    start: day.optional().describe('first date to include'),
    end: day.optional().describe('last date to include'),
    last: z.number().int().min(1).max(MAX_ROWS).optional().describe('only the last N rows'),
  });
}

export type CsvParams = z.output<ReturnType<typeof csvParams>>;

export interface CsvProviderOptions {
  /** Registry name (default `datasets`). */
  name?: string;
  /** A folder of `<dataset>.csv` (.tsv, .txt, .xlsx) files, read as it is (tests, the demo). */
  dir?: string;
  /** The PM's data folder with the bundled samples (the app); takes the place of `dir`. */
  folder?: DataFolder;
  description?: string;
}

/**
 * Serves the data files of the PM's folder (and the demo's sample files) as datasets: CSV/TSV/TXT
 * exports and each sheet of an Excel workbook. The date column comes first; a session as of a
 * past date sees only the rows up to it. The folder is read on every fetch, so a file dropped in
 * or a new folder set in Settings applies at once.
 */
export class CsvProvider implements DataProvider<ReturnType<typeof csvParams>> {
  readonly name: string;
  /** The files it serves (Settings → Data → "Your data folder" reads it). */
  readonly folder: DataFolder;

  constructor(private readonly options: CsvProviderOptions) {
    this.name = options.name ?? 'datasets';
    const dir = options.dir ?? null;
    this.folder = options.folder ?? new DataFolder({ dir: () => dir });
  }

  /** Counted when read: a file dropped into the folder shows in the analyst's next hint. */
  get description(): string {
    if (this.options.description) return this.options.description;
    const n = this.datasets().length;
    return `CSV ${this.folder.hasWorkbooks() ? 'and Excel ' : ''}files (${n} dataset${n === 1 ? '' : 's'})`;
  }

  get params(): ReturnType<typeof csvParams> {
    return csvParams(this.datasets());
  }

  health(): ProviderHealth {
    if (!this.folder.exists()) return { state: 'not_configured', detail: `the folder ${this.folder.folder() ?? this.options.dir ?? ''} does not exist` };
    const n = this.datasets().length;
    const dir = this.folder.folder();
    // Settings → Data says where the PM's files are read from, and when that folder has gone.
    const where = dir ? (this.folder.folderExists() ? ` (your folder: ${dir})` : `; your folder ${dir} does not exist`) : '';
    return { state: 'ok', detail: `${n} dataset${n === 1 ? '' : 's'}${where}` };
  }

  datasets(): string[] {
    return this.folder.names();
  }

  /** Stops watching the folder (the host calls it when the core closes). */
  close(): void {
    this.folder.close();
  }

  async fetch(params: CsvParams, ctx: FetchContext = {}): Promise<ProviderResult> {
    if (ctx.signal?.aborted) throw new ProviderError('Stopped.', 'unavailable');
    const { dataset, start, columns } = params;
    const asOf = ctx.asOf;
    // A session as of a past date never sees later rows: the range ends at asOf at the latest.
    const end = asOf && (!params.end || params.end > asOf) ? asOf : params.end;
    const tables = await this.folder.tables();
    const entry = tables.get(dataset.toLowerCase());
    if (!entry) {
      // A file that failed to read says why in one sentence (row, column, reason); the rest of the folder still loads.
      const report = await this.folder.report();
      const bad = report.files.find((f) => f.problems.length && datasetName(f.file.replace(/\.[^.]+$/, '')).toLowerCase() === dataset.toLowerCase());
      if (bad) throw new ProviderError(`${bad.file}: ${bad.problems[0]}`, 'bad_response');
      const names = [...tables.values()].map((t) => t.name).sort();
      throw new ProviderError(`There is no dataset "${dataset}". Available: ${names.join(', ') || '(none)'}.`, 'not_found');
    }
    const { table, file: fileName } = entry;
    const { header, kinds, dated } = table;
    if (!table.rows.length) throw new ProviderError(`Dataset "${entry.name}" has no rows.`, 'not_found');
    let data = table.rows.map((r) => r.map((c) => c ?? ''));
    if (dated) {
      data = data.filter((r) => (!start || r[0]! >= start) && (!end || r[0]! <= end));
      data.sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0));
    } else if (params.start || params.end) throw new ProviderError(`Dataset "${dataset}" is not dated; drop start/end.`, 'bad_params');
    if (params.last !== undefined) data = data.slice(-params.last);

    let cols = header.map((_, i) => i);
    if (columns?.length) {
      const unknown = columns.filter((c) => findColumn(header, c) < 0);
      if (unknown.length) throw new ProviderError(`Unknown column(s) ${unknown.join(', ')}; "${dataset}" has ${header.join(', ')}.`, 'bad_params');
      cols = [0, ...columns.map((c) => findColumn(header, c)).filter((i) => i !== 0)];
    }
    if (!data.length) {
      const range = start || end ? ` (${start ?? '…'}..${end ?? '…'})` : '';
      throw new ProviderError(`No rows of "${dataset}" in the range asked for${range}${asOf ? ` as of ${asOf}` : ''}.`, 'not_found');
    }
    const truncated = data.length > MAX_ROWS;
    if (truncated) data = data.slice(-MAX_ROWS);

    const range = dated ? `${data[0]![0]}..${data[data.length - 1]![0]}` : `${data.length} rows`;
    // Undated data is as of the file's last change: nothing in it can be older than that proves.
    const resultAsOf = dated ? data[data.length - 1]![0]! : statSync(entry.path).mtime.toISOString().slice(0, 10);
    const source = `${entry.sheet === null ? 'csv' : 'xlsx'} ${basename(dirname(entry.path))}/${fileName}${entry.sheet === null ? '' : ` sheet "${entry.sheet}"`}`;
    const label = `${entry.name} ${range}`;
    const summary = summarise(entry.name, header, kinds, cols, data, dated);
    const fetchedAt = (ctx.now ?? (() => new Date()))().toISOString();
    const full = () =>
      [
        `# ctx — ${this.name}: ${entry.name}`,
        `source: ${source}`,
        `dataset: ${dataset}`,
        `as_of: ${resultAsOf}`,
        `rows: ${data.length}${truncated ? ` (last ${MAX_ROWS})` : ''}`,
        `range: ${range}`,
        `columns: ${cols.map((i) => header[i]).join(', ')}`,
        `dialect: ${entry.dialect}`,
        `fetched_at: ${fetchedAt}`,
        '---',
        '## SUMMARY',
        summary,
        '',
        '## DATA',
        `| ${cols.map((i) => header[i]).join(' | ')} |`,
        `|${cols.map(() => '---').join('|')}|`,
        ...data.map((r) => `| ${cols.map((i) => cellText(r[i] ?? '')).join(' | ')} |`),
        '',
      ].join('\n');
    return { label, asOf: resultAsOf, source, formatFull: full, formatSummary: () => summary };
  }
}

/** `Adj Close` → `adj_close`: a column name with case, spaces and punctuation set aside. */
export const columnKey = (name: string) =>
  name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '');

/**
 * A column by its exact name, else by `columnKey` when that names exactly one column: Yahoo's
 * `Adj Close` can be asked for as `adj_close`, as an Expression's `price_series` usually writes it.
 */
export function findColumn(header: string[], wanted: string): number {
  const exact = header.indexOf(wanted);
  if (exact >= 0) return exact;
  const hits = header.flatMap((h, i) => (columnKey(h) === columnKey(wanted) ? [i] : []));
  return hits.length === 1 ? hits[0]! : -1;
}

/**
 * About 100 tokens: per numeric column first → last, change, range (missing values skipped and
 * counted, never read as 0); text columns: the latest entry.
 */
function summarise(dataset: string, header: string[], kinds: ColumnKind[], cols: number[], data: string[][], dated: boolean): string {
  const parts: string[] = [`${dataset}: ${data.length} rows${dated ? ` ${data[0]![0]}..${data[data.length - 1]![0]}` : ''}.`];
  const valueCols = cols.filter((i) => !(dated && i === 0));
  let shown = 0;
  for (const i of valueCols) {
    if (shown >= 4) {
      parts.push(`(+${valueCols.length - shown} more columns)`);
      break;
    }
    const values = data.filter((r) => r[i] !== '').map((r) => Number(r[i]));
    if (kinds[i] === 'number' && values.length > 0) {
      const first = values[0]!;
      const lastV = values[values.length - 1]!;
      const d = lastV - first;
      const gaps = data.length - values.length;
      const missing = gaps ? `; ${gaps} missing` : '';
      parts.push(
        `${header[i]} ${fmt(first)}→${fmt(lastV)} (${d >= 0 ? '+' : ''}${fmt(d)}; min ${fmt(Math.min(...values))}, max ${fmt(Math.max(...values))}${missing}).`,
      );
    } else {
      const latest = cellText(data[data.length - 1]![i] ?? '');
      parts.push(`${header[i]} (latest): "${latest.length > 120 ? latest.slice(0, 120) + '…' : latest}".`);
    }
    shown++;
  }
  return parts.join(' ');
}
