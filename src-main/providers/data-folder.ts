import { type FSWatcher, readdirSync, type Stats, statSync, watch } from 'node:fs';
import { extname, join } from 'node:path';
import type { CsvTable } from './csv-table';
import { type ParsedFile, parseDataFile } from './data-file';

/**
 * The PM's data folder (Settings → Data → "Your data folder") and the bundled sample files, as
 * named tables. Each CSV/TSV/TXT file is one dataset named after the file; each sheet of an Excel
 * workbook is one (see `datasetName`). Files are parsed once per version (keyed by mtime and size);
 * the folder is listed on every read, so a file dropped in is seen at once even without a watcher.
 * The watcher parses changes ahead of the next read and tells listeners (the Data screen).
 */

/** Data files; `.xls` (Excel 97-2003) is listed only to say how to make it readable. */
export const DATA_FILE = /\.(csv|tsv|txt|xlsx|json|xml|xls)$/i;
/** Which file keeps a dataset name two files would share: a CSV over a TSV, a TXT or a workbook. */
const EXT_ORDER = ['.csv', '.tsv', '.txt', '.xlsx', '.json', '.xml', '.xls'];
/** More would make the folder slow to list and the analyst's hint unreadable; the rest is reported. */
const MAX_FILES = 500;

export interface DatasetTable {
  /** What the analyst and an Expression name it: `<dataset>.<column>`. */
  name: string;
  file: string;
  path: string;
  origin: 'folder' | 'sample';
  /** The workbook sheet, for .xlsx. */
  sheet: string | null;
  table: CsvTable;
  /** One sentence on how the file is written (delimiter, decimal comma, dates, header, encoding, BOM). */
  dialect: string;
}

export interface DatasetSummary {
  name: string;
  sheet: string | null;
  columns: string[];
  rows: number;
  first: string | null;
  last: string | null;
}

export interface FileReport {
  file: string;
  origin: 'folder' | 'sample';
  bytes: number;
  modified: string;
  datasets: DatasetSummary[];
  /** The dialect sentence (for a workbook: one per sheet, joined). */
  dialect: string | null;
  /** One sentence per problem: which row, which column, why; or a name clash. */
  problems: string[];
}

export interface FolderReport {
  /** The PM's folder, or null when none is set up (tests, the demo workspace). */
  folder: string | null;
  exists: boolean;
  files: FileReport[];
}

export interface DataFolderOptions {
  /** The PM's folder, read on every use (the setting applies without restart); null: none. */
  dir: () => string | null;
  /** Bundled sample files served after the PM's: the PM's file wins a name clash. */
  samplesDir?: string | null;
  /** Watch the PM's folder and re-read it on change (the app: on; tests of other parts: off). */
  watch?: boolean;
  /** Quiet time after the last change before re-reading (editors write in several steps). */
  debounceMs?: number;
  /** How often the watcher checks that its folder is still the one set and still there. */
  healMs?: number;
}

interface Listed {
  file: string;
  path: string;
  origin: 'folder' | 'sample';
  stat: Stats;
}

const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/i;

/**
 * A file's dataset name: its name without the extension as written (`spy.us.csv` → `spy.us`,
 * matched without regard to case); other characters (spaces, brackets) become `_`
 * (`SPY (1).csv` → `SPY_1`). An Expression names a column as `<dataset>.<column>`.
 */
export function datasetName(stem: string): string {
  if (NAME.test(stem)) return stem;
  const slug = stem
    .replace(/[^a-z0-9._-]+/gi, '_')
    .replace(/^[^a-z0-9]+|_+$/gi, '')
    .slice(0, 64);
  return slug || 'data';
}

/** The dataset names of a workbook: the file's name when one sheet holds data, `<file>.<sheet>` for each of several. */
export function sheetDatasetName(stem: string, sheet: string, sheets: number): string {
  return sheets === 1 ? datasetName(stem) : datasetName(`${datasetName(stem)}.${sheet}`.slice(0, 64));
}

/** The PM's data folder: the one set in Settings → Data, else `<dataDir>/datasets`. */
export function dataFolderPath(dataDir: string, setting: string | undefined): string {
  const set = setting?.trim();
  return set ? set : join(dataDir, 'datasets');
}

const stemOf = (file: string) => file.slice(0, file.length - extname(file).length);

