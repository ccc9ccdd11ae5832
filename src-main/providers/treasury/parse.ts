import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { readCsv } from '../../common/csv';
import type { DatedRow } from '../dated-table';
import { ProviderError } from '../provider';

/**
 * Readers for the Treasury's two official renderings of the daily par yield curves: the CSV
 * download (`Date,"1 Mo",…,"30 Yr"`, US dates, newest first, an empty cell for a tenor not
 * published that day) and the OData/Atom XML feed (`d:NEW_DATE`, `d:BC_10YEAR`, `d:TC_5YEAR`).
 * Both become one table keyed by tenor code (`1M`, `1.5M`, `10Y`) in maturity order. Anything
 * that is not that shape (a web page, a cut-off body) is a ProviderError('bad_response').
 */

export interface CurveTable {
  tenors: string[];
  /** Ascending by date; values in `tenors` order. */
  rows: DatedRow[];
}

/** Maturity in months, for ordering columns: `1.5M` → 1.5, `10Y` → 120. */
export function tenorMonths(t: string): number {
  const m = /^(\d+(?:\.\d+)?)([MY])$/.exec(t);
  if (!m) return Number.POSITIVE_INFINITY;
  return Number(m[1]) * (m[2] === 'Y' ? 12 : 1);
}

/** A CSV header (`1 Mo`, `1.5 Month`, `10 Yr`, `5 YR`, `1Mo`) as a tenor code, or null. */
export function tenorFromHeader(h: string): string | null {
  const s = h.replace(/\s+/g, '').toLowerCase();
  const m = /^(\d+(?:\.\d+)?)(mo|mos|month|months|yr|yrs|year|years)$/.exec(s);
  if (!m) return null;
  return `${Number(m[1])}${m[2]!.startsWith('y') ? 'Y' : 'M'}`;
}

/** An XML field (`BC_1MONTH`, `BC_1_5MONTH`, `TC_10YEAR`) as a tenor code; `BC_30YEARDISPLAY` and others are not tenors. */
export function tenorFromField(f: string): string | null {
  const m = /^(?:BC|TC)_(\d+)(?:_(\d+))?(MONTH|YEAR)$/.exec(f);
  if (!m) return null;
  return `${m[2] ? `${m[1]}.${m[2]}` : m[1]}${m[3] === 'YEAR' ? 'Y' : 'M'}`;
}

const looksLikeHtml = (text: string) => /^\s*<(!doctype html|html|head|body)/i.test(text);

function num(cell: string | undefined, where: string): number | null {
  const s = (cell ?? '').trim();
  if (s === '' || /^n\/?a$/i.test(s)) return null;
  const n = Number(s);
  if (!Number.isFinite(n)) throw new ProviderError(`${where}: "${s.slice(0, 20)}" is not a rate.`, 'bad_response');
  return n;
}

function usDate(s: string, where: string): string {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s.trim());
  const iso = m ? `${m[3]}-${m[1]!.padStart(2, '0')}-${m[2]!.padStart(2, '0')}` : '';
  const d = new Date(`${iso}T00:00:00Z`);
  if (!m || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso) {
    throw new ProviderError(`${where}: "${s.slice(0, 20)}" is not a MM/DD/YYYY date.`, 'bad_response');
  }
  return iso;
}

