import { type CsvTable, CsvFormatError } from '../csv-table';
import { parseFredObservationsXml } from '../economic/fred-xml';
import { ProviderError } from '../provider';
import { looksLikeYahooChart, readYahooChart } from './yahoo-chart';

/**
 * Vendor answers a PM saves into their data folder that are not CSV: Yahoo's chart JSON and
 * FRED's XML observations. Each becomes the same table a CSV does (date first, numbers, missing as
 * null) plus the sentence shown where a CSV's dialect is; a file that is neither, or is broken,
 * is a CsvFormatError with one sentence, so the folder reports it like a bad CSV and loads the rest.
 */

export const VENDOR_FILE = /\.(json|xml)$/i;

export interface VendorFileTable {
  table: CsvTable;
  /** What the file is and how it was read, e.g. `Yahoo chart JSON of AAPL (NasdaqGS, USD), 1d bars, dates in America/New_York, …`. */
  dialect: string;
  /** Sentences a reader must see with the data (splits and dividends, reported, not applied). */
  notes: string[];
}

const DIALECT_ISO = {
  delimiter: ',',
  decimalComma: false,
  header: true,
  encoding: 'UTF-8',
  bom: false,
  lineEnding: 'LF',
  dates: 'YYYY-MM-DD',
  datesNote: null,
} as const;

export function readVendorFile(file: string, bytes: Uint8Array): VendorFileTable {
  const head = Buffer.from(bytes.subarray(0, 400))
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  if (/\.json$/i.test(file)) {
    if (!looksLikeYahooChart(head))
      throw new CsvFormatError('This JSON file is not a Yahoo chart answer (it has no "chart" object); Forge reads JSON only in that form.');
    const chart = readYahooChart(bytes);
    return { table: chart.table, dialect: chart.description, notes: chart.eventsLine ? [chart.eventsLine] : [] };
  }
  if (!/<observations\b/.test(head))
    throw new CsvFormatError('This XML file is not a FRED observations answer (no <observations> element); Forge reads XML only in that form.');
  let obs: ReturnType<typeof parseFredObservationsXml>;
  try {
    obs = parseFredObservationsXml(
      Buffer.from(bytes)
        .toString('utf8')
        .replace(/^\uFEFF/, ''),
      file,
    );
  } catch (e) {
    if (e instanceof ProviderError) throw new CsvFormatError(e.message);
    throw e;
  }
  // A vintage file (several real-time periods) would repeat dates: the latest known value of each date is kept, and said.
  const byDate = new Map<string, { value: string; realtime: string }>();
  for (const o of obs.observations) {
    const prev = byDate.get(o.date);
    if (!prev || (o.realtime_start ?? '') >= prev.realtime) byDate.set(o.date, { value: o.value, realtime: o.realtime_start ?? '' });
  }
  const vintages = new Set(obs.observations.map((o) => o.realtime_start)).size;
  const rows = [...byDate.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([d, v]) => [d, v.value === '.' || v.value.trim() === '' ? null : v.value]);
  const bad = rows.find((r) => r[1] !== null && !Number.isFinite(Number(r[1])));
  if (bad) throw new CsvFormatError(`The FRED XML holds "${String(bad[1]).slice(0, 30)}" for ${bad[0]}, which is not a number.`);
  return {
    table: { dialect: { ...DIALECT_ISO }, header: ['date', 'value'], kinds: ['date', 'number'], rows, dated: true },
    dialect: `FRED XML observations (real-time ${obs.realtime_start ?? '?'}..${obs.realtime_end ?? '?'}${vintages > 1 ? `, ${vintages} vintages: the latest value of each date kept` : ''}), "." read as missing`,
    notes: [],
  };
}
