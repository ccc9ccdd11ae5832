import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../common/package-root';
import { parseCsv } from '../csv';
import { ProviderError, type ProviderHealth } from '../provider';
import { MARKET_KINDS, type MarketKind, type MarketParams, type MarketSeries, VOL_DELTAS } from './schema';

/**
 * The market provider's offline backend: a folder of long-format CSVs (the synthetic sample set in
 * resources/data/market by default, or a PM's own exports laid out the same way):
 *
 *   symbols.csv       symbol,kind,name,unit,source
 *   prices.csv        date,symbol,close,currency,source
 *   yields.csv        date,symbol,yield_pct,source
 *   implied_vols.csv  date,symbol,tenor,delta,vol_pct,source
 */

export const FILE_OF: Record<MarketKind, string> = { price: 'prices.csv', yield: 'yields.csv', implied_vol: 'implied_vols.csv' };

/** The bundled synthetic sample set, or null when this installation lacks it. */
export function bundledMarketDir(): string | null {
  try {
    const dir = join(packageRoot(), 'resources', 'data', 'market');
    return existsSync(join(dir, 'symbols.csv')) ? dir : null;
  } catch {
    return null;
  }
}

interface CatalogEntry {
  symbol: string;
  kind: MarketKind;
  name: string;
  unit: string;
  source: string;
}

type Table = { header: string[]; rows: string[][] };

const ISO = /^\d{4}-\d{2}-\d{2}$/;

/** Tenors in days, to order vol columns 1W < 1M < 3M < 1Y. */
const tenorDays = (t: string) => Number(t.slice(0, -1)) * ({ W: 7, M: 30, Y: 365 } as Record<string, number>)[t.slice(-1)]!;

export class LocalMarketData {
  readonly id = 'local';
  private readonly parsed = new Map<string, { stamp: string; table: Table }>();

  constructor(readonly dir: string) {}

  health(): ProviderHealth {
    if (!existsSync(join(this.dir, 'symbols.csv')))
      return { state: 'not_configured', detail: `No market data folder at ${this.dir} (symbols.csv is missing).` };
    const n = this.catalog().length;
    return { state: 'ok', detail: `${n} local series in ${this.dir}${this.isSample() ? ' (synthetic sample data, not market data)' : ''}` };
  }

  /** Every series the folder holds. */
  catalog(): CatalogEntry[] {
    const t = this.table('symbols.csv');
    const col = columnIndex(t, 'symbols.csv', ['symbol', 'kind', 'name', 'unit']);
    const src = t.header.indexOf('source');
    return t.rows
      .map((r) => ({
        symbol: (r[col.symbol!] ?? '').trim().toUpperCase(),
        kind: (r[col.kind!] ?? '').trim() as MarketKind,
        name: (r[col.name!] ?? '').trim(),
        unit: (r[col.unit!] ?? '').trim(),
        source: src >= 0 ? (r[src] ?? '').trim() : '',
      }))
      .filter((e) => e.symbol && (MARKET_KINDS as readonly string[]).includes(e.kind));
  }

  serves(kind: MarketKind, symbol: string): boolean {
    return this.catalog().some((e) => e.kind === kind && e.symbol === symbol);
  }

  symbols(kind: MarketKind): string[] {
    return this.catalog()
      .filter((e) => e.kind === kind)
      .map((e) => e.symbol);
  }

  isSample(): boolean {
    const c = this.catalog();
    return c.length > 0 && c.every((e) => e.source === 'sample');
  }