/** The CSV download of one year. `what` names it in messages (e.g. `the 2023 nominal curve CSV`). */
export function parseTreasuryCsv(text: string, what: string): CurveTable {
  if (looksLikeHtml(text)) throw new ProviderError(`Treasury answered ${what} with a web page, not the CSV.`, 'bad_response');
  const { records, unclosedQuoteAt } = readCsv(text.replace(/^\uFEFF/, ''));
  if (unclosedQuoteAt !== null)
    throw new ProviderError(`Treasury's ${what} ends inside a quoted field (line ${unclosedQuoteAt}): the body was cut off.`, 'bad_response');
  if (!records.length) return { tenors: [], rows: [] };
  const header = records[0]!.cells.map((c) => c.trim());
  if (header[0]?.toLowerCase() !== 'date') {
    throw new ProviderError(`Treasury's ${what} does not start with a Date column (got "${header.join(',').slice(0, 60)}").`, 'bad_response');
  }
  const cols = header.slice(1).map((h) => ({ h, tenor: tenorFromHeader(h) }));
  const unknown = cols.find((c) => !c.tenor);
  if (unknown) throw new ProviderError(`Treasury's ${what} has a column "${unknown.h.slice(0, 30)}" that is not a tenor.`, 'bad_response');
  const tenors = cols.map((c) => c.tenor!);
  const rows: DatedRow[] = records.slice(1).map((r) => {
    const where = `Treasury's ${what}, line ${r.line}`;
    // Every row the Treasury writes has every column (empty when not published); a short one is a cut-off body.
    if (r.cells.length !== header.length) {
      throw new ProviderError(
        `${where} has ${r.cells.length} fields where the header has ${header.length}: the body was cut off or is not the Treasury's.`,
        'bad_response',
      );
    }
    const date = usDate(r.cells[0]!, where);
    return { period: date, date, values: r.cells.slice(1).map((c) => num(c, where)) };
  });
  return ordered(tenors, rows);
}

const xml = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: true,
  parseTagValue: false,
  // Entities are not needed (numbers and dates only); not expanding them also keeps a full year's
  // `&amp;` in entry ids away from the parser's expansion cap.
  processEntities: false,
  isArray: (name) => name === 'entry',
});

/** The OData/Atom XML feed of one year. */
export function parseTreasuryXml(text: string, what: string): CurveTable {
  if (looksLikeHtml(text)) throw new ProviderError(`Treasury answered ${what} with a web page, not the XML feed.`, 'bad_response');
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw new ProviderError(
      `Treasury's ${what} is not well-formed XML (line ${valid.err.line}: ${valid.err.msg.slice(0, 80)}); the body was cut off or is not the feed.`,
      'bad_response',
    );
  }
  const doc = xml.parse(text) as { feed?: { entry?: unknown[] } };
  if (!doc.feed) throw new ProviderError(`Treasury's ${what} is XML but not an Atom feed.`, 'bad_response');
  const seen = new Set<string>();
  const entries = (doc.feed.entry ?? []).map((e, i) => {
    const props = (e as { content?: { properties?: Record<string, unknown> } }).content?.properties;
    const where = `Treasury's ${what}, entry ${i + 1}`;
    const day = typeof props?.NEW_DATE === 'string' ? props.NEW_DATE.slice(0, 10) : '';
    if (!props || !/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new ProviderError(`${where} has no NEW_DATE.`, 'bad_response');
    const values = new Map<string, number | null>();
    for (const [k, v] of Object.entries(props)) {
      const tenor = tenorFromField(k);
      if (!tenor) continue;
      seen.add(tenor);
      values.set(tenor, num(typeof v === 'string' ? v : '', where));
    }
    return { day, values };
  });
  const tenors = [...seen];
  return ordered(
    tenors,
    entries.map((e) => ({ period: e.day, date: e.day, values: tenors.map((t) => e.values.get(t) ?? null) })),
  );
}

/** Columns in maturity order, rows ascending by date with one row per day (the last one sent wins). */
function ordered(tenors: string[], rows: DatedRow[]): CurveTable {
  const order = tenors.map((t, i) => ({ t, i })).sort((a, b) => tenorMonths(a.t) - tenorMonths(b.t));
  const byDate = new Map<string, DatedRow>();
  for (const r of rows) byDate.set(r.date, { ...r, values: order.map((o) => r.values[o.i] ?? null) });
  return { tenors: order.map((o) => o.t), rows: [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)) };
}

/** Several years' tables as one: the union of tenors (a tenor a year lacks is empty there). */
export function mergeCurves(tables: CurveTable[]): CurveTable {
  const tenors = [...new Set(tables.flatMap((t) => t.tenors))].sort((a, b) => tenorMonths(a) - tenorMonths(b));
  const rows = tables.flatMap((t) => t.rows.map((r) => ({ ...r, values: tenors.map((x) => (t.tenors.includes(x) ? r.values[t.tenors.indexOf(x)]! : null)) })));
  return ordered(tenors, rows);
}
