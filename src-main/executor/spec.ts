import { InvalidInputError } from '../common/errors';
import type { TaskRecord, TaskSpec } from './types';

/** What `dispatch` (tool or API) sends; skill and objective may be left out when `retryOf` is given. */
export interface DispatchInput {
  id: string;
  skill?: string;
  objective?: string;
  context?: string[];
  notes?: string;
  dependsOn?: string[];
  validate?: boolean;
  validateContrastive?: boolean;
  retryOf?: string;
  /** For retries: what the PM or analyst wants done differently. */
  feedback?: string;
}

export const TASK_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$/;

export function checkTaskId(id: string): void {
  if (!TASK_ID.test(id)) {
    throw new InvalidInputError(`"${id.slice(0, 40)}" is not a usable task id: use 1-80 letters, digits, "_", "-" or "." (e.g. macro_ctx or rates-2).`, [
      { path: ['id'], message: 'invalid task id' },
    ]);
  }
}

/** A fresh task's spec from dispatch arguments. */
export function freshSpec(input: DispatchInput): TaskSpec {
  if (!input.skill?.trim())
    throw new InvalidInputError(`Task ${input.id} needs a skill (or retry_of to repeat an earlier task).`, [{ path: ['skill'], message: 'required' }]);
  if (!input.objective?.trim())
    throw new InvalidInputError(`Task ${input.id} needs an objective: what should the sub-agent find out?`, [{ path: ['objective'], message: 'required' }]);
  return {
    id: input.id,
    skill: input.skill.trim(),
    objective: input.objective.trim(),
    context: dedupe(input.context ?? []),
    notes: input.notes?.trim() || undefined,
    dependsOn: dedupe(input.dependsOn ?? []),
    validate: input.validate ?? false,
    validateContrastive: input.validateContrastive ?? false,
  };
}

const withSummaryDepth = (ref: string) => (/:(summary|header)$/.test(ref) ? ref : `${ref}:summary`);

/**
 * A retry (seed §3.4 `retry_of`): the original's skill and objective, its context cut to `:summary`,
 * and notes that carry what went wrong last time — the failure, or the validator's feedback and
 * counterargument — plus any new feedback, so the sub-agent does not repeat the same mistake.
 */
export function retrySpec(original: TaskRecord, input: DispatchInput, remapDependency: (id: string) => string): TaskSpec {
  const o = original.spec;
  const why: string[] = [];
  if (original.status === 'failed' || original.status === 'cancelled')
    why.push(`The previous attempt ${original.status === 'cancelled' ? 'was cancelled' : `failed: ${original.error ?? 'no reason recorded'}`}`);
  const v = original.validation;
  if (v && v.verdict !== 'pass') {
    why.push(`Validation said ${v.verdict.toUpperCase()}${v.feedback ? `: ${v.feedback}` : ''}`);
    if (v.counterargument) why.push(`Counterargument to answer: ${v.counterargument}`);
  }
  if (input.feedback?.trim()) why.push(`Feedback: ${input.feedback.trim()}`);
  const notes = [`RETRY of ${original.id}. Context simplified to summaries.`, ...why, input.notes?.trim() ?? '', o.notes ?? ''].filter(Boolean).join('\n');
  return {
    id: input.id,
    skill: input.skill?.trim() || o.skill,
    objective: input.objective?.trim() || o.objective,
    context: dedupe((input.context ?? o.context).map(withSummaryDepth)),
    notes,
    dependsOn: dedupe(input.dependsOn ?? o.dependsOn.map(remapDependency)),
    validate: input.validate ?? o.validate,
    validateContrastive: input.validateContrastive ?? o.validateContrastive,
    retryOf: original.id,
  };
}

function dedupe(xs: string[]): string[] {
  return [...new Set(xs.map((x) => x.trim()).filter(Boolean))];
}
