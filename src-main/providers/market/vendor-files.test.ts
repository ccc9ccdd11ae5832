import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CsvFormatError } from '../csv-table';
import { DataFolder } from '../data-folder';
import { readVendorFile, VENDOR_FILE } from './vendor-files';

// Vendor answers saved into the PM's data folder read as tables, from the real recorded files.
const FIX = join(__dirname, '..', 'fixtures');
const yahoo = readFileSync(join(FIX, 'yahoo-chart-aapl.json'));
const fredXml = readFileSync(join(FIX, 'fred-observations-sp500.xml'));

describe('vendor files in the data folder', () => {
  it('reads a saved Yahoo chart as date..volume with the split and dividend as a note, and FRED XML as date, value', () => {
    expect(VENDOR_FILE.test('aapl.json') && VENDOR_FILE.test('SP500.XML')).toBe(true);
    const y = readVendorFile('aapl.json', yahoo);
    expect(y.table.header).toEqual(['date', 'open', 'high', 'low', 'close', 'adj_close', 'volume']);
    expect(y.table.rows).toHaveLength(49);
    expect(y.notes).toEqual(['Events: split 4:1 on 2020-08-31; dividend 0.205 on 2020-11-06 (reported, not applied).']);
    expect(y.dialect).toMatch(/^Yahoo chart JSON of AAPL \(NasdaqGS, USD\), 1d bars, dates in America\/New_York/);

    const f = readVendorFile('sp500.xml', fredXml);
    expect(f.table.header).toEqual(['date', 'value']);
    expect(f.table.rows).toEqual([
      ['2014-09-02', '2002.28'],
      ['2014-09-03', '2000.72'],
      ['2014-09-04', '1997.65'],
      ['2014-09-05', '2007.71'],
    ]);
    // FRED's "." is missing, never 0 and never text.
    const dot = readVendorFile('sp500.xml', Buffer.from(fredXml.toString('utf8').replace('value="2000.72"', 'value="."')));
    expect(dot.table.rows[1]).toEqual(['2014-09-03', null]);
    expect(dot.table.kinds).toEqual(['date', 'number']);
  });

  it('gives one sentence for a JSON or XML file it cannot read, as a CSV format error the folder reports', () => {
    expect(() => readVendorFile('notes.json', Buffer.from('{"positions": []}'))).toThrow(CsvFormatError);
    expect(() => readVendorFile('notes.json', Buffer.from('{"positions": []}'))).toThrow(/not a Yahoo chart answer/);
    expect(() => readVendorFile('feed.xml', Buffer.from('<rss><channel/></rss>'))).toThrow(/not a FRED observations answer/);
    const cut = fredXml.subarray(0, fredXml.indexOf('date="2014-09-04"'));
    expect(() => readVendorFile('sp500.xml', cut)).toThrow(CsvFormatError);
    expect(() => readVendorFile('aapl.json', yahoo.subarray(0, 3000))).toThrow(/not complete JSON/);
  });

  it("loads them from the PM's data folder beside CSVs, and a JSON that is not a chart gets one sentence while the rest loads", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'forge-vendor-files-'));
    const folder = new DataFolder({ dir: () => dir });
    try {
      writeFileSync(join(dir, 'aapl.json'), yahoo);
      writeFileSync(join(dir, 'sp500.xml'), fredXml);
      writeFileSync(join(dir, 'settings.json'), '{"theme": "dark"}');
      const report = await folder.report();
      const byFile = Object.fromEntries(report.files.map((f) => [f.file, f]));
      expect(byFile['aapl.json']!.datasets[0]).toMatchObject({ name: 'aapl', rows: 49, first: '2020-08-31', last: '2020-11-06' });
      expect(byFile['aapl.json']!.dialect).toContain('Events: split 4:1 on 2020-08-31; dividend 0.205 on 2020-11-06 (reported, not applied).');
      expect(byFile['sp500.xml']!.datasets[0]).toMatchObject({ name: 'sp500', columns: ['date', 'value'], rows: 4 });
      expect(byFile['settings.json']!.problems).toEqual([expect.stringContaining('not a Yahoo chart answer')]);
      const tables = await folder.tables();
      expect(tables.get('aapl')!.table.rows[0]!.slice(0, 1)).toEqual(['2020-08-31']);
    } finally {
      folder.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
