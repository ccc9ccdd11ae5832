import { readCsv } from '../../common/csv';
import type { DatedRow } from '../dated-table';
import { ProviderError } from '../provider';

/**
 * The ECB Data Portal's SDMX-CSV (`format=csvdata`): one row per observation, a KEY column naming
 * the series, one column per dimension, then TIME_PERIOD, OBS_VALUE and attributes (TITLE, UNIT,
 * …), RFC 4180 quoting (TITLE_COMPL holds commas), CRLF. Periods are `2024-03-28` (daily/business),
 * `2024-03` (monthly), `2024-Q1`, `2024-S1`, `2024-W12` or `2024`; each is dated by its last day,
 * since that is the first day the whole period can be known.
 */

export interface SdmxSeries {
  key: string;
  title?: string;
  unit?: string;
  unitMult?: string;
}

export interface SdmxTable {
  series: SdmxSeries[];
  /** Ascending by date; values in `series` order. */
  rows: DatedRow[];
}

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const lastOfMonth = (y: number, m: number) => iso(Date.UTC(y, m, 0)); // m is 1-based: day 0 of the next month

/** First and last day of an SDMX period, or null when it is not one. */
export function periodBounds(p: string): { start: string; end: string } | null {
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(p);
  if (m) {
    const d = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!);
    return iso(d) === p ? { start: p, end: p } : null;
  }
  m = /^(\d{4})-(\d{2})$/.exec(p);
  if (m) return +m[2]! >= 1 && +m[2]! <= 12 ? { start: `${p}-01`, end: lastOfMonth(+m[1]!, +m[2]!) } : null;
  m = /^(\d{4})-?Q([1-4])$/.exec(p);
  if (m) return { start: `${m[1]}-${String(3 * +m[2]! - 2).padStart(2, '0')}-01`, end: lastOfMonth(+m[1]!, 3 * +m[2]!) };
  m = /^(\d{4})-?S([12])$/.exec(p);
  if (m) return m[2] === '1' ? { start: `${m[1]}-01-01`, end: `${m[1]}-06-30` } : { start: `${m[1]}-07-01`, end: `${m[1]}-12-31` };
  m = /^(\d{4})-?W(\d{2})$/.exec(p);
  if (m && +m[2]! >= 1 && +m[2]! <= 53) {
    // ISO week 1 holds 4 January; weeks start on Monday.
    const jan4 = Date.UTC(+m[1]!, 0, 4);
    const monday = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY_MS + (+m[2]! - 1) * 7 * DAY_MS;
    return { start: iso(monday), end: iso(monday + 6 * DAY_MS) };
  }
  m = /^(\d{4})$/.exec(p);
  if (m) return { start: `${p}-01-01`, end: `${p}-12-31` };
  return null;
}

const UNITS: Record<string, string> = { PCPA: '% per annum', PCCH: '% change', PC: '%', PURE_NUMB: 'number', INDEX: 'index' };
export const unitName = (code: string | undefined): string | undefined => (code ? (UNITS[code] ?? code) : undefined);

const looksLikeHtml = (text: string) => /^\s*<(!doctype html|html|head|body)/i.test(text);

