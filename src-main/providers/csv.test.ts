import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CsvProvider, parseCsv } from './csv';
import { ProviderRegistry } from './registry';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-csv-'));
  writeFileSync(join(dir, 'rates.csv'), 'date,us2y,note\n2026-11-03,3.50,"quiet, thin"\n2026-11-01,3.60,first\n2026-11-02,3.55,"said ""hold"""\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

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
});