  /** The whole series (ascending, unwindowed); the provider applies dates and as-of. */
  load(params: Pick<MarketParams, 'kind' | 'symbol'>): { series: MarketSeries; source: string; notes: string[] } {
    const entry = this.catalog().find((e) => e.kind === params.kind && e.symbol === params.symbol);
    if (!entry) {
      throw new ProviderError(
        `The local market folder has no ${params.kind} series "${params.symbol}"; it has: ${this.symbols(params.kind).join(', ') || 'none'}.`,
        'not_found',
      );
    }
    const file = FILE_OF[params.kind];
    const t = this.table(file);
    const need =
      params.kind === 'implied_vol' ? ['date', 'symbol', 'tenor', 'delta', 'vol_pct'] : ['date', 'symbol', params.kind === 'price' ? 'close' : 'yield_pct'];
    const col = columnIndex(t, file, need);
    const srcCol = t.header.indexOf('source');
    const mine = t.rows.filter((r) => (r[col.symbol!] ?? '').trim().toUpperCase() === entry.symbol && ISO.test((r[col.date!] ?? '').trim()));
    const sources = new Set(mine.map((r) => (srcCol >= 0 ? (r[srcCol] ?? '').trim() : '') || entry.source || 'unlabelled'));
    const value = (s: string | undefined) => {
      const n = s === undefined || s.trim() === '' ? Number.NaN : Number(s);
      return Number.isFinite(n) ? n : null;
    };

    let series: MarketSeries;
    if (params.kind === 'implied_vol') {
      const byDate = new Map<string, Map<string, number | null>>();
      const cols = new Set<string>();
      for (const r of mine) {
        const tenor = (r[col.tenor!] ?? '').trim().toUpperCase();
        const delta = (r[col.delta!] ?? '').trim().toUpperCase();
        const c = `${tenor} ${delta}`;
        cols.add(c);
        const d = r[col.date!]!.trim();
        if (!byDate.has(d)) byDate.set(d, new Map());
        byDate.get(d)!.set(c, value(r[col.vol_pct!]));
      }
      const deltaRank = (d: string) => ((VOL_DELTAS as readonly string[]).indexOf(d) + 1 || 99) as number;
      const columns = [...cols].sort((a, b) => {
        const [ta, da] = a.split(' ') as [string, string];
        const [tb, db] = b.split(' ') as [string, string];
        return tenorDays(ta) - tenorDays(tb) || deltaRank(da) - deltaRank(db) || a.localeCompare(b);
      });
      const rows = [...byDate.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([date, m]) => ({ date, values: columns.map((c) => m.get(c) ?? null) }));
      series = { kind: 'implied_vol', symbol: entry.symbol, name: entry.name, unit: entry.unit || '% annualised', columns, rows };
    } else {
      const v = params.kind === 'price' ? col.close! : col.yield_pct!;
      const rows = mine.map((r) => ({ date: r[col.date!]!.trim(), values: [value(r[v])] })).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
      series = {
        kind: params.kind,
        symbol: entry.symbol,
        name: entry.name,
        unit: entry.unit || (params.kind === 'yield' ? '%' : 'quote currency'),
        columns: [params.kind === 'price' ? 'close' : 'yield'],
        rows,
      };
    }
    if (!series.rows.length) throw new ProviderError(`${file} has no rows for ${entry.symbol}.`, 'not_found');
    const sample = [...sources].every((s) => s === 'sample');
    const source = sample ? `sample ${file} (synthetic)` : `local ${file} (${[...sources].join(', ')})`;
    const notes = sample ? ['Synthetic sample data generated by scripts/generate-market-sample.ts: not market data.'] : [];
    return { series, source, notes };
  }

  /** A parsed file, re-read only when its size or modification time changes. */
  private table(file: string): Table {
    const path = join(this.dir, file);
    let stamp: string;
    try {
      const st = statSync(path);
      stamp = `${st.size}:${st.mtimeMs}`;
    } catch {
      throw new ProviderError(`The market data folder ${this.dir} has no ${file}.`, 'not_configured');
    }
    const hit = this.parsed.get(file);
    if (hit && hit.stamp === stamp) return hit.table;
    const rows = parseCsv(readFileSync(path, 'utf8'));
    const table = { header: (rows[0] ?? []).map((h) => h.trim().toLowerCase()), rows: rows.slice(1) };
    this.parsed.set(file, { stamp, table });
    return table;
  }
}

function columnIndex(t: Table, file: string, names: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  const missing: string[] = [];
  for (const n of names) {
    const i = t.header.indexOf(n);
    if (i < 0) missing.push(n);
    else out[n] = i;
  }
  if (missing.length) throw new ProviderError(`${file} lacks column(s) ${missing.join(', ')} (has ${t.header.join(', ')}).`, 'bad_response');
  return out;
}