/** One answer of the data endpoint. `what` names the request in messages (e.g. `EXR/D.USD.EUR.SP00.A`). */
export function parseSdmxCsv(text: string, what: string): SdmxTable {
  if (looksLikeHtml(text)) throw new ProviderError(`The ECB answered ${what} with a web page, not SDMX-CSV.`, 'bad_response');
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') return { series: [], rows: [] };
  if (body.trimStart().startsWith('<')) throw new ProviderError(`The ECB answered ${what} with XML, not SDMX-CSV (format=csvdata).`, 'bad_response');
  const { records, unclosedQuoteAt } = readCsv(body);
  if (unclosedQuoteAt !== null)
    throw new ProviderError(`The ECB's answer for ${what} ends inside a quoted field (line ${unclosedQuoteAt}): the body was cut off.`, 'bad_response');
  if (!records.length) return { series: [], rows: [] };
  const header = records[0]!.cells.map((c) => c.trim());
  const col = (name: string) => header.indexOf(name);
  const [iKey, iPeriod, iValue] = [col('KEY'), col('TIME_PERIOD'), col('OBS_VALUE')];
  if (iPeriod < 0 || iValue < 0) {
    throw new ProviderError(
      `The ECB's answer for ${what} is not SDMX-CSV (no TIME_PERIOD/OBS_VALUE columns in "${header.join(',').slice(0, 60)}").`,
      'bad_response',
    );
  }
  const [iTitle, iUnit, iMult] = [col('TITLE'), col('UNIT'), col('UNIT_MULT')];
  const series = new Map<string, SdmxSeries>();
  const obs: { key: string; period: string; end: string; value: number | null }[] = [];
  for (const r of records.slice(1)) {
    const where = `the ECB's answer for ${what}, line ${r.line}`;
    // SDMX-CSV writes every column on every row; a short row is a cut-off body.
    if (r.cells.length !== header.length) {
      throw new ProviderError(
        `In ${where}: ${r.cells.length} fields where the header has ${header.length}; the body was cut off or is not SDMX-CSV.`,
        'bad_response',
      );
    }
    const key = iKey >= 0 ? r.cells[iKey]!.trim() : what;
    const period = r.cells[iPeriod]!.trim();
    const bounds = periodBounds(period);
    if (!bounds) throw new ProviderError(`In ${where}: "${period.slice(0, 20)}" is not an SDMX period.`, 'bad_response');
    const raw = r.cells[iValue]!.trim();
    const n = raw === '' || /^nan$/i.test(raw) ? null : Number(raw);
    if (n !== null && !Number.isFinite(n)) throw new ProviderError(`In ${where}: "${raw.slice(0, 20)}" is not a number.`, 'bad_response');
    if (!series.has(key)) {
      const cell = (i: number) => (i >= 0 ? r.cells[i]!.trim() || undefined : undefined);
      series.set(key, { key, title: cell(iTitle), unit: cell(iUnit), unitMult: cell(iMult) });
    }
    obs.push({ key, period, end: bounds.end, value: n });
  }
  const keys = [...series.keys()];
  const byPeriod = new Map<string, DatedRow>();
  for (const o of obs) {
    let row = byPeriod.get(o.period);
    if (!row) {
      row = { period: o.period, date: o.end, values: keys.map(() => null) };
      byPeriod.set(o.period, row);
    }
    row.values[keys.indexOf(o.key)] = o.value;
  }
  const rows = [...byPeriod.values()].sort((a, b) => (a.date === b.date ? a.period.localeCompare(b.period) : a.date < b.date ? -1 : 1));
  return { series: [...series.values()], rows };
}

/**
 * Column names for several series: the dimensions that differ between their keys
 * (`YC.B.U2.EUR.4F.G_N_A.SV_C_YM.SR_2Y` and `….SR_10Y` → `SR_2Y`, `SR_10Y`).
 */
export function seriesLabels(keys: string[]): string[] {
  if (keys.length < 2) return keys;
  const parts = keys.map((k) => k.split('.'));
  const width = Math.max(...parts.map((p) => p.length));
  const differ = Array.from({ length: width }, (_, i) => new Set(parts.map((p) => p[i])).size > 1);
  return parts.map((p) => p.filter((_, i) => differ[i]).join('.') || p.join('.'));
}

/**
 * Curve series in maturity order (the ECB sorts keys as text: SR_10Y before SR_2Y); other tables as they came.
 */
export function byMaturity(t: SdmxTable): SdmxTable {
  const months = t.series.map((s) => {
    const m = /_(\d+)([MY])$/.exec(s.key);
    return m ? Number(m[1]) * (m[2] === 'Y' ? 12 : 1) : null;
  });
  if (t.series.length < 2 || months.some((m) => m === null)) return t;
  const order = t.series.map((_, i) => i).sort((a, b) => months[a]! - months[b]!);
  return { series: order.map((i) => t.series[i]!), rows: t.rows.map((r) => ({ ...r, values: order.map((i) => r.values[i] ?? null) })) };
}
