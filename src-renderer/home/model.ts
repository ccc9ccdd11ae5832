import type { ProcedureOutput } from '../../src-main/api';

/**
 * Pure shaping for the Home screen: how full each limit is, which Views need the PM's attention
 * and why, and which scheduled runs come next. No React, no I/O, so it is tested in node.
 */

type Usage = ProcedureOutput<'portfolio/book'>['usage'][number];
type Job = ProcedureOutput<'schedule/list'>['jobs'][number];
type MemoryEntry = ProcedureOutput<'memory/list'>['entries'][number];

const DAY_MS = 24 * 60 * 60 * 1000;

/** A View untouched for longer than this is worth a second look. */
export const STALE_DAYS = 14;

/** From this share of a limit the bar turns amber: room is running out before the limit refuses a trade. */
export const WARN_SHARE = 0.8;

const ruleInfo: Record<Usage['rule'], { label: string; unit: string }> = {
  max_gross_exposure: { label: 'Gross exposure', unit: '% of NAV' },
  max_factor_concentration: { label: 'Factor concentration', unit: '% of gross' },
  max_single_risk: { label: 'Single-trade risk', unit: '% of NAV' },
  max_duration_contribution: { label: 'Duration contribution', unit: 'years' },
};

/** The order a PM reads the book in: the whole book first, then the per-trade limits. */
const ruleOrder: Usage['rule'][] = ['max_gross_exposure', 'max_factor_concentration', 'max_single_risk', 'max_duration_contribution'];

export interface UsageBar {
  rule: Usage['rule'];
  label: string;
  unit: string;
  value: number;
  limit: number;
  /** value / limit; above 1 when the book is already over (possible after a limit was lowered). */
  share: number;
  /** The bar's fill, 0–100, never wider than the track. */
  fillPct: number;
  tone: 'ok' | 'warn' | 'over';
  detail: string | null;
}

export function usageBars(usage: readonly Usage[]): UsageBar[] {
  return [...usage]
    .sort((a, b) => ruleOrder.indexOf(a.rule) - ruleOrder.indexOf(b.rule))
    .map((u) => {
      // A zero or negative limit allows nothing: any use of it is over.
      const share = u.limit > 0 ? Math.max(0, u.value) / u.limit : u.value > 0 ? Number.POSITIVE_INFINITY : 0;
      const tone: UsageBar['tone'] = share > 1 ? 'over' : share >= WARN_SHARE ? 'warn' : 'ok';
      return {
        rule: u.rule,
        label: ruleInfo[u.rule].label,
        unit: ruleInfo[u.rule].unit,
        value: u.value,
        limit: u.limit,
        share,
        fillPct: Math.min(100, Math.round(share * 1000) / 10),
        tone,
        detail: u.detail ?? null,
      };
    });
}

/** 142.5 → "142.5"; 3 → "3.0": one decimal, a real minus sign (the Portfolio screen's style). */
export function figure(value: number, decimals = 1): string {
  if (!Number.isFinite(value)) return '—';
  const text = Math.abs(value).toFixed(decimals);
  return value < 0 ? `−${text}` : text;
}

/** A limit as the PM wrote it: 200 → "200", 2.5 → "2.5" (a limit has no spurious decimals to line up). */
export function limitFigure(value: number): string {
  if (!Number.isFinite(value)) return '—';
  const text = String(Math.round(Math.abs(value) * 100) / 100);
  return value < 0 ? `−${text}` : text;
}

/** "71 % used" — or "over by 12 %" when the book is already past the limit. */
export function shareText(bar: Pick<UsageBar, 'share'>): string {
  if (!Number.isFinite(bar.share)) return 'over the limit';
  const pct = Math.round(bar.share * 100);
  return bar.share > 1 ? `over by ${pct - 100} %` : `${pct} % used`;
}

/** The day before which a View counts as stale, as the memory query language's date (`updated<2026-11-09`). */
export function staleCutoff(now: number, days = STALE_DAYS): string {
  return new Date(now - days * DAY_MS).toISOString().slice(0, 10);
}

/** Statuses that close a View: nobody needs to refresh a retired thesis. */
const CLOSED_VIEW_STATUSES = new Set(['retired', 'closed', 'archived', 'expired', 'resolved']);

export type AttentionReason = 'invalidated' | 'review_required' | 'confidence_falling' | 'stale';

/** A View whose latest version lowered its confidence (from the Views table's previous-version column). */
export interface FallingConfidence {
  id: string;
  title: string;
  status: string | null;
  updatedAt: string | null;
  confidence: number | null;
  previousConfidence: number | null;
}

/** Live Views whose confidence went down with their latest edit. */
export function fallingConfidence<T extends FallingConfidence>(rows: readonly T[]): T[] {
  return rows.filter(
    (r) =>
      r.confidence !== null &&
      r.previousConfidence !== null &&
      r.confidence < r.previousConfidence &&
      !(r.status && CLOSED_VIEW_STATUSES.has(r.status.toLowerCase())),
  );
}

