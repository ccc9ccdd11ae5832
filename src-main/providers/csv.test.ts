import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CsvProvider, parseCsv } from './csv';
import { ProviderRegistry } from './registry';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-csv-'));
  writeFileSync(join(dir, 'rates.csv'), 'date,us2y,note\n2026-11-03,3.50,"quiet, thin"\n2026-11-01,3.60,first\n2026-11-02,3.55,"said ""hold"""\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));

const fetchVia = (params: unknown, asOf?: string) =>
  new ProviderRegistry([new CsvProvider({ dir })], { now: () => new Date('2026-11-21T00:00:00Z') }).fetch('datasets', params, { asOf });

describe('CSV provider', () => {
  it('parses quoted cells with commas and doubled quotes', () => {
    expect(parseCsv('a,b\n"x, y","say ""hi"""\r\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
    ]);
  });

  it('serves a dated dataset sorted by date, filtered by range, with a summary of each column and its as-of date', async () => {
    const r = await fetchVia({ dataset: 'rates', start: '2026-11-02' });
    expect(r.label).toBe('rates 2026-11-02..2026-11-03');
    expect(r.asOf).toBe('2026-11-03');
    expect(r.source).toMatch(/^csv forge-csv-\w+\/rates\.csv$/);
    expect(r.formatSummary()).toBe('rates: 2 rows 2026-11-02..2026-11-03. us2y 3.55→3.5 (-0.05; min 3.5, max 3.55). note (latest): "quiet, thin".');
    const full = r.formatFull();
    expect(full).toContain('| 2026-11-02 | 3.55 | said "hold" |');
    expect(full).toContain('as_of: 2026-11-03');
    expect(full).toContain('fetched_at: 2026-11-21T00:00:00.000Z');
    expect(full.indexOf('2026-11-02')).toBeLessThan(full.indexOf('| 2026-11-03'));
  });

  it('in a session as of a past date, serves only the rows up to that date (a retrospective never sees later data)', async () => {
    const r = await fetchVia({ dataset: 'rates' }, '2026-11-02');
    expect(r.label).toBe('rates 2026-11-01..2026-11-02');
    expect(r.asOf).toBe('2026-11-02');
    expect(r.formatFull()).not.toContain('2026-11-03');
    await expect(fetchVia({ dataset: 'rates' }, '2026-10-01')).rejects.toThrow('No rows of "rates" in the range asked for (…..2026-10-01) as of 2026-10-01.');
  });

  it('explains bad params in words the analyst can fix, each with its kind', async () => {
    await expect(fetchVia({ dataset: 'nope' })).rejects.toMatchObject({ kind: 'not_found', message: 'There is no dataset "nope". Available: rates.' });
    await expect(fetchVia({ dataset: 'rates', start: 'last week' })).rejects.toMatchObject({
      kind: 'bad_params',
      message: 'params.start: a date YYYY-MM-DD (first date to include)',
    });
    await expect(fetchVia({ dataset: 'rates', columns: ['us10y'] })).rejects.toMatchObject({
      kind: 'bad_params',
      message: 'Unknown column(s) us10y; "rates" has date, us2y, note.',
    });
    await expect(fetchVia({ dataset: 'rates', end: '2020-01-01' })).rejects.toMatchObject({
      kind: 'not_found',
      message: expect.stringContaining('No rows of "rates"'),
    });
    await expect(fetchVia({ dataset: 'rates', last: 0 })).rejects.toMatchObject({ kind: 'bad_params', message: expect.stringContaining('params.last:') });
  });

  it('counts its datasets in its one-line description, names them in its schema and errors, and says it is not configured when the folder is gone', async () => {
    writeFileSync(join(dir, 'fx.csv'), 'date,eurusd\n2026-11-03,1.08\n');
    const p = new CsvProvider({ dir });
    // The fetch tool's line stays short (the analyst's fixed context carries every provider's line) …
    expect(p.description).toBe('CSV files (2 datasets)');
    const reg = new ProviderRegistry([p]);
    expect(reg.catalogue()).toEqual(['datasets: CSV files (2 datasets) {dataset, columns?, start?, end?, …}']);
    // … so the names arrive where they are needed: the field's hint in Settings and in a bad-params error, and a wrong name's error.
    const info = reg.list()[0]!;
    expect(info.params).toMatchObject({ properties: { dataset: { description: 'one of fx, rates' } }, required: ['dataset'] });
    await expect(reg.fetch('datasets', { dataset: 'bad name!' })).rejects.toMatchObject({
      kind: 'bad_params',
      message: 'params.dataset: a dataset name (one of fx, rates)',
    });
    await expect(reg.fetch('datasets', { dataset: 'gold' })).rejects.toMatchObject({
      kind: 'not_found',
      message: 'There is no dataset "gold". Available: fx, rates.',
    });
    expect(info.health.state).toBe('ok');
    expect(new CsvProvider({ dir: join(dir, 'missing') }).health()).toMatchObject({ state: 'not_configured' });
  });

  it('keeps providers by name and refuses a duplicate', () => {
    const reg = new ProviderRegistry([new CsvProvider({ dir })]);
    expect(reg.names()).toEqual(['datasets']);
    expect(() => reg.register(new CsvProvider({ dir }))).toThrow('already registered');
  });

  it('reads a real fredgraph.csv: FRED\'s "." is a missing observation, so DGS3MO stays a number series (it used to turn into text)', async () => {
    copyFileSync(join(FIXTURES, 'fredgraph.csv'), join(dir, 'fredgraph.csv'));
    const r = await fetchVia({ dataset: 'fredgraph', columns: ['DGS3MO'] });
    // Before: `DGS3MO (latest): "12.9180000000000000"` — the analyst saw a text column and no rates.
    expect(r.formatSummary()).toBe('fredgraph: 30 rows 1979-08-01..1982-01-01. DGS3MO 15.6071→12.918 (-2.6891; min 11.319, max 15.6071; 25 missing).');
    const full = r.formatFull();
    expect(full).toContain('| 1979-08-01 |  |');
    expect(full).not.toContain('| . |');
    expect(full).toContain('dialect: , delimited, decimal point, dates YYYY-MM-DD, header row, UTF-8, LF');
  });

  it('reads a Yahoo download whose holiday row is literal "null": Close stays numeric and the null row is empty, never 0', async () => {
    copyFileSync(join(FIXTURES, 'yahoo-spy.csv'), join(dir, 'spy.csv'));
    const r = await fetchVia({ dataset: 'spy', columns: ['Close'] });
    expect(r.formatSummary()).toBe('spy: 7 rows 2024-03-25..2024-04-02. Close 519.77→518.84 (-0.93; min 518.81, max 523.17; 1 missing).');
    expect(r.formatFull()).toContain('| 2024-03-29 |  |');
  });

  it('reads a Stooq download (CRLF, last row without volume) named spy.us.csv: the short row loads with volume empty', async () => {
    copyFileSync(join(FIXTURES, 'spy.us.csv'), join(dir, 'spy.us.csv'));
    const r = await fetchVia({ dataset: 'spy.us', columns: ['Close', 'Volume'] });
    expect(r.formatSummary()).toBe(
      'spy.us: 6 rows 2024-01-29..2024-02-05. Close 494.9→492.55 (-2.35; min 482.88, max 494.9). Volume 56987302→100183268 (+43195966; min 56987302, max 115549811; 1 missing).',
    );
    const full = r.formatFull();
    expect(full).toContain('| 2024-02-05 | 492.55 |  |');
    expect(full).toContain('dialect: , delimited, decimal point, dates YYYY-MM-DD, header row, UTF-8, CRLF');
  });

  it('reads a Stooq bulk .txt file (<DATE> as YYYYMMDD) as a dated dataset named after the file', async () => {
    writeFileSync(
      join(dir, 'aapl.us.txt'),
      '<TICKER>,<PER>,<DATE>,<TIME>,<OPEN>,<HIGH>,<LOW>,<CLOSE>,<VOL>,<OPENINT>\nAAPL.US,D,20240131,000000,187.04,187.1,184.35,184.4,55467803,0\nAAPL.US,D,20240201,000000,183.985,186.95,183.82,186.86,64885408,0\n',
    );
    const r = await fetchVia({ dataset: 'aapl.us', columns: ['<CLOSE>'] });
    expect(r.label).toBe('aapl.us 2024-01-31..2024-02-01');
    expect(r.formatSummary()).toBe('aapl.us: 2 rows 2024-01-31..2024-02-01. <CLOSE> 184.4→186.86 (+2.46; min 184.4, max 186.86).');
    expect(r.formatFull()).toContain('dates YYYYMMDD');
  });

  it('reads a European semicolon export (BOM, decimal comma, DD.MM.YYYY) and states the dialect it inferred', async () => {
    const text = '\uFEFFDatum;Kurs;Volumen\r\n30.01.2024;1.234,5;10\r\n31.01.2024;1.240,25;#N/A\r\n01.02.2024;1,5;12\r\n';
    writeFileSync(join(dir, 'dax.csv'), text, 'utf8');
    const r = await fetchVia({ dataset: 'dax' });
    expect(r.label).toBe('dax 2024-01-30..2024-02-01');
    expect(r.formatSummary()).toBe(
      'dax: 3 rows 2024-01-30..2024-02-01. Kurs 1234.5→1.5 (-1233; min 1.5, max 1240.25). Volumen 10→12 (+2; min 10, max 12; 1 missing).',
    );
    expect(r.formatFull()).toContain(
      'dialect: ; delimited, decimal comma, dates DD.MM.YYYY (inferred: 30.01.2024 has day first), header row, UTF-8 with BOM, CRLF',
    );
  });

  it('reads a Windows-1252 tab-separated file with US dates and every missing marker (NA, N/A, #N/A, -, null, empty) as missing', async () => {
    const text =
      'Date\tEUR€\tNote\n01/30/2024\t1.08\tcafé\n01/31/2024\tNA\t\n02/01/2024\tN/A\tx\n02/02/2024\t-\tx\n02/05/2024\tnull\tx\n02/06/2024\t\tx\n02/07/2024\t1.07\tx\n';
    writeFileSync(
      join(dir, 'eur.tsv'),
      Buffer.from(text, 'latin1').map((b, i) => (text[i] === '€' ? 0x80 : b)),
    );
    const r = await fetchVia({ dataset: 'eur' });
    expect(r.formatSummary()).toBe('eur: 7 rows 2024-01-30..2024-02-07. EUR€ 1.08→1.07 (-0.01; min 1.07, max 1.08; 5 missing). Note (latest): "x".');
    const full = r.formatFull();
    expect(full).toContain('| 2024-01-30 | 1.08 | café |');
    expect(full).toContain('dialect: tab delimited, decimal point, dates MM/DD/YYYY (inferred: 01/30/2024 has month first), header row, Windows-1252, LF');
  });

  it('reads Excel serial day numbers in a column named date', async () => {
    writeFileSync(join(dir, 'xl.csv'), 'date,value\n45322,1\n45323,2\n');
    const r = await fetchVia({ dataset: 'xl' });
    expect(r.label).toBe('xl 2024-01-31..2024-02-01');
    expect(r.formatFull()).toContain('dates Excel serial (Excel day numbers, e.g. 45322 is 2024-01-31)');
  });

  it('refuses a bad file in one sentence naming row, column and why, and the rest of the folder still loads', async () => {
    writeFileSync(join(dir, 'ambiguous.csv'), 'date,x\n01/02/2024,1\n03/04/2024,2\n');
    writeFileSync(join(dir, 'long.csv'), 'date,x\n2024-01-01,1\n2024-01-02,2,3\n');
    writeFileSync(join(dir, 'cut.csv'), 'date,x\n2024-01-01,"1\n');
    writeFileSync(join(dir, 'baddate.csv'), 'Date,x\n2024-01-01,1\n2024-02-30,2\n');
    await expect(fetchVia({ dataset: 'ambiguous' })).rejects.toMatchObject({
      kind: 'bad_response',
      message:
        'ambiguous.csv: Row 2, column 1 "date": every date (e.g. "01/02/2024") could be day-first or month-first, so the order cannot be told; write them as YYYY-MM-DD.',
    });
    await expect(fetchVia({ dataset: 'long' })).rejects.toMatchObject({
      message: 'long.csv: Row 3, column 3: the row has 3 fields where the header has 2, so its values cannot be matched to columns.',
    });
    await expect(fetchVia({ dataset: 'cut' })).rejects.toMatchObject({
      message: 'cut.csv: Row 2: a quoted field opens there and is never closed, so the file looks cut off.',
    });
    await expect(fetchVia({ dataset: 'baddate' })).rejects.toMatchObject({
      message: 'baddate.csv: Row 3, column 1 "Date": "2024-02-30" is not a calendar date.',
    });
    const ok = await fetchVia({ dataset: 'rates' });
    expect(ok.label).toBe('rates 2026-11-01..2026-11-03');
  });
});
