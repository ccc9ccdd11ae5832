import type { BuildStatus, BuildSummary, PhaseView } from '../../src-main/api/builds';

/**
 * Pure helpers for the Builds screen: words for each status, which controls a status allows,
 * progress through the phases, and merging pushed summaries into the listing. Free of React so
 * they can be tested directly.
 */

export const statusLabel: Record<BuildStatus, string> = {
  running: 'running',
  paused: 'paused',
  waiting_answer: 'waiting for your answer',
  completed: 'completed',
  stopped: 'stopped',
  failed: 'failed',
  interrupted: 'interrupted',
};

export type PhaseStatus = PhaseView['status'];

export const phaseStatusLabel: Record<PhaseStatus, string> = {
  pending: 'pending',
  in_progress: 'in progress',
  signed_off: 'signed off',
  failed: 'failed',
};

export interface Controls {
  pause: boolean;
  resume: boolean;
  stop: boolean;
  /** The STOP-code form: the builder waits for the user's answer. */
  answer: boolean;
}

/**
 * What the user may do in each state. Only a working build can be paused; a paused, failed or
 * interrupted one resumes; an answer (not Resume) is what continues a build stopped on a STOP
 * code; completed and stopped builds are final.
 */
export function controlsFor(status: BuildStatus): Controls {
  switch (status) {
    case 'running':
      return { pause: true, resume: false, stop: true, answer: false };
    case 'paused':
    case 'failed':
    case 'interrupted':
      return { pause: false, resume: true, stop: true, answer: false };
    case 'waiting_answer':
      return { pause: false, resume: false, stop: true, answer: true };
    case 'completed':
    case 'stopped':
      return { pause: false, resume: false, stop: false, answer: false };
  }
}

/** Still moving (or about to): the screen shows it as live. */
export function isActive(status: BuildStatus): boolean {
  return status === 'running' || status === 'waiting_answer';
}

/**
 * Progress for the detail header: phases signed off out of all phases, and where the builder is.
 * `current` is the phase's position (1-based) among the build's phases, since plans may number
 * phases from 0 or from 1.
 */
export function phaseProgress(
  build: Pick<BuildSummary, 'currentPhase' | 'totalPhases' | 'status'>,
  phases: readonly Pick<PhaseView, 'number' | 'status'>[],
): { signedOff: number; total: number; current: number } {
  const total = phases.length || build.totalPhases;
  const signedOff = phases.filter((p) => p.status === 'signed_off').length;
  const at = phases.findIndex((p) => p.number === build.currentPhase);
  const current = build.status === 'completed' ? total : at >= 0 ? at + 1 : Math.min(total, signedOff + 1);
  return { signedOff, total, current };
}

/**
 * Merges one pushed summary into the listing (newest first): replaces the same build unless the
 * pushed copy is older (an event can overtake a slow list read), or adds it at the top.
 */
export function upsertBuild(builds: readonly BuildSummary[], next: BuildSummary): BuildSummary[] {
  const at = builds.findIndex((b) => b.id === next.id);
  if (at < 0) return sortNewestFirst([next, ...builds]);
  if (builds[at]!.updatedAt > next.updatedAt) return builds as BuildSummary[];
  const out = builds.slice();
  out[at] = next;
  return out;
}

export function sortNewestFirst(builds: readonly BuildSummary[]): BuildSummary[] {
  return [...builds].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

/** The last folder of a path, for a compact list row ("/home/ana/todo-app" → "todo-app"). */
export function folderName(path: string): string {
  const parts = path.split(/[\\/]+/).filter(Boolean);
  return parts[parts.length - 1] ?? path;
}

/** "14:02:31" in the user's locale; "—" when absent or unreadable. */
export function clock(iso: string | null | undefined): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  return Number.isNaN(t) ? '—' : new Date(t).toLocaleTimeString();
}
