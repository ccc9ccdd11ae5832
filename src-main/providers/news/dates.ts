/**
 * Feed dates to ISO UTC. RSS 2.0 uses RFC 822 (`Tue, 10 Jun 2003 04:00:00 GMT`, often with a
 * numeric offset, sometimes a US zone name, a two-digit year or no seconds); Atom and Dublin Core
 * use RFC 3339 (`2003-12-13T18:30:02Z`). Anything else is unreadable: null, never a guess.
 */

const MONTHS: Record<string, number> = { jan: 0, feb: 1, mar: 2, apr: 3, may: 4, jun: 5, jul: 6, aug: 7, sep: 8, oct: 9, nov: 10, dec: 11 };

/** RFC 822 §5.1 zone names, in minutes east of UTC. Military single letters are ambiguous in practice (RFC 1123 §5.2.14) and refused. */
const ZONES: Record<string, number> = { UT: 0, UTC: 0, GMT: 0, Z: 0, EST: -300, EDT: -240, CST: -360, CDT: -300, MST: -420, MDT: -360, PST: -480, PDT: -420 };

const RFC822 =
  /^(?:[a-z]{3,9},?\s+)?(\d{1,2})\s+([a-z]{3,9})\.?\s+(\d{2}|\d{4})\s+(\d{1,2}):(\d{1,2})(?::(\d{1,2}))?\s*([+-]\d{4}|[+-]\d{2}:\d{2}|[a-z]{1,4})?$/i;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})(?:[t\s](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*(z|[+-]\d{2}:?\d{2})?)?$/i;

/** ISO UTC (`2024-12-02T14:03:11.000Z`) or null when the text is not a date we can read exactly. */
export function parseFeedDate(raw: unknown): string | null {
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  const s = String(raw).trim().replace(/\s+/g, ' ');
  if (!s || s.length > 64) return null;
  return parseRfc3339(s) ?? parseRfc822(s);
}

function parseRfc822(s: string): string | null {
  const m = RFC822.exec(s);
  if (!m) return null;
  const month = MONTHS[m[2]!.slice(0, 3).toLowerCase()];
  if (month === undefined) return null;
  let year = Number(m[3]);
  // RFC 2822 §4.3: two-digit years 00–49 are 2000s, 50–99 are 1900s.
  if (m[3]!.length === 2) year += year < 50 ? 2000 : 1900;
  const offset = zoneOffset(m[7]);
  if (offset === null) return null;
  return build(year, month, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0), 0, offset);
}

function parseRfc3339(s: string): string | null {
  const m = RFC3339.exec(s);
  if (!m) return null;
  const ms = m[7] ? Math.round(Number(m[7]) * 1000) : 0;
  // A bare date, or a time without a zone, is read as UTC: feeds that omit the zone almost always mean it.
  const offset = m[4] === undefined ? 0 : zoneOffset(m[8]);
  if (offset === null) return null;
  return build(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0), ms, offset);
}

/** Minutes east of UTC; an absent zone is UTC; an unknown name is null. */
function zoneOffset(zone: string | undefined): number | null {
  if (!zone) return 0;
  const numeric = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (numeric) {
    const mins = Number(numeric[2]) * 60 + Number(numeric[3]);
    if (Number(numeric[3]) > 59 || mins > 14 * 60) return null;
    return numeric[1] === '-' ? -mins : mins;
  }
  const named = ZONES[zone.toUpperCase()];
  return named === undefined ? null : named;
}

function build(year: number, month: number, day: number, hour: number, minute: number, second: number, ms: number, offsetMin: number): string | null {
  if (month < 0 || month > 11 || hour > 23 || minute > 59 || second > 60 || day < 1 || day > 31 || year < 1970 || year > 9999) return null;
  const t = Date.UTC(year, month, day, hour, minute, Math.min(second, 59), ms);
  // Date.UTC rolls 31 Feb over into March: a day that does not exist is not a date.
  if (new Date(t).getUTCDate() !== day) return null;
  return new Date(t - offsetMin * 60_000).toISOString();
}
