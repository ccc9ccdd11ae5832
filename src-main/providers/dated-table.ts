import type { ProviderResult } from './provider';

/**
 * A dated table of numbers (a yield curve by tenor, one or several ECB series) and its two
 * renderings. Shared by the `treasury` and `ecb` providers so both say the same things the same
 * way: how many rows were shown of how many, how many were cut for the session's as-of date, and
 * what "as of" means (the last row with a value, never a blank one).
 */

export interface DatedRow {
  /** As the source writes it: `2024-03-28`, or an ECB period such as `2024-03`. */
  period: string;
  /** The day the row is known from, YYYY-MM-DD (a period's last day); what as-of compares. */
  date: string;
  /** One per column; null is missing (an empty cell, a tenor not published then). */
  values: (number | null)[];
}

export interface DatedTableView {
  provider: string;
  /** e.g. `US Treasury par yield curve (nominal)`, `ECB EXR/D.USD.EUR.SP00.A (US dollar/Euro)`. */
  title: string;
  /** Short id for the label, e.g. `UST nominal`, `ECB eurusd`. */
  short: string;
  source: string;
  columns: string[];
  /** Unit of every value, e.g. `% p.a.`; shown once in the full text. */
  unit?: string;
  /** Rows in date order, already cut to the session's as-of date and to the range asked. */
  rows: DatedRow[];
  /** How many rows matched before only the most recent `rows.length` were kept. */
  total: number;
  removedAfterAsOf?: { count: number; asOf: string };
  /** The range asked, `start..end` (`…` for an open end). */
  range: string;
  asOf: string;
  fetchedAt: string;
  /** Extra sentences for the summary (a spread, a change over the range). */
  notes?: string[];
  /** Extra `key: value` lines for the full text (series keys, units per column). */
  meta?: string[];
}

const cell = (s: string) => s.replace(/\|/g, '/').replace(/\s+/g, ' ').trim();
export const fmtNumber = (n: number): string => String(Math.round(n * 1e6) / 1e6);

/** Rows dated after the as-of day are cut here, whatever the server sent; returns what was kept and how many went. */
export function cutAfterAsOf(rows: DatedRow[], asOf: string | undefined): { kept: DatedRow[]; removed: number } {
  if (!asOf) return { kept: rows, removed: 0 };
  const kept = rows.filter((r) => r.date <= asOf);
  return { kept, removed: rows.length - kept.length };
}

/** The day of the last row holding at least one value: a blank row says nothing about when the data ends. */
export function lastValueDate(rows: DatedRow[]): string | undefined {
  return rows.findLast((r) => r.values.some((v) => v !== null))?.date;
}

export function removedSentence(r: { count: number; asOf: string }, noun = 'row'): string {
  return `${r.count} ${noun}${r.count === 1 ? '' : 's'} after ${r.asOf} ${r.count === 1 ? 'was' : 'were'} removed (the session is as of ${r.asOf}).`;
}

export function datedTableResult(v: DatedTableView, noun = 'obs'): ProviderResult {
  const rows = v.rows;
  if (!rows.length) return emptyResult(v);
  const first = rows[0]!.period;
  const last = rows[rows.length - 1]!.period;
  const label = `${v.short} ${first}..${last}`;
  const shown = v.total > rows.length ? `${rows.length} of ${v.total} ${noun} (the most recent)` : `${rows.length} ${noun}`;
  const parts = [`${v.title}: ${shown} ${first}..${last}.`, latestSentence(v)];
  parts.push(...(v.notes ?? []));
  if (v.removedAfterAsOf) parts.push(removedSentence(v.removedAfterAsOf));
  const summary = parts.filter(Boolean).join(' ');
  const full = () =>
    [
      `# ctx — ${v.provider}: ${cell(v.title)}`,
      `source: ${v.source}`,
      ...(v.meta ?? []),
      v.unit ? `unit: ${v.unit}` : null,
      `as_of: ${v.asOf}`,
      `rows: ${rows.length}${v.total > rows.length ? ` (most recent of ${v.total})` : ''}`,
      v.removedAfterAsOf ? `removed_after_as_of: ${v.removedAfterAsOf.count}` : null,
      `range_asked: ${v.range}`,
      `range: ${first}..${last}`,
      'missing: empty cell',
      `fetched_at: ${v.fetchedAt}`,
      '---',
      '## SUMMARY',
      summary,
      '',
      '## DATA',
      `| date | ${v.columns.map(cell).join(' | ')} |`,
      `|---|${v.columns.map(() => '---|').join('')}`,
      ...rows.map((r) => `| ${r.period} | ${r.values.map((x) => (x === null ? '' : fmtNumber(x))).join(' | ')} |`),
      '',
    ]
      .filter((l): l is string => l !== null)
      .join('\n');
  return { label, asOf: v.asOf, source: v.source, formatFull: full, formatSummary: () => summary };
}

/** `Latest 2023-09-01: 2Y 4.87, 10Y 4.18.` for a curve; `Latest 2023-03-01 1.0684 (prev …); min …, max ….` for one series. */
function latestSentence(v: DatedTableView): string {
  const withValue = v.rows.filter((r) => r.values.some((x) => x !== null));
  const latest = withValue[withValue.length - 1];
  if (!latest) return 'No values (all missing).';
  if (v.columns.length === 1) {
    const prev = withValue[withValue.length - 2];
    const ns = withValue.map((r) => r.values[0]!);
    return `Latest ${latest.period} ${fmtNumber(latest.values[0]!)}${prev ? ` (prev ${prev.period} ${fmtNumber(prev.values[0]!)})` : ''}; min ${fmtNumber(Math.min(...ns))}, max ${fmtNumber(Math.max(...ns))}.`;
  }
  const pairs = v.columns.flatMap((c, i) => (latest.values[i] === null ? [] : [`${c} ${fmtNumber(latest.values[i]!)}`]));
  return `Latest ${latest.period}: ${pairs.join(', ')}.`;
}

function emptyResult(v: DatedTableView): ProviderResult {
  const summary = [`${v.title}: no observations in ${v.range}.`, ...(v.notes ?? []), v.removedAfterAsOf ? removedSentence(v.removedAfterAsOf) : null]
    .filter(Boolean)
    .join(' ');
  const full = () =>
    [
      `# ctx — ${v.provider}: ${cell(v.title)}`,
      `source: ${v.source}`,
      ...(v.meta ?? []),
      `as_of: ${v.asOf}`,
      'rows: 0',
      v.removedAfterAsOf ? `removed_after_as_of: ${v.removedAfterAsOf.count}` : null,
      `range_asked: ${v.range}`,
      `fetched_at: ${v.fetchedAt}`,
      '---',
      '## SUMMARY',
      summary,
      '',
    ]
      .filter((l): l is string => l !== null)
      .join('\n');
  return { label: `${v.short} ${v.range} (no observations)`, asOf: v.asOf, source: v.source, formatFull: full, formatSummary: () => summary };
}