export class DataFolder {
  private readonly cache = new Map<string, { key: string; parsed: ParsedFile }>();
  private readonly pending = new Map<string, Promise<ParsedFile>>();
  private readonly listeners = new Set<(report: FolderReport) => void>();
  private watcher: { dir: string; ino: number; w: FSWatcher } | null = null;
  private debounce: NodeJS.Timeout | null = null;
  private heal: NodeJS.Timeout | null = null;
  private lastSignature = '';
  private closed = false;

  constructor(private readonly options: DataFolderOptions) {
    if (options.watch) {
      this.arm();
      // fs.watch stops quietly when its folder is deleted or replaced, and the setting may point
      // elsewhere: a light check re-arms it (and re-reads) whenever the folder is not the one watched.
      this.heal = setInterval(() => this.arm(), options.healMs ?? 1000);
      this.heal.unref();
    }
  }

  folder(): string | null {
    return this.options.dir();
  }

  /** Calls `fn` with the new report after the folder changed (a file written, renamed, deleted). */
  onChange(fn: (report: FolderReport) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  close(): void {
    this.closed = true;
    this.watcher?.w.close();
    this.watcher = null;
    if (this.debounce) clearTimeout(this.debounce);
    if (this.heal) clearInterval(this.heal);
    this.listeners.clear();
  }

  /** Every dataset, by lower-case name; the PM's files first, so theirs keeps a name a sample file also has. */
  async tables(): Promise<Map<string, DatasetTable>> {
    return (await this.read()).tables;
  }

  async report(): Promise<FolderReport> {
    return (await this.read()).report;
  }

  /**
   * Dataset names known without parsing anything new (for the analyst's hint): parsed files give
   * theirs, a file not parsed yet its own name.
   */
  names(): string[] {
    // Keyed by lower case: the first file to give a name keeps it, as when the folder is read.
    const out = new Map<string, string>();
    const add = (name: string) => {
      if (!out.has(name.toLowerCase())) out.set(name.toLowerCase(), name);
    };
    for (const f of this.list()) {
      const hit = this.cache.get(f.path);
      const parsed = hit?.key === keyOf(f.stat) ? hit.parsed : null;
      if (parsed) {
        const n = parsed.tables.length;
        for (const t of parsed.tables) add(t.sheet === null ? datasetName(stemOf(f.file)) : sheetDatasetName(stemOf(f.file), t.sheet, n));
      } else add(datasetName(stemOf(f.file)));
    }
    return [...out.values()].sort();
  }

  /** True when any file is a workbook (the analyst's hint then says Excel too). */
  hasWorkbooks(): boolean {
    return this.list().some((f) => f.file.toLowerCase().endsWith('.xlsx'));
  }

  /** Whether the PM's folder (not the samples) is there now. */
  folderExists(): boolean {
    const dir = this.options.dir();
    return !!dir && isDir(dir);
  }

  exists(): boolean {
    const dir = this.options.dir();
    return (!!dir && isDir(dir)) || (!!this.options.samplesDir && isDir(this.options.samplesDir));
  }

  private list(): Listed[] {
    const out: Listed[] = [];
    const dirs: [string | null | undefined, 'folder' | 'sample'][] = [
      [this.options.dir(), 'folder'],
      [this.options.samplesDir, 'sample'],
    ];
    for (const [dir, origin] of dirs) {
      if (!dir || !isDir(dir)) continue;
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        continue;
      }
      const files: Listed[] = [];
      for (const file of names) {
        // Editors' and Excel's own temporaries (`~$book.xlsx`, `.#x.csv`) are not the PM's data.
        if (!DATA_FILE.test(file) || file.startsWith('~$') || file.startsWith('.')) continue;
        try {
          const stat = statSync(join(dir, file));
          if (stat.isFile()) files.push({ file, path: join(dir, file), origin, stat });
        } catch {
          // Gone between the listing and the stat (an editor's atomic save): the next read sees the new file.
        }
      }
      files.sort((a, b) => rank(a.file) - rank(b.file) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
      out.push(...files);
    }
    return out;
  }

  private async read(): Promise<{ tables: Map<string, DatasetTable>; report: FolderReport }> {
    const listed = this.list();
    const folderListed = listed.filter((f) => f.origin === 'folder');
    const tables = new Map<string, DatasetTable>();
    const files: FileReport[] = [];
    for (const f of listed) {
      const tooMany = f.origin === 'folder' && folderListed.indexOf(f) >= MAX_FILES;
      const parsed: ParsedFile = tooMany
        ? { tables: [], dialect: null, problems: [`Not read: Forge reads the first ${MAX_FILES} files of the folder.`] }
        : await this.parse(f);
      const problems = [...parsed.problems];
      const datasets: DatasetSummary[] = [];
      for (const t of parsed.tables) {
        const name = t.sheet === null ? datasetName(stemOf(f.file)) : sheetDatasetName(stemOf(f.file), t.sheet, parsed.tables.length);
        const taken = tables.get(name.toLowerCase());
        if (taken) {
          problems.push(
            f.origin === 'sample' && taken.origin === 'folder'
              ? `Not served: your file ${taken.file} has the same dataset name "${name}".`
              : `Not served: ${taken.file} already gives the dataset name "${name}"; rename one of the two files.`,
          );
          continue;
        }
        tables.set(name.toLowerCase(), { name, file: f.file, path: f.path, origin: f.origin, sheet: t.sheet, table: t.table, dialect: t.dialect });
        datasets.push(summaryOf(name, t.sheet, t.table));
      }
      files.push({ file: f.file, origin: f.origin, bytes: f.stat.size, modified: f.stat.mtime.toISOString(), datasets, dialect: parsed.dialect, problems });
    }
    const folder = this.options.dir();
    // Parses of files no longer listed are dropped, so a long session does not keep old versions.
    for (const path of this.cache.keys()) if (!listed.some((f) => f.path === path)) this.cache.delete(path);
    return { tables, report: { folder, exists: !!folder && isDir(folder), files } };
  }

  private parse(f: Listed): Promise<ParsedFile> {
    const key = keyOf(f.stat);
    const hit = this.cache.get(f.path);
    if (hit?.key === key) return Promise.resolve(hit.parsed);
    const inflight = this.pending.get(`${f.path}\n${key}`);
    if (inflight) return inflight;
    const run = parseDataFile(f.path, f.file, f.stat.size).then((parsed) => {
      this.pending.delete(`${f.path}\n${key}`);
      // Cache only when the file did not change while it was read (an editor still writing it).
      const now = statOrNull(f.path);
      if (now && keyOf(now) === key) this.cache.set(f.path, { key, parsed });
      return parsed;
    });
    this.pending.set(`${f.path}\n${key}`, run);
    return run;
  }

  /** Watches the folder set now; re-arms after the folder is deleted, recreated or changed in Settings. */
  private arm(): void {
    if (this.closed) return;
    const dir = this.options.dir();
    const st = dir ? statOrNull(dir) : null;
    const same = this.watcher && st?.isDirectory() && this.watcher.dir === dir && this.watcher.ino === st.ino;
    if (same) return;
    const had = this.watcher !== null;
    this.watcher?.w.close();
    this.watcher = null;
    if (dir && st?.isDirectory()) {
      try {
        const w = watch(dir, { persistent: false }, () => this.changed());
        w.on('error', () => {
          // The folder went away under the watcher: the next check re-arms when it is back.
          w.close();
          if (this.watcher?.w === w) this.watcher = null;
          this.changed();
        });
        this.watcher = { dir, ino: st.ino, w };
      } catch {
        // Not watchable (permissions, too many watches): reads still list the folder every time.
      }
    }
    if (had || this.watcher) this.changed();
  }

  private changed(): void {
    if (this.closed) return;
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = null;
      void this.read()
        .then(({ report }) => {
          const signature = JSON.stringify(report);
          if (this.closed || signature === this.lastSignature) return;
          this.lastSignature = signature;
          for (const fn of this.listeners) fn(report);
        })
        .catch(() => {
          // A read that failed outright (the disk went away) is retried on the next change.
        });
    }, this.options.debounceMs ?? 200);
    this.debounce.unref();
  }
}

const rank = (file: string) => EXT_ORDER.indexOf(extname(file).toLowerCase());
const keyOf = (s: Stats) => `${s.mtimeMs}:${s.size}`;

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

function isDir(path: string): boolean {
  return statOrNull(path)?.isDirectory() ?? false;
}

/** First and last date per parsed table, worked out once: every fetch lists the folder, and a long file should not be sorted each time. */
const spans = new WeakMap<CsvTable, { first: string | null; last: string | null }>();

function summaryOf(name: string, sheet: string | null, table: CsvTable): DatasetSummary {
  let span = spans.get(table);
  if (!span) {
    let first: string | null = null;
    let last: string | null = null;
    if (table.dated) {
      for (const r of table.rows) {
        const d = r[0]!;
        if (first === null || d < first) first = d;
        if (last === null || d > last) last = d;
      }
    }
    span = { first, last };
    spans.set(table, span);
  }
  return { name, sheet, columns: table.header, rows: table.rows.length, ...span };
}
