import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CsvFormatError } from '../csv-table';
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
});
