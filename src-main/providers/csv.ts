import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ProviderError, type FetchResult, type Provider } from './types';

/** Parses CSV text (RFC 4180 quoting, comma separator) into rows of cells. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      if (row.some((x) => x.trim() !== '')) rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  row.push(cell);
  if (row.some((x) => x.trim() !== '')) rows.push(row);
  return rows;
}

const DATASET = /^[a-z0-9][a-z0-9_-]{0,63}$/i;
const ISO = /^\d{4}-\d{2}-\d{2}$/;
const MAX_ROWS = 500;

const num = (s: string | undefined): number | null => {
  if (s === undefined || s.trim() === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
};
const fmt = (n: number) => String(Math.round(n * 1e4) / 1e4);
const cellText = (s: string) => s.replace(/\|/g, '/').replace(/\s+/g, ' ').trim();

export interface CsvProviderOptions {
  /** Registry name (default `market`). */
  name?: string;
  /** Folder of `<dataset>.csv` files. */
  dir: string;
  description?: string;
  now?: () => Date;
}

/**
 * Serves the CSV files of one folder as datasets (the sample data of the demo, or a PM's own
 * exports). The first column is the date when its values look like YYYY-MM-DD.
 */
export class CsvProvider implements Provider {
  readonly name: string;
  readonly description: string;
  private readonly now: () => Date;

  constructor(private readonly options: CsvProviderOptions) {
    this.name = options.name ?? 'market';
    this.now = options.now ?? (() => new Date());
    this.description = options.description ?? `local CSV datasets (${this.datasets().join(', ') || 'none'}); params {dataset, columns?, start?, end?, last?}`;
  }

  datasets(): string[] {
    if (!existsSync(this.options.dir)) return [];
    return readdirSync(this.options.dir)
      .filter((f) => f.endsWith('.csv') && statSync(join(this.options.dir, f)).isFile())
      .map((f) => f.slice(0, -4))
      .sort();
  }

  async fetch(params: Record<string, unknown>, signal?: AbortSignal): Promise<FetchResult> {
    if (signal?.aborted) throw new ProviderError('stopped');
    const dataset = params.dataset;
    const available = this.datasets();
    if (typeof dataset !== 'string' || !DATASET.test(dataset)) {
      throw new ProviderError(`params.dataset must name a dataset: one of ${available.join(', ') || '(none)'}.`);
    }
    if (!available.includes(dataset)) throw new ProviderError(`There is no dataset "${dataset}". Available: ${available.join(', ') || '(none)'}.`);
    const start = params.start === undefined ? undefined : String(params.start);
    const end = params.end === undefined ? undefined : String(params.end);
    for (const [k, v] of [
      ['start', start],
      ['end', end],
    ] as const) {
      if (v !== undefined && !ISO.test(v)) throw new ProviderError(`params.${k} must be a date YYYY-MM-DD (got "${v.slice(0, 20)}").`);
    }
    const last = params.last === undefined ? undefined : Number(params.last);
    if (last !== undefined && (!Number.isInteger(last) || last < 1)) throw new ProviderError('params.last must be a positive whole number of rows.');

    const rows = parseCsv(readFileSync(join(this.options.dir, `${dataset}.csv`), 'utf8'));
    if (rows.length < 2) throw new ProviderError(`Dataset "${dataset}" has no rows.`);
    const header = rows[0]!.map((h) => h.trim());
    let data = rows.slice(1);
    const dated = data.every((r) => ISO.test((r[0] ?? '').trim()));
    if (dated) {
      data = data.filter((r) => (!start || r[0]! >= start) && (!end || r[0]! <= end));
      data.sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0));
    } else if (start || end) throw new ProviderError(`Dataset "${dataset}" is not dated; drop start/end.`);
    if (last !== undefined) data = data.slice(-last);

    let cols = header.map((_, i) => i);
    if (Array.isArray(params.columns) && params.columns.length) {
      const wanted = params.columns.map(String);
      const unknown = wanted.filter((c) => !header.includes(c));
      if (unknown.length) throw new ProviderError(`Unknown column(s) ${unknown.join(', ')}; "${dataset}" has ${header.join(', ')}.`);
      cols = [0, ...wanted.map((c) => header.indexOf(c)).filter((i) => i !== 0)];
    }
    if (!data.length) throw new ProviderError(`No rows of "${dataset}" in the range asked for${start || end ? ` (${start ?? '…'}..${end ?? '…'})` : ''}.`);
    const truncated = data.length > MAX_ROWS;
    if (truncated) data = data.slice(-MAX_ROWS);

    const range = dated ? `${data[0]![0]}..${data[data.length - 1]![0]}` : `${data.length} rows`;
    const label = `${dataset} ${range}`;
    const summary = summarise(dataset, header, cols, data, dated);
    const full = [
      `# ctx — ${this.name}: ${dataset}`,
      `source: ${this.name} (csv)`,
      `dataset: ${dataset}`,
      `rows: ${data.length}${truncated ? ` (last ${MAX_ROWS})` : ''}`,
      `range: ${range}`,
      `columns: ${cols.map((i) => header[i]).join(', ')}`,
      `fetched_at: ${this.now().toISOString()}`,
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
    return { label, full, summary };
  }
}

/** About 100 tokens: per numeric column first → last, change, range; text columns: the latest entry. */
function summarise(dataset: string, header: string[], cols: number[], data: string[][], dated: boolean): string {
  const parts: string[] = [`${dataset}: ${data.length} rows${dated ? ` ${data[0]![0]}..${data[data.length - 1]![0]}` : ''}.`];
  const valueCols = cols.filter((i) => !(dated && i === 0));
  let shown = 0;
  for (const i of valueCols) {
    if (shown >= 4) {
      parts.push(`(+${valueCols.length - shown} more columns)`);
      break;
    }
    const values = data.map((r) => num(r[i])).filter((v): v is number => v !== null);
    if (values.length === data.length && values.length > 0) {
      const first = values[0]!;
      const lastV = values[values.length - 1]!;
      const d = lastV - first;
      parts.push(`${header[i]} ${fmt(first)}→${fmt(lastV)} (${d >= 0 ? '+' : ''}${fmt(d)}; min ${fmt(Math.min(...values))}, max ${fmt(Math.max(...values))}).`);
    } else {
      const latest = cellText(data[data.length - 1]![i] ?? '');
      parts.push(`${header[i]} (latest): "${latest.length > 120 ? latest.slice(0, 120) + '…' : latest}".`);
    }
    shown++;
  }
  return parts.join(' ');
}
