/**
 * The trading day of a bar, in the exchange's own time zone. Vendors stamp daily bars with an
 * instant (Polygon: the session start in New York, Yahoo: the regular open), and cutting that
 * instant at UTC midnight puts a US evening bar, or an Asian morning bar, on the wrong day.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

/** True when the runtime knows this IANA zone (e.g. `America/New_York`). */
export function isTimeZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    // en-CA writes YYYY-MM-DD.
    f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(zone, f);
  }
  return f;
}

/** YYYY-MM-DD of `epochMs` on the exchange's wall clock (daylight saving included). */
export function exchangeDate(epochMs: number, zone: string): string {
  return formatter(zone).format(new Date(epochMs));
}

/** YYYY-MM-DD at a fixed offset from UTC (Yahoo's `gmtoffset`, seconds), when the zone's name is unknown. */
export function offsetDate(epochMs: number, offsetSeconds: number): string {
  return new Date(epochMs + offsetSeconds * 1000).toISOString().slice(0, 10);
}
