import { copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CsvProvider } from './csv';
import { DataFolder, type FolderReport, datasetName } from './data-folder';
import { ProviderRegistry } from './registry';
import { buildXlsx } from './xlsx-testing';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const STOOQ = 'Date,Open,High,Low,Close,Volume\r\n2024-01-29,487.88,491.42,487.17,491.27,61322800\r\n2024-01-30,490.4,491.2,488.56,490.89,58618400\r\n';

let root: string;
let folders: DataFolder[] = [];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'forge-data-folder-'));
});
afterEach(() => {
  // No watcher outlives its test.
  for (const f of folders) f.close();
  folders = [];
  rmSync(root, { recursive: true, force: true });
});

function open(options: ConstructorParameters<typeof DataFolder>[0]): DataFolder {
  const f = new DataFolder({ debounceMs: 50, healMs: 100, ...options });
  folders.push(f);
  return f;
}

/** Polls until `check` passes: watchers fire when the machine gets to them, so no timing is asserted. */
async function until(check: () => void | Promise<void>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (e) {
      if (Date.now() > end) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** The reports a folder's watcher pushes, newest last. */
function record(folder: DataFolder): FolderReport[] {
  const seen: FolderReport[] = [];
  folder.onChange((r) => seen.push(r));
  return seen;
}
const filesIn = (r: FolderReport | undefined) => (r?.files ?? []).map((f) => f.file).sort();

describe('the PM’s data folder', () => {
  it('names datasets after their files as written, and makes names an Expression can use of the rest', () => {
    expect(datasetName('spy.us')).toBe('spy.us');
    expect(datasetName('SPY')).toBe('SPY');
    expect(datasetName('SPY (1)')).toBe('SPY_1');
    expect(datasetName('  ')).toBe('data');
  });

  it('re-reads the folder when a file is written, saved by an editor’s rename, and deleted, while it watches', async () => {
    const dir = join(root, 'mine');
    mkdirSync(dir);
    const folder = open({ dir: () => dir, watch: true });
    const seen = record(folder);
    writeFileSync(join(dir, 'spy.us.csv'), STOOQ);
    // Without the watcher the Data screen would not hear of the new file until it asked again.
    await until(() => expect(filesIn(seen.at(-1))).toEqual(['spy.us.csv']));
    expect(seen.at(-1)!.files[0]!.datasets[0]).toMatchObject({ name: 'spy.us', rows: 2, first: '2024-01-29', last: '2024-01-30' });

    // An editor's atomic save: the new text goes to a temporary file that is renamed over the old one.
    writeFileSync(join(dir, '.spy.us.csv.tmp'), `${STOOQ}2024-01-31,489.9,490.2,485.1,482.88,70000000\r\n`);
    renameSync(join(dir, '.spy.us.csv.tmp'), join(dir, 'spy.us.csv'));
    await until(() => expect(seen.at(-1)!.files[0]!.datasets[0]).toMatchObject({ rows: 3, last: '2024-01-31' }));

    rmSync(join(dir, 'spy.us.csv'));
    await until(() => expect(filesIn(seen.at(-1))).toEqual([]));
  }, 60_000);

  it('keeps watching when the folder is deleted and made again (a sync client or the PM replacing it)', async () => {
    const dir = join(root, 'mine');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.csv'), 'date,x\n2024-01-01,1\n');
    const folder = open({ dir: () => dir, watch: true });
    const seen = record(folder);
    rmSync(dir, { recursive: true });
    await until(() => expect(seen.at(-1)).toMatchObject({ exists: false, files: [] }));
    mkdirSync(dir);
    writeFileSync(join(dir, 'b.csv'), 'date,x\n2024-01-01,1\n');
    await until(() => expect(filesIn(seen.at(-1))).toEqual(['b.csv']));
    // The watcher is on the new folder, not the deleted one: a later file is seen too.
    writeFileSync(join(dir, 'c.csv'), 'date,x\n2024-01-01,1\n');
    await until(() => expect(filesIn(seen.at(-1))).toEqual(['b.csv', 'c.csv']));
  }, 60_000);

  it('follows a change of folder in Settings without a restart', async () => {
    const first = join(root, 'first');
    const second = join(root, 'second');
    mkdirSync(first);
    mkdirSync(second);
    writeFileSync(join(first, 'one.csv'), 'date,x\n2024-01-01,1\n');
    writeFileSync(join(second, 'two.csv'), 'date,x\n2024-01-01,2\n');
    let setting = first;
    const folder = open({ dir: () => setting, watch: true });
    const provider = new CsvProvider({ folder });
    expect(provider.datasets()).toEqual(['one']);
    const seen = record(folder);
    // The watcher's first read (it announces the folder it started on) is done before the switch.
    await until(() => expect(filesIn(seen.at(-1))).toEqual(['one.csv']));
    setting = second;
    // The next fetch reads the new folder at once…
    expect(provider.datasets()).toEqual(['two']);
    expect((await new ProviderRegistry([provider]).fetch('datasets', { dataset: 'two' })).formatSummary()).toBe(
      'two: 1 rows 2024-01-01..2024-01-01. x 2→2 (+0; min 2, max 2).',
    );
    // …and the watcher moves to it: a file dropped there is announced.
    writeFileSync(join(second, 'three.csv'), 'date,x\n2024-01-01,3\n');
    await until(() => expect(filesIn(seen.at(-1))).toEqual(['three.csv', 'two.csv']));
    writeFileSync(join(first, 'ignored.csv'), 'date,x\n2024-01-01,3\n');
    expect(provider.datasets()).toEqual(['three', 'two']);
  }, 60_000);

  it('parses a file once per version (mtime and size), and sees a same-size rewrite with a new mtime', async () => {
    const dir = join(root, 'mine');
    mkdirSync(dir);
    writeFileSync(join(dir, 'r.csv'), 'date,x\n2024-01-01,1\n');
    const folder = open({ dir: () => dir });
    const a = (await folder.tables()).get('r')!;
    expect((await folder.tables()).get('r')!.table).toBe(a.table);
    writeFileSync(join(dir, 'r.csv'), 'date,x\n2024-01-01,7\n');
    utimesSync(join(dir, 'r.csv'), new Date('2030-01-01T00:00:00Z'), new Date('2030-01-01T00:00:00Z'));
    const b = (await folder.tables()).get('r')!;
    expect(b.table).not.toBe(a.table);
    expect(b.table.rows).toEqual([['2024-01-01', '7']]);
  });

  it('serves the sample files after the PM’s: the PM’s file of the same name wins, the sample says so', async () => {
    const dir = join(root, 'mine');
    const samples = join(root, 'samples');
    mkdirSync(dir);
    mkdirSync(samples);
    writeFileSync(join(samples, 'ust_yields.csv'), 'date,us2y\n2024-01-01,4.1\n');
    writeFileSync(join(samples, 'fx_spot.csv'), 'date,eurusd\n2024-01-01,1.1\n');
    writeFileSync(join(dir, 'UST_yields.csv'), 'date,us2y\n2024-01-01,9.9\n');
    const folder = open({ dir: () => dir, samplesDir: samples });
    const t = await folder.tables();
    expect([...t.values()].map((d) => [d.name, d.origin])).toEqual([
      ['UST_yields', 'folder'],
      ['fx_spot', 'sample'],
    ]);
    // The analyst's hint names each dataset once, as the PM's file spells it.
    expect(new CsvProvider({ folder }).datasets()).toEqual(['UST_yields', 'fx_spot']);
    const r = await new ProviderRegistry([new CsvProvider({ folder })]).fetch('datasets', { dataset: 'ust_yields' });
    expect(r.formatSummary()).toContain('us2y 9.9→9.9');
    const report = await folder.report();
    expect(report.files.find((f) => f.file === 'ust_yields.csv')).toMatchObject({
      origin: 'sample',
      datasets: [],
      problems: ['Not served: your file UST_yields.csv has the same dataset name "ust_yields".'],
    });
  });

  it('reports a bad file in one sentence (row, column, why) and loads the rest of the folder', async () => {
    const dir = join(root, 'mine');
    mkdirSync(dir);
    copyFileSync(join(FIXTURES, 'spy.us.csv'), join(dir, 'spy.us.csv'));
    writeFileSync(join(dir, 'baddate.csv'), 'Date,x\n2024-01-01,1\n2024-02-30,2\n');
    writeFileSync(join(dir, 'broken.xlsx'), 'this is not a workbook');
    writeFileSync(join(dir, 'old.xls'), Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));
    const report = await open({ dir: () => dir }).report();
    const by = Object.fromEntries(report.files.map((f) => [f.file, f]));
    expect(by['baddate.csv']).toMatchObject({ datasets: [], problems: ['Row 3, column 1 "Date": "2024-02-30" is not a calendar date.'] });
    expect(by['broken.xlsx']!.problems).toEqual([
      expect.stringMatching(/^Not read: it is not a readable Excel workbook \(.*\); save it again from Excel as \.xlsx\.$/),
    ]);
    expect(by['old.xls']!.problems).toEqual(['Not read: this is the old Excel 97-2003 format (.xls); open it in Excel and save it as .xlsx (Excel Workbook).']);
    expect(by['spy.us.csv']).toMatchObject({
      problems: [],
      dialect: ', delimited, decimal point, dates YYYY-MM-DD, header row, UTF-8, CRLF',
      datasets: [{ name: 'spy.us', columns: ['Date', 'Open', 'High', 'Low', 'Close', 'Volume'], rows: 6, first: '2024-01-29', last: '2024-02-05' }],
    });
  });

  it('stops announcing changes once closed (no watcher left behind)', async () => {
    const dir = join(root, 'mine');
    mkdirSync(dir);
    const folder = open({ dir: () => dir, watch: true });
    const seen = record(folder);
    writeFileSync(join(dir, 'a.csv'), 'date,x\n2024-01-01,1\n');
    await until(() => expect(filesIn(seen.at(-1))).toEqual(['a.csv']));
    folder.close();
    const count = seen.length;
    writeFileSync(join(dir, 'b.csv'), 'date,x\n2024-01-01,1\n');
    await new Promise((r) => setTimeout(r, 500));
    expect(seen.length).toBe(count);
  }, 60_000);
});

describe('Excel workbooks in the data folder', () => {
  it('reads a real FRED Excel download: the title block above the table is skipped and date cells become ISO days', async () => {
    const dir = join(root, 'mine');
    mkdirSync(dir);
    copyFileSync(join(FIXTURES, 'fredgraph.xlsx'), join(dir, 'fredgraph.xlsx'));
    const folder = open({ dir: () => dir });
    const report = await folder.report();
    expect(report.files[0]).toMatchObject({
      file: 'fredgraph.xlsx',
      problems: [],
      dialect: 'Excel workbook, sheet "FRED Graph", dates from Excel date cells, header row 11 (10 rows of notes above it skipped)',
      datasets: [{ name: 'fredgraph', sheet: 'FRED Graph', rows: 868, first: '1947-01-01', last: '2019-04-01' }],
    });
    const r = await new ProviderRegistry([new CsvProvider({ folder })]).fetch('datasets', {
      dataset: 'fredgraph',
      columns: ['FEDMINNFRWG_CPIAUCSL_NBD20180801'],
      start: '2019-01-01',
    });
    expect(r.source).toBe('xlsx mine/fredgraph.xlsx sheet "FRED Graph"');
    expect(r.formatFull()).toContain('| 2019-04-01 | 7.162445549360068 |');
  });

  it('reads each sheet of a workbook as its own dataset <file>.<sheet>: date cells, Excel serials and #N/A as missing', async () => {
    const dir = join(root, 'mine');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'Book.xlsx'),
      buildXlsx([
        {
          name: 'Prices',
          rows: [
            ['Date', 'SPX', 'Note'],
            [new Date(Date.UTC(2024, 0, 31)), 4845.65, 'month end'],
            [new Date(Date.UTC(2024, 1, 1)), '#N/A', null],
            [new Date(Date.UTC(2024, 1, 2)), 4958.61, 'NFP'],
          ],
        },
        {
          name: 'Rates 2024',
          rows: [
            ['Date', 'us10y'],
            [45322, 3.99],
            [45323, 3.87],
          ],
        },
        { name: 'Notes', rows: [] },
      ]),
    );
    const folder = open({ dir: () => dir });
    const t = await folder.tables();
    expect([...t.keys()]).toEqual(['book.prices', 'book.rates_2024']);
    const prices = t.get('book.prices')!;
    expect(prices.table.rows).toEqual([
      ['2024-01-31', '4845.65', 'month end'],
      ['2024-02-01', null, null],
      ['2024-02-02', '4958.61', 'NFP'],
    ]);
    expect(prices.table.kinds).toEqual(['date', 'number', 'text']);
    expect(t.get('book.rates_2024')!.table.rows).toEqual([
      ['2024-01-31', '3.99'],
      ['2024-02-01', '3.87'],
    ]);
    expect(t.get('book.rates_2024')!.dialect).toBe(
      'Excel workbook, sheet "Rates 2024", dates Excel serial (Excel day numbers, e.g. 45322 is 2024-01-31), header row 1',
    );
    const r = await new ProviderRegistry([new CsvProvider({ folder })]).fetch('datasets', { dataset: 'Book.Prices', columns: ['SPX'] });
    expect(r.formatSummary()).toBe('Book.Prices: 3 rows 2024-01-31..2024-02-02. SPX 4845.65→4958.61 (+112.96; min 4845.65, max 4958.61; 1 missing).');
  });

  it('names a single-sheet workbook after its file, and says which sheet, row and column a bad date is in', async () => {
    const dir = join(root, 'mine');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'spx.xlsx'),
      buildXlsx([
        {
          name: 'Sheet1',
          rows: [
            ['Date', 'close'],
            [new Date(Date.UTC(2024, 0, 31)), 4845.65],
          ],
        },
      ]),
    );
    writeFileSync(
      join(dir, 'bad.xlsx'),
      buildXlsx([
        {
          name: 'Data',
          rows: [
            ['Date', 'x'],
            ['2024-01-31', 1],
            ['2024-02-30', 2],
          ],
        },
      ]),
    );
    const folder = open({ dir: () => dir });
    expect(folder.names()).toEqual(['bad', 'spx']);
    const report = await folder.report();
    expect(report.files.find((f) => f.file === 'spx.xlsx')!.datasets.map((d) => d.name)).toEqual(['spx']);
    expect(report.files.find((f) => f.file === 'bad.xlsx')!.problems).toEqual(['Sheet "Data": row 3, column 1 "Date": "2024-02-30" is not a calendar date.']);
    await expect(new ProviderRegistry([new CsvProvider({ folder })]).fetch('datasets', { dataset: 'bad' })).rejects.toMatchObject({
      kind: 'bad_response',
      message: 'bad.xlsx: Sheet "Data": row 3, column 1 "Date": "2024-02-30" is not a calendar date.',
    });
  });
});