export interface ViewAttention {
  id: string;
  title: string;
  status: string | null;
  updatedAt: string | null;
  /** Whole days since the last write; null when the date is unknown. */
  ageDays: number | null;
  reasons: AttentionReason[];
  /** For `confidence_falling`: the confidence before and after the latest edit. */
  fell?: { from: number; to: number };
}

export function ageInDays(updatedAt: string | null, now: number): number | null {
  if (!updatedAt) return null;
  const t = Date.parse(updatedAt);
  return Number.isNaN(t) ? null : Math.floor((now - t) / DAY_MS);
}

export function isStale(entry: Pick<MemoryEntry, 'status' | 'updatedAt'>, now: number, days = STALE_DAYS): boolean {
  if (entry.status && CLOSED_VIEW_STATUSES.has(entry.status.toLowerCase())) return false;
  const age = ageInDays(entry.updatedAt, now);
  return age !== null && age > days;
}

const reasonRank: Record<AttentionReason, number> = { invalidated: 0, review_required: 1, confidence_falling: 2, stale: 3 };

/**
 * One line per View that needs attention, from any mix of listings (the invalidated, the
 * under-review and the stale candidates), each View once with every reason it has. Fired
 * invalidations come first, then reviews, then the oldest untouched.
 */
export function viewsNeedingAttention(
  entries: readonly MemoryEntry[],
  now: number,
  days = STALE_DAYS,
  falling: readonly FallingConfidence[] = [],
): ViewAttention[] {
  const byId = new Map<string, ViewAttention>();
  for (const e of entries) {
    if (e.isDir || !e.id) continue;
    const reasons: AttentionReason[] = [];
    const status = e.status?.toLowerCase() ?? null;
    if (status === 'invalidated') reasons.push('invalidated');
    if (status === 'review_required') reasons.push('review_required');
    if (isStale(e, now, days)) reasons.push('stale');
    if (reasons.length === 0 || byId.has(e.id)) continue;
    byId.set(e.id, { id: e.id, title: e.title, status: e.status, updatedAt: e.updatedAt, ageDays: ageInDays(e.updatedAt, now), reasons });
  }
  for (const f of fallingConfidence(falling)) {
    const fell = { from: f.previousConfidence!, to: f.confidence! };
    const known = byId.get(f.id);
    if (known) {
      if (!known.reasons.includes('confidence_falling')) known.reasons.push('confidence_falling');
      known.reasons.sort((a, b) => reasonRank[a] - reasonRank[b]);
      known.fell = fell;
    } else {
      byId.set(f.id, {
        id: f.id,
        title: f.title,
        status: f.status,
        updatedAt: f.updatedAt,
        ageDays: ageInDays(f.updatedAt, now),
        reasons: ['confidence_falling'],
        fell,
      });
    }
  }
  return [...byId.values()].sort((a, b) => {
    const r = reasonRank[a.reasons[0]!] - reasonRank[b.reasons[0]!];
    if (r !== 0) return r;
    const age = (b.ageDays ?? -1) - (a.ageDays ?? -1);
    return age !== 0 ? age : a.id.localeCompare(b.id);
  });
}

export function reasonText(reason: AttentionReason, ageDays: number | null, fell?: { from: number; to: number }): string {
  if (reason === 'invalidated') return 'invalidation fired';
  if (reason === 'review_required') return 'review required';
  if (reason === 'confidence_falling') return fell ? `confidence falling ${fell.from} → ${fell.to}` : 'confidence falling';
  return ageDays === null ? 'not updated recently' : `not updated for ${ageDays} days`;
}

/** Jobs that will run, soonest first; paused jobs have no next run and are left out. */
export function nextRuns(jobs: readonly Job[], count = 3): Job[] {
  return jobs
    .filter((j) => !j.paused && j.nextRun !== null)
    .sort((a, b) => Date.parse(a.nextRun ?? '') - Date.parse(b.nextRun ?? ''))
    .slice(0, count);
}

/** Proposed Expressions, oldest first: the one waiting longest is the one to decide first. */
export function awaitingOrder(entries: readonly MemoryEntry[]): MemoryEntry[] {
  return entries.filter((e) => !e.isDir && e.id).sort((a, b) => (a.updatedAt ?? '').localeCompare(b.updatedAt ?? '') || (a.id ?? '').localeCompare(b.id ?? ''));
}

/** The memory/list input for Expressions awaiting the PM's approval (the badge and Home share it). */
export const awaitingApprovalInput = { path: '/memory/expressions/', query: 'status:proposed', limit: 50 } as const;

type Task = ProcedureOutput<'tasks/list'>['tasks'][number];

/**
 * Tasks still running, longest-running first. The listing is asked for running tasks only, but
 * pushed `tasks/changed` updates are merged into it, so a task that has just finished is dropped here.
 */
export function runningTasks(tasks: readonly Task[]): Task[] {
  return tasks
    .filter((t) => t.status === 'running')
    .sort((a, b) => (a.startedAt ?? a.createdAt).localeCompare(b.startedAt ?? b.createdAt) || a.id.localeCompare(b.id));
}
