import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CsvProvider, parseCsv } from './csv';
import { ProviderRegistry } from './types';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-csv-'));
  writeFileSync(join(dir, 'rates.csv'), 'date,us2y,note\n2026-11-03,3.50,"quiet, thin"\n2026-11-01,3.60,first\n2026-11-02,3.55,"said ""hold"""\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('CSV provider', () => {
  it('parses quoted cells with commas and doubled quotes', () => {
    expect(parseCsv('a,b\n"x, y","say ""hi"""\r\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
    ]);
  });

  it('serves a dated dataset sorted by date, filtered by range, with a summary of each column', async () => {
    const p = new CsvProvider({ dir, now: () => new Date('2026-11-21T00:00:00Z') });
    const r = await p.fetch({ dataset: 'rates', start: '2026-11-02' });
    expect(r.label).toBe('rates 2026-11-02..2026-11-03');
    expect(r.summary).toBe('rates: 2 rows 2026-11-02..2026-11-03. us2y 3.55→3.5 (-0.05; min 3.5, max 3.55). note (latest): "quiet, thin".');
    expect(r.full).toContain('| 2026-11-02 | 3.55 | said "hold" |');
    expect(r.full.indexOf('2026-11-02')).toBeLessThan(r.full.indexOf('| 2026-11-03'));
  });

  it('explains bad params in words the analyst can fix', async () => {
    const p = new CsvProvider({ dir });
    await expect(p.fetch({ dataset: 'nope' })).rejects.toThrow('There is no dataset "nope". Available: rates.');
    await expect(p.fetch({ dataset: 'rates', start: 'last week' })).rejects.toThrow('params.start must be a date YYYY-MM-DD');
    await expect(p.fetch({ dataset: 'rates', columns: ['us10y'] })).rejects.toThrow('Unknown column(s) us10y; "rates" has date, us2y, note.');
    await expect(p.fetch({ dataset: 'rates', end: '2020-01-01' })).rejects.toThrow('No rows of "rates"');
  });

  it('keeps providers by name and refuses a duplicate', () => {
    const reg = new ProviderRegistry([new CsvProvider({ dir })]);
    expect(reg.names()).toEqual(['market']);
    expect(() => reg.register(new CsvProvider({ dir }))).toThrow('already registered');
  });
});
