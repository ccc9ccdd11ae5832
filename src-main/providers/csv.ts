import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { readCsv } from '../common/csv';
import { type ColumnKind, CsvFormatError, describeDialect, readCsvTable } from './csv-table';
import { type DataProvider, type FetchContext, ProviderError, type ProviderHealth, type ProviderResult } from './provider';

/** Parses CSV text (RFC 4180 quoting, comma separator) into rows of cells. */
export function parseCsv(text: string): string[][] {
  return readCsv(text).records.map((r) => r.cells);
}

const ISO = /^\d{4}-\d{2}-\d{2}$/;
const MAX_ROWS = 500;
const DATA_FILE = /\.(csv|tsv|txt)$/i;

const fmt = (n: number) => String(Math.round(n * 1e4) / 1e4);
const cellText = (s: string) => s.replace(/\|/g, '/').replace(/\s+/g, ' ').trim();
const day = z.string().regex(ISO, 'a date YYYY-MM-DD');

function csvParams(datasets: string[]) {
  return z.object({
    dataset: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/i, 'a dataset name')
      .describe(datasets.length ? `one of ${datasets.join(', ')}` : 'a CSV file name without .csv/.tsv/.txt'),
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
  /** Folder of `<dataset>.csv` (or .tsv, .txt) files. */
  dir: string;
  description?: string;
}

/**
 * Serves the CSV files of one folder as datasets (the sample data of the demo, or a PM's own
 * exports). The first column is the date when its values look like YYYY-MM-DD; a session as of a
 * past date sees only the rows up to it.
 */
export class CsvProvider implements DataProvider<ReturnType<typeof csvParams>> {
  readonly name: string;
  readonly description: string;
  readonly params: ReturnType<typeof csvParams>;

  constructor(private readonly options: CsvProviderOptions) {
    this.name = options.name ?? 'datasets';
    const sets = this.datasets();
    this.description = options.description ?? `CSV files (${sets.length} dataset${sets.length === 1 ? '' : 's'})`;
    this.params = csvParams(sets);
  }

  health(): ProviderHealth {
    if (!existsSync(this.options.dir)) return { state: 'not_configured', detail: `the folder ${this.options.dir} does not exist` };
    return { state: 'ok', detail: `${this.datasets().length} datasets` };
  }

  datasets(): string[] {
    return [...this.files().keys()].sort();
  }

  /** Dataset name → file name; a name taken by a .csv keeps it over a .tsv or .txt of the same name. */
  private files(): Map<string, string> {
    const out = new Map<string, string>();
    if (!existsSync(this.options.dir)) return out;
    const all = readdirSync(this.options.dir).filter((f) => DATA_FILE.test(f) && statSync(join(this.options.dir, f)).isFile());
    for (const ext of ['.csv', '.tsv', '.txt']) {
      for (const f of all) if (f.toLowerCase().endsWith(ext) && !out.has(f.slice(0, -4))) out.set(f.slice(0, -4), f);
    }
    return out;
  }

  async fetch(params: CsvParams, ctx: FetchContext = {}): Promise<ProviderResult> {
    if (ctx.signal?.aborted) throw new ProviderError('Stopped.', 'unavailable');
    const { dataset, start, columns } = params;
    const asOf = ctx.asOf;
    // A session as of a past date never sees later rows: the range ends at asOf at the latest.
    const end = asOf && (!params.end || params.end > asOf) ? asOf : params.end;
    const files = this.files();
    const fileName = files.get(dataset);
    if (!fileName) throw new ProviderError(`There is no dataset "${dataset}". Available: ${this.datasets().join(', ') || '(none)'}.`, 'not_found');
    const file = join(this.options.dir, fileName);
    let table: ReturnType<typeof readCsvTable>;
    try {
      table = readCsvTable(readFileSync(file));
    } catch (e) {
      // One sentence naming the row, column and why; the other files of the folder stay readable.
      if (e instanceof CsvFormatError) throw new ProviderError(`${fileName}: ${e.message}`, 'bad_response');
      throw e;
    }
    const { header, kinds, dated } = table;
    if (!table.rows.length) throw new ProviderError(`Dataset "${dataset}" has no rows.`, 'not_found');
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
    const resultAsOf = dated ? data[data.length - 1]![0]! : statSync(file).mtime.toISOString().slice(0, 10);
    const source = `csv ${basename(this.options.dir)}/${fileName}`;
    const label = `${dataset} ${range}`;
    const summary = summarise(dataset, header, kinds, cols, data, dated);
    const fetchedAt = (ctx.now ?? (() => new Date()))().toISOString();
    const full = () =>
      [
        `# ctx — ${this.name}: ${dataset}`,
        `source: ${source}`,
        `dataset: ${dataset}`,
        `as_of: ${resultAsOf}`,
        `rows: ${data.length}${truncated ? ` (last ${MAX_ROWS})` : ''}`,
        `range: ${range}`,
        `columns: ${cols.map((i) => header[i]).join(', ')}`,
        `dialect: ${describeDialect(table.dialect)}`,
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
