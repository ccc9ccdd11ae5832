import type { ScheduleJobView, ScheduleRunView } from '../../src-main/api/schedule';

/**
 * The Schedule screen's pure logic: a cron pattern in words, labels for triggers and statuses,
 * and merging a pushed job into the cached listing. Tested without a DOM.
 */

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function dayName(field: string): string | null {
  if (!/^\d$/.test(field)) return null;
  const n = Number(field) % 7; // cron allows 7 for Sunday
  return DAY_NAMES[n] ?? null;
}

function joinWords(words: string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** "on weekdays", "on Fridays", "on Mondays and Thursdays", "Tuesday to Thursday"; "" for every day; null when not understood. */
function daysInWords(dow: string): string | null {
  if (dow === '*' || dow === '0-6' || dow === '1-7') return '';
  if (dow === '1-5' || dow.toUpperCase() === 'MON-FRI') return 'on weekdays';
  if (dow === '0,6' || dow === '6,0' || dow === '6-7') return 'at weekends';
  const range = /^(\d)-(\d)$/.exec(dow);
  if (range) {
    const a = dayName(range[1]!);
    const b = dayName(range[2]!);
    return a && b ? `${a} to ${b}` : null;
  }
  const names = dow.split(',').map(dayName);
  if (names.some((n) => n === null)) return null;
  return `on ${joinWords((names as string[]).map((n) => `${n}s`))}`;
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * A five-field cron pattern as the PM reads it: `0 7 * * 1-5` → "Weekdays at 07:00",
 * `0 17 * * 5` → "Fridays at 17:00", `0 * * * 1-5` → "Every hour on the hour, on weekdays".
 * Patterns it does not understand are shown as they are, prefixed "cron", never guessed at.
 */
export function cronInWords(pattern: string): string {
  const fields = pattern.trim().split(/\s+/);
  const raw = `cron ${pattern.trim()}`;
  if (fields.length !== 5) return raw;
  const [min, hour, dom, month, dow] = fields as [string, string, string, string, string];
  if (month !== '*') return raw;
  const days = daysInWords(dow);
  if (days === null) return raw;
  const isNum = (f: string, max: number) => /^\d{1,2}$/.test(f) && Number(f) <= max;
  const withDays = (s: string) => (days ? `${s}, ${days}` : s);

  // Every N minutes.
  const step = /^\*\/(\d{1,2})$/.exec(min);
  if (step && hour === '*' && dom === '*') return withDays(`Every ${Number(step[1])} minutes`);
  if (min === '*' && hour === '*' && dom === '*') return withDays('Every minute');

  if (!isNum(min, 59)) return raw;
  // Hourly.
  if (hour === '*' && dom === '*') return withDays(Number(min) === 0 ? 'Every hour on the hour' : `Every hour at ${two(Number(min))} minutes past`);

  if (!isNum(hour, 23)) return raw;
  const time = `${two(Number(hour))}:${two(Number(min))}`;
  if (dom !== '*') {
    if (!isNum(dom, 31) || days !== '') return raw;
    return `On day ${Number(dom)} of every month at ${time}`;
  }
  if (days === '') return `Every day at ${time}`;
  // "on weekdays" → "Weekdays at 07:00"; "on Fridays" → "Fridays at 17:00"; a range keeps its words.
  const lead = days.replace(/^on /, '').replace(/^at /, '');
  return `${lead.charAt(0).toUpperCase()}${lead.slice(1)} at ${time}`;
}

export const triggerLabel: Record<ScheduleRunView['trigger'], string> = {
  schedule: 'On time',
  catch_up: 'Caught up',
  manual: 'Run now',
};

export const runStatusLabel: Record<ScheduleRunView['status'], string> = {
  running: 'Running',
  ok: 'Done',
  failed: 'Failed',
  skipped: 'Skipped (missed)',
  interrupted: 'Interrupted',
};

/** A UTC instant in the PM's own clock: "Mon 9 Mar, 07:00". */
export function localTime(iso: string | null, timeZone?: string): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return new Date(t).toLocaleString('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    ...(timeZone ? { timeZone } : {}),
  });
}

/** The job's state in a word or two: "Paused", "Running now", "Scheduled". */
export function jobState(job: Pick<ScheduleJobView, 'paused' | 'running'>): { label: string; tone: 'ok' | 'warn' | 'live' } {
  if (job.running) return { label: 'Running now', tone: 'live' };
  if (job.paused) return { label: 'Paused', tone: 'warn' };
  return { label: 'Scheduled', tone: 'ok' };
}

/** What the budget allows, in one line; monitoring runs no analyses, so it says so. */
export function budgetLine(b: ScheduleJobView['budget']): string {
  if (b.analyses === 0 && b.maxCostUsd === 0) return `No model calls · up to ${b.maxMinutes} min`;
  return `Up to ${b.analyses} analyses · $${b.maxCostUsd} · ${b.maxMinutes} min`;
}

/** A pushed job replaces its entry in the cached listing; an unknown job is appended. */
export function upsertJob(jobs: readonly ScheduleJobView[], next: ScheduleJobView): ScheduleJobView[] {
  const at = jobs.findIndex((j) => j.job === next.job);
  if (at < 0) return [...jobs, next];
  const out = jobs.slice();
  out[at] = next;
  return out;
}

/** How a replay request reads in "Replaying …". */
export function replayRequestLabel(r: { date?: string; runId?: number }): string {
  if (r.runId !== undefined) return `the morning review of run ${r.runId}`;
  return `the morning of ${r.date ?? '?'}`;
}

/** One Outcome recorded after a replayed morning, in words: when, hit or miss, P&L, why it closed. */
export function replayOutcomeLine(o: { recordedAt: string; hit: boolean | null; pnl: string | null; exitReason: string | null }): string {
  const verdict = o.hit === true ? 'hit' : o.hit === false ? 'missed' : 'unresolved';
  return [`recorded ${o.recordedAt.slice(0, 10)}`, verdict, o.pnl, o.exitReason && `closed on ${o.exitReason}`].filter(Boolean).join(' · ');
}
