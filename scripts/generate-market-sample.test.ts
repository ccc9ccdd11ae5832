import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { businessDays, generateMarketSample, sampleDir } from './generate-market-sample';

/** The committed sample set is exactly what the seeded generator writes, and says it is synthetic. */

const root = resolve(import.meta.dirname, '..');

describe('market sample generator', () => {
  const files = generateMarketSample();

  it('matches the committed files byte for byte (a hand-edited series, or a generator change left unrun, fails here)', () => {
    for (const [name, content] of Object.entries(files)) {
      expect(readFileSync(join(sampleDir(root), name), 'utf8'), `resources/data/market/${name} — rerun: npx tsx scripts/generate-market-sample.ts`).toBe(
        content,
      );
    }
  });

  it('is deterministic for a seed and different for another', () => {
    expect(generateMarketSample()['prices.csv']).toBe(files['prices.csv']);
    expect(generateMarketSample(7)['prices.csv']).not.toBe(files['prices.csv']);
  });

  it('covers one year of weekdays ending on the demo day, every row labelled sample', () => {
    const days = businessDays('2026-11-20');
    expect(days[0]).toBe('2025-11-21');
    expect(days[days.length - 1]).toBe('2026-11-20');
    expect(days).toHaveLength(261);
    expect(days.every((d) => ![0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay()))).toBe(true);
    for (const name of ['prices.csv', 'yields.csv', 'implied_vols.csv', 'symbols.csv'] as const) {
      const rows = files[name].trim().split('\n').slice(1);
      expect(
        rows.every((r) => r.endsWith(',sample')),
        name,
      ).toBe(true);
    }
    expect(files['prices.csv'].trim().split('\n')).toHaveLength(1 + 3 * 261);
    expect(files['implied_vols.csv'].trim().split('\n')).toHaveLength(1 + 6 * 261);
    // Pinned to the demo CSVs' closing values so the two data sets agree on the last day.
    expect(files['prices.csv']).toContain('2026-11-20,EURUSD,1.09100,USD,sample');
    expect(files['yields.csv']).toContain('2026-11-20,UST10Y,4.095,sample');
  });

  it('keeps vols positive and the smile ordered (25-delta wings above ATM on average)', () => {
    const rows = files['implied_vols.csv']
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    expect(rows.every((r) => Number(r[4]) > 2 && Number(r[4]) < 20)).toBe(true);
    const mean = (d: string) => {
      const v = rows.filter((r) => r[3] === d).map((r) => Number(r[4]));
      return v.reduce((a, b) => a + b, 0) / v.length;
    };
    expect(mean('25P')).toBeGreaterThan(mean('ATM'));
  });
});
