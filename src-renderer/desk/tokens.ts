import type { ProcedureOutput } from '../../src-main/api';

export type DeskToken = ProcedureOutput<'desk/tokens'>['tokens'][number];

/** A PostgreSQL timestamp as the desk sends it ("2026-11-28 17:10:00.12+00") in ms, or NaN. */
export function timeOf(at: string): number {
  return Date.parse(at.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
}

/** The day (and minute) a token was made or last used, for a list read at a glance. */
export const shortTime = (at: string | null): string => (at ? at.replace('T', ' ').slice(0, 16) : 'never');

export function tokenState(t: DeskToken, now = Date.now()): 'active' | 'revoked' | 'expired' {
  if (t.revokedAt) return 'revoked';
  return timeOf(t.expiresAt) <= now ? 'expired' : 'active';
}

/** The API tokens (not sign-in sessions), live ones first, each group newest first as the server sends them. */
export function apiTokens(tokens: DeskToken[], now = Date.now()): DeskToken[] {
  const api = tokens.filter((t) => t.kind === 'api');
  return [...api.filter((t) => tokenState(t, now) === 'active'), ...api.filter((t) => tokenState(t, now) !== 'active')];
}

/** The New token form's fields, checked as desk/issue-token checks them, so a mistake is said beside the field. */
export function checkNewToken(label: string, days: string): { ok: true; label: string; expiresInDays: number } | { ok: false; message: string } {
  const l = label.trim();
  if (l.length === 0 || l.length > 120) return { ok: false, message: 'Give the token a label of 1-120 characters saying where it is used, e.g. “laptop IDE”.' };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(l)) return { ok: false, message: 'The label cannot contain tabs or line breaks.' };
  const n = Number(days.trim());
  if (!/^\d+$/.test(days.trim()) || n < 1 || n > 366) return { ok: false, message: 'A token lasts 1 to 366 whole days.' };
  return { ok: true, label: l, expiresInDays: n };
}
