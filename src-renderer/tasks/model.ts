import type { TaskView } from '../../src-main/api/tasks';

/**
 * Pure helpers for the Tasks screen: words for each status, grouping by session, laying a
 * session's tasks out so each sits below what it waits on, merging pushed updates into the list,
 * and friendly numbers. Kept free of React so they can be tested directly.
 */

export type TaskStatus = TaskView['status'];

export const statusLabel: Record<TaskStatus, string> = {
  queued: 'queued',
  waiting: 'waiting on deps',
  running: 'running',
  validating: 'validating',
  ok: 'ok',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** Still working (or about to): these can be cancelled. */
export const liveStatuses: readonly TaskStatus[] = ['queued', 'waiting', 'running', 'validating'];

export function isLive(t: Pick<TaskView, 'status'>): boolean {
  return liveStatuses.includes(t.status);
}

/** A failed or cancelled task can be dispatched again (the executor files it as `<id>-rN`). */
export function canRetry(t: Pick<TaskView, 'status'>): boolean {
  return t.status === 'failed' || t.status === 'cancelled';
}

export const failureLabel: Record<NonNullable<TaskView['failure']>, string> = {
  dependency: 'a task it depends on failed',
  skill: 'the skill could not be loaded',
  model: 'the model call failed',
  budget_tokens: 'token budget used up',
  budget_time: 'time budget used up',
  max_rounds: 'too many steps without an answer',
  interrupted: 'interrupted when Forge stopped',
  output: 'its output was unusable',
  internal: 'an internal problem',
};

export const verdictLabel: Record<NonNullable<TaskView['validation']>['verdict'], string> = {
  pass: 'passed',
  revise: 'needs revision',
  fail: 'failed',
  unclear: 'unclear',
};

export interface TaskRow {
  task: TaskView;
  /** How many dependency levels sit above it within its session (0 = depends on nothing here). */
  depth: number;
}

export interface SessionGroup {
  sessionId: string;
  /** Newest task creation time in the session, for ordering the groups. */
  latest: string;
  rows: TaskRow[];
  counts: Partial<Record<TaskStatus, number>>;
}

const byCreated = (a: TaskView, b: TaskView) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

/**
 * Orders one session's tasks so every task comes after the tasks it depends on, each indented by
 * its dependency depth; independent tasks keep creation order. Unknown ids (dependencies in
 * another page of results) and cycles cannot hang or hide anything: such tasks still appear.
 */
export function layoutSession(tasks: readonly TaskView[]): TaskRow[] {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  const depthOf = (t: TaskView): number => {
    const known = depth.get(t.id);
    if (known !== undefined) return known;
    if (visiting.has(t.id)) return 0;
    visiting.add(t.id);
    let d = 0;
    for (const dep of t.dependsOn) {
      const parent = byId.get(dep);
      if (parent) d = Math.max(d, depthOf(parent) + 1);
    }
    visiting.delete(t.id);
    depth.set(t.id, d);
    return d;
  };
  const sorted = [...tasks].sort(byCreated);
  for (const t of sorted) depthOf(t);

  // Depth-first from the roots, so a dependant sits right under the last thing it waits on.
  const out: TaskRow[] = [];
  const placed = new Set<string>();
  const place = (t: TaskView) => {
    if (placed.has(t.id)) return;
    if (t.dependsOn.some((d) => byId.has(d) && !placed.has(d) && d !== t.id)) return;
    placed.add(t.id);
    out.push({ task: t, depth: depth.get(t.id) ?? 0 });
    for (const child of sorted) if (child.dependsOn.includes(t.id)) place(child);
  };
  for (const t of sorted) if ((depth.get(t.id) ?? 0) === 0) place(t);
  // Whatever a cycle kept out still shows, at its computed depth.
  for (const t of sorted) {
    if (placed.has(t.id)) continue;
    placed.add(t.id);
    out.push({ task: t, depth: depth.get(t.id) ?? 0 });
  }
  return out;
}

/** Tasks grouped by the session that dispatched them, newest session first. */
export function groupBySession(tasks: readonly TaskView[]): SessionGroup[] {
  const groups = new Map<string, TaskView[]>();
  for (const t of tasks) {
    const g = groups.get(t.sessionId);
    if (g) g.push(t);
    else groups.set(t.sessionId, [t]);
  }
  return [...groups.entries()]
    .map(([sessionId, list]) => {
      const counts: Partial<Record<TaskStatus, number>> = {};
      for (const t of list) counts[t.status] = (counts[t.status] ?? 0) + 1;
      const latest = list.reduce((m, t) => (t.createdAt > m ? t.createdAt : m), '');
      return { sessionId, latest, rows: layoutSession(list), counts };
    })
    .sort((a, b) => b.latest.localeCompare(a.latest) || a.sessionId.localeCompare(b.sessionId));
}

/**
 * Merges one pushed task into a listing: replaces the same task unless the pushed copy is older
 * (events can overtake a slow list read), or adds it at the front when it is new.
 */
export function upsertTask(tasks: readonly TaskView[], next: TaskView): TaskView[] {
  const at = tasks.findIndex((t) => t.sessionId === next.sessionId && t.id === next.id);
  if (at < 0) return [next, ...tasks];
  if (tasks[at].updatedAt > next.updatedAt) return tasks as TaskView[];
  const out = tasks.slice();
  out[at] = next;
  return out;
}

/** "850 ms", "12.4 s", "3 min 05 s", "1 h 02 min"; "—" before a task starts. */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(Math.floor(s % 60)).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 10_000) return `${(n / 1000).toFixed(1)}k`;
  return n.toLocaleString('en-US');
}

/** Cost in dollars; sub-cent costs keep four decimals so they do not all read "$0.00". */
export function formatCost(usd: number | null): string {
  if (usd === null) return 'cost n/a';
  if (usd === 0) return '$0';
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** The route segments of a task (`#/tasks/<session>/<id>`) and back. */
export function taskRoute(t: Pick<TaskView, 'sessionId' | 'id'>): string[] {
  return [t.sessionId, t.id];
}

export function routeTask(rest: readonly string[]): { sessionId: string; id: string } | null {
  return rest.length >= 2 && rest[0] && rest[1] ? { sessionId: rest[0], id: rest[1] } : null;
}
