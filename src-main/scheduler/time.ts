import { Cron } from 'croner';

/** The seed's default (US/Eastern), under its canonical IANA name. */
export const DEFAULT_TIME_ZONE = 'America/New_York';

/** Old-style names PMs still type (the seed's own "US/Eastern" among them), mapped to IANA zones. */
const ALIASES: Record<string, string> = {
  'US/Eastern': 'America/New_York',
  'US/Central': 'America/Chicago',
  'US/Mountain': 'America/Denver',
  'US/Pacific': 'America/Los_Angeles',
  EST5EDT: 'America/New_York',
  CST6CDT: 'America/Chicago',
  MST7MDT: 'America/Denver',
  PST8PDT: 'America/Los_Angeles',
};

export interface ResolvedTimeZone {
  /** The IANA zone schedules are computed in. */
  zone: string;
  /** Set when the configured zone could not be used (what the Schedule screen tells the PM). */
  note: string | null;
}

/**
 * The zone the Settings name, as an IANA zone. An unknown name never stops the schedules: they
 * run in the default zone and the note says why, until the PM corrects it in Settings.
 */
export function resolveTimeZone(configured: string | undefined): ResolvedTimeZone {
  const name = (configured ?? '').trim();
  if (!name) return { zone: DEFAULT_TIME_ZONE, note: null };
  const zone = ALIASES[name] ?? name;
  try {
    // Throws RangeError for a name the ICU data does not know.
    return { zone: new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone, note: null };
  } catch {
    return {
      zone: DEFAULT_TIME_ZONE,
      note: `"${name.slice(0, 64)}" is not a time zone Forge knows; schedules run in ${DEFAULT_TIME_ZONE} until it is corrected in Settings.`,
    };
  }
}

/** A parsed pattern in a zone (croner computes wall-clock times in the zone, DST included). */
function cronFor(pattern: string, zone: string): Cron {
  // paused + no callback: croner only computes times, it never starts a timer of its own.
  return new Cron(pattern, { timezone: zone, paused: true });
}

/** The first slot strictly after `after`. */
export function nextSlot(pattern: string, zone: string, after: Date): Date | null {
  return cronFor(pattern, zone).nextRun(after);
}

/**
 * The latest slot in (after, upTo], or null. Walks forward from at most `lookbackMs` before upTo,
 * so a job last run a year ago costs a bounded walk, not one step per missed slot.
 */
export function latestSlot(pattern: string, zone: string, after: Date, upTo: Date, lookbackMs: number): Date | null {
  const from = new Date(Math.max(after.getTime(), upTo.getTime() - lookbackMs));
  const cron = cronFor(pattern, zone);
  let latest: Date | null = null;
  for (let slot = cron.nextRun(from); slot && slot.getTime() <= upTo.getTime(); slot = cron.nextRun(slot)) latest = slot;
  return latest;
}

/** "Mon 2026-03-09 07:00 EDT": a slot as the PM reads it, in the schedule's zone. */
export function formatLocal(at: Date, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.weekday} ${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${parts.timeZoneName}`;
}

/** YYYY-MM-DD of an instant in a zone (the date a review is "for"). */
export function localDate(at: Date, zone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}
