/**
 * Pure helpers for showing memory records: splitting the canonical markdown into its header and
 * body, reading the listing metadata, and friendly dates.
 */

/** The body of a canonical record: everything after the first `---` line (the whole text if there is none). */
export function recordBody(content: string): string {
  const lines = content.replace(/\r\n?/g, '\n').split('\n');
  const sep = lines.findIndex((l) => l.trim() === '---');
  return sep < 0 ? content : lines.slice(sep + 1).join('\n');
}

/** `scope | conf:0.7 | active` → `['scope', 'conf:0.7', 'active']`. */
export function metaParts(meta: string): string[] {
  return meta
    .split('|')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "5 min ago", "3 h ago", "yesterday", "12 Mar" or "12 Mar 2024". */
export function relativeTime(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '—';
  const d = now - t;
  if (d < MINUTE && d > -MINUTE) return 'just now';
  if (d > 0 && d < HOUR) return `${Math.floor(d / MINUTE)} min ago`;
  if (d > 0 && d < DAY) return `${Math.floor(d / HOUR)} h ago`;
  if (d > 0 && d < 2 * DAY) return 'yesterday';
  const date = new Date(t);
  const sameYear = date.getUTCFullYear() === new Date(now).getUTCFullYear();
  return date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
    timeZone: 'UTC',
  });
}

/** Header values as text: lists joined, numbers as written, objects as compact JSON. */
export function headerValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return value.map(headerValue).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Which screen a record id belongs to, so links in a record (an Expression's `view: V-001`) can open it. */
export function screenOfId(id: string): { screen: 'views' | 'expressions'; file: string } | null {
  if (/^V-\d+$/.test(id)) return { screen: 'views', file: `${id}.md` };
  if (/^E-\d+$/.test(id)) return { screen: 'expressions', file: `${id}.md` };
  return null;
}
