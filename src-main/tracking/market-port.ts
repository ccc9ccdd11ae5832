import { AppError } from '../common/errors';
import { ProviderError, type ProviderRegistry, type ProviderResult } from '../providers';
import type { PricePoint } from './pnl';

/** Daily closes of one instrument, with the data's own as-of date and where it came from. */
export interface PriceSeries {
  points: PricePoint[];
  /** The last observation's date (the provider's as-of). */
  asOf: string;
  source: string;
  /** The registry provider that answered (`market`, `datasets`). */
  provider: string;
  /** `price` or `yield` when the source says so (the market provider); null for a plain dataset column. */
  kind: 'price' | 'yield' | null;
}

/**
 * What the trackers need from market data; the host implements it with the provider registry
 * (`marketPortFromRegistry`). `instrument` is one entry of an Expression's `price_series`.
 * Throws `MarketDataError` when the instrument has no data in the range.
 */
export interface MarketPort {
  prices(instrument: string, from: string, to: string, signal?: AbortSignal): Promise<PriceSeries>;
}

/** No usable market data for an instrument (unknown, not configured, source down, empty range). */
export class MarketDataError extends AppError {
  constructor(message: string) {
    super('unavailable', message);
    this.name = 'MarketDataError';
  }
}

const SYMBOL = /^[A-Za-z0-9][A-Za-z0-9_-]{0,19}$/;
/**
 * `<dataset>.<column>`. A dataset is its file name without the extension, so it may hold dots
 * (Stooq's `spy.us.csv` → `spy.us.close`); a column may hold spaces (Yahoo's `spy.Adj Close`, or
 * `spy.adj_close`: the datasets provider matches columns with case, spaces and punctuation aside).
 */
const DATASET_COLUMN = /^([a-z0-9][a-z0-9._-]{0,63})\.(\S(?:[^\n]{0,62}\S)?)$/i;
const DATASET_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/i;
/** A ticker with its market's suffix (Stooq's `SPY.US`, `VOD.UK`): the market provider's, unless the PM's folder has that dataset. */
const SUFFIXED_SYMBOL = /^[A-Za-z0-9][A-Za-z0-9_-]{0,14}\.[A-Za-z]{1,2}$/;
/** Both providers return at most 500 rows, the latest ones: a longer range is read in pages. */
const PAGE_ROWS = 500;
const MAX_PAGES = 8;

/**
 * The market port over the provider registry. `UST2Y`, `EURUSD` → the `market` provider (as a
 * price, then as a yield); `ust_yields.sofr_2y_swap` → the `datasets` provider's column. A symbol
 * the market provider does not serve falls back to a dataset of the same name's `close` column
 * (`SPX` → `spx.close`) before giving up. A dotted reference names a dataset the folder holds
 * first (`spy.us.close`, or `spy.us` for its close); otherwise `SPY.US` is a market symbol.
 * Everything goes through `ProviderRegistry.fetch`, so switched-off providers, health and as-of
 * rules apply exactly as for the analyst.
 */
export function marketPortFromRegistry(registry: ProviderRegistry): MarketPort {
  return {
    async prices(instrument, from, to, signal) {
      const ref = instrument.trim();
      // A symbol the market does not serve is looked for in the datasets: `SPX` → spx.close.
      let fromDatasets = () => readDataset(registry, knownDataset(registry, ref) ?? ref.toLowerCase(), 'close', from, to, signal);
      if (DATASET_COLUMN.test(ref)) {
        const split = splitDatasetColumn(registry, ref);
        if (split.known) return readDataset(registry, split.dataset, split.column, from, to, signal);
        const whole = knownDataset(registry, ref);
        if (whole) return readDataset(registry, whole, 'close', from, to, signal);
        fromDatasets = () => readDataset(registry, split.dataset, split.column, from, to, signal);
        if (!SUFFIXED_SYMBOL.test(ref) || !registry.enabled('market')) return fromDatasets();
      } else if (!SYMBOL.test(ref)) {
        throw new MarketDataError(
          `"${ref.slice(0, 40)}" is not a price series: use a market symbol such as UST2Y, or a file in your data folder and its column, such as spy.close.`,
        );
      }
      const problems: string[] = [];
      if (registry.enabled('market')) {
        for (const kind of ['price', 'yield'] as const) {
          try {
            return await paged(from, to, (start, end) => registry.fetch('market', { kind, symbol: ref, start, end }, { signal }), kind, 'market');
          } catch (e) {
            if (!(e instanceof ProviderError) || e.kind !== 'not_found') throw asMarketError(e, ref);
            problems.push(e.message);
          }
        }
      } else problems.push('the market source is switched off');
      if (registry.enabled('datasets')) {
        try {
          return await fromDatasets();
        } catch (e) {
          problems.push((e as Error).message);
        }
      }
      // "No observations in range" says more than "no price series" for a symbol that is a yield.
      const why = problems.find((p) => p.includes('observations')) ?? problems[0] ?? 'no source serves it';
      throw new MarketDataError(`No market data for ${ref}: ${why}`);
    },
  };
}

