import { AppError } from '../common/errors';
import type { GovernanceSource, ProjectSource } from './source';

/**
 * Phase windows: a builder reads one phase and the next instead of the whole roadmap. A phase is
 * a `## Phase N — name` heading and everything up to the next such heading.
 */

export interface Phase {
  number: number;
  name: string;
  text: string;
}

export interface PhaseWindow {
  phase_number: number;
  total_phases: number;
  first_phase: number;
  last_phase: number;
  is_last: boolean;
  phases: { number: number; name: string }[];
  content: string;
}

const HEADING = /^##\s+Phase\s+(\d+)\s*(?:[—–:-]+\s*(.*))?$/;

export function parsePhases(markdown: string): Phase[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const phases: Phase[] = [];
  let current: { number: number; name: string; lines: string[] } | undefined;
  let inFence = false;
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const m = inFence ? null : HEADING.exec(line.trimEnd());
    if (m) {
      if (current) phases.push({ number: current.number, name: current.name, text: current.lines.join('\n').trimEnd() });
      current = { number: Number(m[1]), name: (m[2] ?? '').trim(), lines: [line] };
    } else if (current) {
      current.lines.push(line);
    }
  }
  if (current) phases.push({ number: current.number, name: current.name, text: current.lines.join('\n').trimEnd() });
  return phases;
}

/** That phase and the next one; an unknown phase is an error that lists the phases that exist. */
export function phaseWindow(markdown: string, phaseNumber: number): PhaseWindow {
  const phases = parsePhases(markdown);
  if (phases.length === 0) {
    throw new Error('phases.md has no "## Phase N — name" headings, so no phase can be read. Run forge_run_planner or add phases in that format.');
  }
  const idx = phases.findIndex((p) => p.number === phaseNumber);
  if (idx < 0) {
    const nums = phases.map((p) => p.number);
    throw new Error(`There is no Phase ${phaseNumber}. This plan has phases ${nums[0]} to ${nums[nums.length - 1]} (${nums.length} in all).`);
  }
  const window = phases.slice(idx, idx + 2);
  const isLast = idx === phases.length - 1;
  const footer = isLast ? '\n\n(This is the last phase.)' : '\n\n(The second phase above is shown for context only: build the first.)';
  return {
    phase_number: phaseNumber,
    total_phases: phases.length,
    first_phase: phases[0].number,
    last_phase: phases[phases.length - 1].number,
    is_last: isLast,
    phases: window.map((p) => ({ number: p.number, name: p.name })),
    content: window.map((p) => p.text).join('\n\n') + footer,
  };
}

/**
 * Where forge_get_phase_window reads: a project's plan (its latest `phases` contract — what
 * forge_run_planner saves) when a project is named, else the contracts folder's phases.md. A
 * project named only by the connection's session falls back to the folder when it has no plan
 * yet; a project named in the call does not (the caller asked for that project's plan).
 */
export async function resolvePhaseWindow(
  reads: { source: Pick<GovernanceSource, 'phaseWindow'>; projects: Pick<ProjectSource, 'getProjectContract'> },
  phaseNumber: number,
  project: { given?: string; session?: string },
): Promise<PhaseWindow & { project_id?: string; contract_version?: number }> {
  const id = project.given ?? project.session;
  if (!id) return reads.source.phaseWindow(phaseNumber);
  let plan: { content: string; version: number };
  try {
    plan = await reads.projects.getProjectContract(id, 'phases');
  } catch (e) {
    const noPlan = e instanceof AppError && e.code === 'not_found';
    if (noPlan && !project.given) return reads.source.phaseWindow(phaseNumber);
    if (noPlan) {
      throw new AppError(
        'not_found',
        `Project "${id}" has no plan to read a phase from: ${e.message} Run forge_run_planner with project_id "${id}" first, or leave project_id out to read the contracts folder's phases.md.`,
      );
    }
    throw e;
  }
  return { ...phaseWindow(plan.content, phaseNumber), project_id: id, contract_version: plan.version };
}
