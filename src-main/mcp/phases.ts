import { AppError, NotFoundError } from '../common/errors';
import { readPlan } from '../specs/plain';
import type { GovernanceSource, ProjectSource } from './source';

/**
 * Phase windows of Forge's own phases.md and of a planner project's plan: a builder reads one phase
 * and the next instead of the whole roadmap. The plan is read by the specs module's plan reader, so
 * it is read as any plain plan is: `## Phase 1: …`, `### Phase 1 - …`, decimal ids (`3.1`), a plan
 * numbered from 1, `## 1. Name` headings or a numbered list of phases; the text before the first
 * phase (a tech stack, a project structure) is carried in every window, because a phase needs it.
 */

export interface Phase {
  /** The plan's own id as written ("0", "1", "3.1"): what tools and prompts use. */
  id: string;
  /** The id as a number, for callers that key phases by number (whole-number plans: the same value). */
  number: number;
  name: string;
  text: string;
}

export interface PhaseWindow {
  /** The phase asked for: a number when the plan's id is a whole number, else the id as written. */
  phase_number: number | string;
  /** The plan's own id of that phase. */
  phase: string;
  total_phases: number;
  first_phase: number | string;
  last_phase: number | string;
  is_last: boolean;
  phases: { number: number; id: string; name: string }[];
  content: string;
}

/** A whole-number id stays a number for callers that compare numbers; "3.1" stays as written. */
const asKey = (id: string): number | string => (/^\d+$/.test(id) ? Number(id) : id);

/** The same phase however it was asked for: 1, "1" and "01" are one phase; "3.1" and "3.10" are two. */
function sameId(a: string, b: string): boolean {
  return a === b || (/^\d+$/.test(a) && /^\d+$/.test(b) && Number(a) === Number(b));
}

function readPhases(markdown: string): { preamble: string; phases: Phase[] } {
  const plan = readPlan(markdown.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'), 'phases.md');
  return {
    preamble: plan.preamble,
    phases: plan.phases.map((p) => ({ id: p.id, number: Number(p.id), name: p.name, text: p.text })),
  };
}

export function parsePhases(markdown: string): Phase[] {
  return readPhases(markdown).phases;
}

/** That phase and the next one, after the plan's preamble; an unknown phase is an error that lists the phases that exist. */
export function phaseWindow(markdown: string, phase: number | string): PhaseWindow {
  const { preamble, phases } = readPhases(markdown);
  if (phases.length === 0) {
    throw new NotFoundError(
      'phases.md has no phases Forge can read ("## Phase 1: name", "### Phase 1 - name", "## 1. name" or a numbered list of phases), so no phase can be read. Run forge_run_planner or add phases in one of those forms.',
    );
  }
  const want = String(phase).trim();
  const idx = phases.findIndex((p) => sameId(p.id, want));
  if (idx < 0) {
    throw new NotFoundError(`There is no Phase ${want.slice(0, 40)}. This plan has phases ${phases[0]!.id} to ${phases.at(-1)!.id} (${phases.length} in all).`);
  }
  const window = phases.slice(idx, idx + 2);
  const isLast = idx === phases.length - 1;
  const footer = isLast ? '(This is the last phase.)' : '(The second phase above is shown for context only: build the first.)';
  const lead = preamble.trim() ? `${preamble.trim()}\n\n` : '';
  return {
    phase_number: asKey(phases[idx]!.id),
    phase: phases[idx]!.id,
    total_phases: phases.length,
    first_phase: asKey(phases[0]!.id),
    last_phase: asKey(phases.at(-1)!.id),
    is_last: isLast,
    phases: window.map((p) => ({ number: p.number, id: p.id, name: p.name })),
    content: `${lead}${window.map((p) => p.text.trim()).join('\n\n')}\n\n${footer}`,
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
  phase: number | string,
  project: { given?: string; session?: string },
): Promise<PhaseWindow & { project_id?: string; contract_version?: number }> {
  const id = project.given ?? project.session;
  if (!id) return reads.source.phaseWindow(phase);
  let plan: { content: string; version: number };
  try {
    plan = await reads.projects.getProjectContract(id, 'phases');
  } catch (e) {
    const noPlan = e instanceof AppError && e.code === 'not_found';
    if (noPlan && !project.given) return reads.source.phaseWindow(phase);
    if (noPlan) {
      throw new AppError(
        'not_found',
        `Project "${id}" has no plan to read a phase from: ${e.message} Run forge_run_planner with project_id "${id}" first, or leave project_id out to read the contracts folder's phases.md.`,
      );
    }
    throw e;
  }
  return { ...phaseWindow(plan.content, phase), project_id: id, contract_version: plan.version };
}