/** The datasets the `datasets` provider serves now, when it can list them (the CSV provider can). */
function datasetNames(registry: ProviderRegistry): string[] | null {
  const p = registry.get('datasets') as { datasets?: () => string[] } | undefined;
  return typeof p?.datasets === 'function' ? p.datasets() : null;
}

/** The served dataset a name means: exactly, else the one that differs only in case (`SPY.csv` for `spy`). */
function knownDataset(registry: ProviderRegistry, name: string): string | null {
  const names = datasetNames(registry);
  if (!names) return null;
  return names.find((n) => n === name) ?? names.find((n) => n.toLowerCase() === name.toLowerCase()) ?? null;
}

/**
 * Where `<dataset>.<column>` splits when the dataset's own name has dots: at the dot whose left
 * side is a dataset the folder holds (the longest such), else at the last dot possible.
 */
export function splitDatasetColumn(registry: ProviderRegistry, ref: string): { dataset: string; column: string; known: boolean } {
  const splits: { dataset: string; column: string }[] = [];
  for (let i = ref.lastIndexOf('.'); i > 0; i = ref.lastIndexOf('.', i - 1)) {
    const dataset = ref.slice(0, i);
    const column = ref.slice(i + 1);
    if (DATASET_NAME.test(dataset) && /^\S/.test(column)) splits.push({ dataset, column });
  }
  for (const s of splits) {
    const known = knownDataset(registry, s.dataset);
    if (known) return { dataset: known, column: s.column, known: true };
  }
  return { ...(splits[0] ?? { dataset: ref, column: 'close' }), known: false };
}

async function readDataset(registry: ProviderRegistry, dataset: string, column: string, from: string, to: string, signal?: AbortSignal): Promise<PriceSeries> {
  try {
    return await paged(from, to, (start, end) => registry.fetch('datasets', { dataset, columns: [column], start, end }, { signal }), null, 'datasets');
  } catch (e) {
    throw asMarketError(e, `${dataset}.${column}`);
  }
}

function asMarketError(e: unknown, ref: string): MarketDataError {
  if (e instanceof MarketDataError) return e;
  return new MarketDataError(`No market data for ${ref}: ${(e as Error)?.message ?? String(e)}`);
}

/** Fetches [from, to], walking back page by page when the source returned only the latest rows. */
async function paged(
  from: string,
  to: string,
  fetchRange: (start: string, end: string) => Promise<ProviderResult>,
  kind: PriceSeries['kind'],
  provider: string,
): Promise<PriceSeries> {
  let end = to;
  let points: PricePoint[] = [];
  let first: { asOf: string; source: string; kind: PriceSeries['kind'] } | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    let result: ProviderResult;
    try {
      result = await fetchRange(from, end);
    } catch (e) {
      // An earlier page already answered: the range simply has nothing older.
      if (first && e instanceof ProviderError && e.kind === 'not_found') break;
      throw e;
    }
    const table = parseDataTable(result.formatFull());
    first ??= { asOf: result.asOf.slice(0, 10), source: result.source, kind: table.kind ?? kind };
    points = [...table.rows.filter((p) => !points.length || p.date < points[0]!.date), ...points];
    if (table.rowCount < PAGE_ROWS || !table.rows.length || table.rows[0]!.date <= from) break;
    end = dayBefore(table.rows[0]!.date);
    if (end < from) break;
  }
  if (!first || !points.length) throw new MarketDataError(`no closes between ${from} and ${to}`);
  return { points, asOf: first.asOf, source: first.source, provider, kind: first.kind };
}

const dayBefore = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/**
 * Reads the `## DATA` table of a provider's full result (`| date | close (USD) |` for market
 * series, `| date | us2y |` for a dataset column): the first value column, blank cells skipped.
 */
export function parseDataTable(markdown: string): { rows: PricePoint[]; rowCount: number; kind: PriceSeries['kind'] } {
  const lines = markdown.split('\n');
  const kindLine = /^kind:\s*(price|yield)\s*$/m.exec(markdown);
  const at = lines.findIndex((l) => l.trim() === '## DATA');
  if (at < 0) throw new MarketDataError('the source answered without a data table');
  const rows: PricePoint[] = [];
  let rowCount = 0;
  for (const line of lines.slice(at + 3)) {
    if (!line.startsWith('|')) break;
    const cells = line.split('|').map((c) => c.trim());
    const date = cells[1] ?? '';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) continue;
    rowCount++;
    const raw = cells[2] ?? '';
    const close = raw === '' ? Number.NaN : Number(raw);
    if (Number.isFinite(close)) rows.push({ date, close });
  }
  rows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return { rows, rowCount, kind: kindLine ? (kindLine[1] as 'price' | 'yield') : null };
}
