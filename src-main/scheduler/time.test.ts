import { describe, expect, it } from 'vitest';
import { JOBS } from './jobs';
import { formatLocal, latestSlot, localDate, nextSlot, resolveTimeZone } from './time';

const NY = 'America/New_York';
const cron = (name: string) => JOBS.find((j) => j.name === name)!.cron;
const next = (name: string, after: string, zone = NY) => nextSlot(cron(name), zone, new Date(after))?.toISOString();

describe('next runs in US/Eastern across daylight saving changes', () => {
  it('March: the 07:00 morning review stays 07:00 local while the UTC instant moves from 12:00Z to 11:00Z', () => {
    // Friday 6 March 2026 is still EST (UTC-5); clocks go forward on Sunday 8 March.
    expect(next('morning_review', '2026-03-06T05:00:00Z')).toBe('2026-03-06T12:00:00.000Z');
    // Monday 9 March is EDT (UTC-4): a run at 12:00Z would reach the PM at 08:00.
    expect(next('morning_review', '2026-03-06T12:00:00Z')).toBe('2026-03-09T11:00:00.000Z');
    expect(formatLocal(new Date('2026-03-09T11:00:00Z'), NY)).toBe('Mon 2026-03-09 07:00 EDT');
    // End of day: 16:30 EST on Friday, 16:30 EDT on Monday.
    expect(next('end_of_day', '2026-03-06T12:00:00Z')).toBe('2026-03-06T21:30:00.000Z');
    expect(next('end_of_day', '2026-03-06T21:30:00Z')).toBe('2026-03-09T20:30:00.000Z');
  });

  it('November: 07:00 EDT (11:00Z) on Friday, 07:00 EST (12:00Z) on the Monday after clocks go back', () => {
    expect(next('morning_review', '2026-10-30T05:00:00Z')).toBe('2026-10-30T11:00:00.000Z');
    expect(next('morning_review', '2026-10-30T11:00:00Z')).toBe('2026-11-02T12:00:00.000Z');
    expect(formatLocal(new Date('2026-11-02T12:00:00Z'), NY)).toBe('Mon 2026-11-02 07:00 EST');
  });

  it('the weekly retrospective is Friday 17:00 local, whatever the weekday and offset', () => {
    // From a Wednesday: that Friday, 17:00 EST = 22:00Z; the next Friday is EDT, 21:00Z.
    expect(next('weekly_retrospective', '2026-03-04T15:00:00Z')).toBe('2026-03-06T22:00:00.000Z');
    expect(next('weekly_retrospective', '2026-03-06T22:00:00Z')).toBe('2026-03-13T21:00:00.000Z');
    expect(new Date('2026-03-13T21:00:00Z').getUTCDay()).toBe(5);
    expect(formatLocal(new Date('2026-03-13T21:00:00Z'), NY)).toBe('Fri 2026-03-13 17:00 EDT');
  });

  it('hourly monitoring runs on weekday hours only: Friday 23:00 is followed by Monday 00:00', () => {
    expect(next('hourly_monitoring', '2026-01-17T04:00:00Z')).toBe('2026-01-19T05:00:00.000Z'); // Fri 23:00 EST → Mon 00:00 EST
  });

  it('the same slot in another zone is another instant (London 07:00 is 02:00 in New York)', () => {
    expect(next('morning_review', '2026-01-12T00:00:00Z', 'Europe/London')).toBe('2026-01-12T07:00:00.000Z');
    expect(localDate(new Date('2026-01-12T03:00:00Z'), NY)).toBe('2026-01-11');
  });
});

describe('latestSlot: the one slot a catch-up runs', () => {
  it('returns only the most recent of many missed slots, and nothing when none is owed', () => {
    const after = new Date('2026-01-12T11:00:00Z'); // Mon 06:00 EST
    const upTo = new Date('2026-01-15T13:20:00Z'); // Thu 08:20 EST
    expect(latestSlot(cron('morning_review'), NY, after, upTo, 8 * 86_400_000)?.toISOString()).toBe('2026-01-15T12:00:00.000Z');
    expect(latestSlot(cron('hourly_monitoring'), NY, after, upTo, 8 * 86_400_000)?.toISOString()).toBe('2026-01-15T13:00:00.000Z');
    expect(latestSlot(cron('weekly_retrospective'), NY, after, upTo, 8 * 86_400_000)).toBeNull();
    // A slot at exactly `after` was already handled.
    expect(latestSlot(cron('morning_review'), NY, new Date('2026-01-15T12:00:00Z'), upTo, 8 * 86_400_000)).toBeNull();
  });
});

describe('resolveTimeZone', () => {
  it('accepts the seed\'s "US/Eastern" as America/New_York, and defaults an empty setting to it', () => {
    expect(resolveTimeZone('US/Eastern')).toEqual({ zone: NY, note: null });
    expect(resolveTimeZone('')).toEqual({ zone: NY, note: null });
    expect(resolveTimeZone(' Europe/London ')).toEqual({ zone: 'Europe/London', note: null });
  });

  it('an unknown zone keeps schedules running in New York and says so (a typo must not silence the morning review)', () => {
    const r = resolveTimeZone('Mars/Olympus');
    expect(r.zone).toBe(NY);
    expect(r.note).toBe('"Mars/Olympus" is not a time zone Forge knows; schedules run in America/New_York until it is corrected in Settings.');
  });
});
