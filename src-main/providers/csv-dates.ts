/**
 * Reads one column of dates the way a PM's exports write them: ISO (2024-01-31), US (01/31/2024),
 * European (31/01/2024, 31.01.2024), compact (20240131, Stooq) and Excel serial days (45322, only
 * in a column named like a date). The day/month order is decided by the whole column — one value
 * above 12 settles it — and a column where every value could be either is refused rather than
 * guessed, because a wrong guess silently moves every observation to another month.
 */

export type DateFormat = 'YYYY-MM-DD' | 'MM/DD/YYYY' | 'DD/MM/YYYY' | 'MM.DD.YYYY' | 'DD.MM.YYYY' | 'YYYYMMDD' | 'Excel serial';

export interface DateColumn {
  format: DateFormat;
  /** Why this order, in words a PM can check against the file (e.g. `inferred: 31.01.2024 has day first`). */
  note: string | null;
  /** ISO dates, one per value; null where the value was missing. */
  iso: (string | null)[];
}

/** A value that cannot be read as a date: the index of the value and the reason, in one clause. */
export class DateColumnError extends Error {
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
    this.name = 'DateColumnError';
  }
}

// A midnight time part (pandas and database exports write `2024-01-31 00:00:00`) is still a date.
const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ]00:00(?::00(?:\.0+)?)?(?:Z|[+-]00:?00)?)?$/;
const DAY_MONTH = /^(\d{1,2})([/.])(\d{1,2})\2(\d{4})$/;
const COMPACT = /^(19|20)\d{6}$/;
const SERIAL = /^\d{5}$/;
/** Excel serials between 1954 and 2119: a five-digit count of days, nothing else in a date column. */
const SERIAL_MIN = 20000;
const SERIAL_MAX = 80000;

/** True when a header names a date column (`Date`, `observation_date`, `<DATE>`, `Datum`, …). */
export const namesDate = (header: string): boolean => /(^|[^a-z])date|datum|fecha|^day$|^time$/i.test(header.trim());

const pad = (n: number) => String(n).padStart(2, '0');

function isoOf(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1) return null;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d > days ? null : `${y}-${pad(m)}-${pad(d)}`;
}

function serialToIso(n: number): string {
  // Excel counts from 1899-12-30 (its day 60 is the 1900-02-29 that never was).
  const t = Date.UTC(1899, 11, 30) + n * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

type Kind = 'iso' | 'dm-slash' | 'dm-dot' | 'compact' | 'serial';

function kindOf(v: string, dateNamed: boolean): Kind | null {
  if (ISO.test(v)) return 'iso';
  const dm = DAY_MONTH.exec(v);
  if (dm) return dm[2] === '/' ? 'dm-slash' : 'dm-dot';
  if (dateNamed && COMPACT.test(v)) return 'compact';
  if (dateNamed && SERIAL.test(v) && +v >= SERIAL_MIN && +v <= SERIAL_MAX) return 'serial';
  return null;
}

/**
 * Reads `values` (missing ones already null) as dates. Returns null when the column does not look
 * like dates at all (its first value is no date); throws DateColumnError when it does but a value
 * breaks the pattern, is impossible (31/02), or the day/month order cannot be told.
 */
export function readDateColumn(values: (string | null)[], header: string): DateColumn | null {
  const dateNamed = namesDate(header);
  const first = values.findIndex((v) => v !== null);
  if (first < 0) return null;
  const kind = kindOf(values[first]!, dateNamed);
  if (!kind) return null;
  for (let i = first; i < values.length; i++) {
    const v = values[i];
    if (v !== null && kindOf(v, dateNamed) !== kind) throw new DateColumnError(i, `"${v}" is not a date written like "${values[first]}" above it`);
  }

  if (kind === 'iso' || kind === 'compact' || kind === 'serial') {
    const format: DateFormat = kind === 'iso' ? 'YYYY-MM-DD' : kind === 'compact' ? 'YYYYMMDD' : 'Excel serial';
    const iso = values.map((v, i) => {
      if (v === null) return null;
      if (kind === 'serial') return serialToIso(+v);
      const [y, m, d] = kind === 'iso' ? ISO.exec(v)!.slice(1).map(Number) : [+v.slice(0, 4), +v.slice(4, 6), +v.slice(6, 8)];
      const out = isoOf(y!, m!, d!);
      if (!out) throw new DateColumnError(i, `"${v}" is not a calendar date`);
      return out;
    });
    return { format, note: kind === 'serial' ? `Excel day numbers, e.g. ${values[first]} is ${iso[first]}` : null, iso };
  }

  // Day/month order: one value whose first part is above 12 proves day first; one whose second
  // part is, month first. Both in one column is a mixed file, neither an unknowable one.
  const sep = kind === 'dm-slash' ? '/' : '.';
  let dayFirst: string | null = null;
  let monthFirst: string | null = null;
  for (const v of values) {
    if (v === null) continue;
    const [, a, , b] = DAY_MONTH.exec(v)!;
    if (+a! > 12 && !dayFirst) dayFirst = v;
    if (+b! > 12 && !monthFirst) monthFirst = v;
  }
  if (dayFirst && monthFirst) {
    throw new DateColumnError(values.indexOf(monthFirst), `mixes day-first dates ("${dayFirst}") with month-first ones ("${monthFirst}")`);
  }
  if (!dayFirst && !monthFirst) {
    throw new DateColumnError(
      first,
      `every date (e.g. "${values[first]}") could be day-first or month-first, so the order cannot be told; write them as YYYY-MM-DD`,
    );
  }
  const format: DateFormat = dayFirst ? (sep === '/' ? 'DD/MM/YYYY' : 'DD.MM.YYYY') : sep === '/' ? 'MM/DD/YYYY' : 'MM.DD.YYYY';
  const iso = values.map((v, i) => {
    if (v === null) return null;
    const [, a, , b, y] = DAY_MONTH.exec(v)!;
    const out = dayFirst ? isoOf(+y!, +b!, +a!) : isoOf(+y!, +a!, +b!);
    if (!out) throw new DateColumnError(i, `"${v}" is not a calendar date as ${format}`);
    return out;
  });
  const proof = dayFirst ? `${dayFirst} has day first` : `${monthFirst} has month first`;
  return { format, note: `inferred: ${proof}`, iso };
}
