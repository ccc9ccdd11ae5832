import { fenced, tail } from './message-text';

/** What the build runner sends to the recovery planner and hands back to the builder (seed flow §5 step 4). */

/** System prompt of the recovery planner (after contracts/recovery_planner_prompt.md; a plain model call, no tools). */
export const RECOVERY_PLANNER_PROMPT = `You are the recovery planner of a Forge build. The builder has tried to make a failing test pass several times and it still fails. You write no code and have no tools: you read what you are given and answer with the shortest plan that gets the phase to a passing sign-off.

How to work:
1. Find the root cause, not the symptom: the first error in the output. Compare the attempts — when each failed the same way, the builder has been fixing the wrong thing; say what it missed.
2. Decide whether the fix fits inside the current phase. If it needs something outside it (another part's contract, a new dependency, the machine itself), say so and tell the builder to stop with RISK_EXCEEDS_SCOPE or ENVIRONMENT_LIMITATION instead of widening the phase.
3. Give at most five steps, each naming the file to change and the check that proves the step worked (a test name or a command).

Answer in exactly this form and nothing else:
=== RECOVERY PLAN ===
Cause: <one sentence>
1. <step> — verify: <check>
=== END RECOVERY PLAN ===`;

export interface RecoveryRequestInput {
  /** The failing test (its name, or the command when no name is known). */
  test: string;
  attempts: number;
  /** The outputs of the failed runs, oldest first. */
  lastOutputs: string[];
  /** The phase's plan tasks (or its text). */
  plan: { number: number; text: string; done?: boolean }[] | string | null;
  /** The plan's own id of the phase ("3.1"), or its number. */
  phase?: number | string;
  /** The scratchpad's known_issues entry, when there is one. */
  knownIssues?: string;
}

export function recoveryRequest(input: RecoveryRequestInput): string {
  const plan =
    typeof input.plan === 'string'
      ? input.plan.trim() || '(no plan recorded)'
      : input.plan?.length
        ? input.plan.map((t) => `${t.number}. ${t.done ? '[done] ' : ''}${t.text}`).join('\n')
        : '(no plan recorded)';
  const runs = input.lastOutputs.slice(-3);
  const outputs = runs.map((o, i) => `### Attempt ${input.attempts - runs.length + i + 1}\n\n${fenced(tail(o, 3000))}`).join('\n\n');
  const issues = input.knownIssues?.trim() ? `\n\n## Known issues (scratchpad)\n\n${input.knownIssues.trim()}` : '';
  const phase = input.phase === undefined ? '' : ` in Phase ${input.phase}`;
  return `The test "${input.test}" still fails${phase} after ${input.attempts} attempts.\n\n## The builder's plan\n\n${plan}\n\n## The failing runs\n\n${outputs || '(no output recorded)'}${issues}\n\nWrite the recovery plan.`;
}

export interface RecoveryPlan {
  cause: string | null;
  steps: string[];
  /** The plan block as written (or the whole answer when the planner ignored the format). */
  text: string;
}

export function recoveryPlanFrom(answer: string): RecoveryPlan {
  const t = answer.replace(/\r\n?/g, '\n');
  const block = /={2,}\s*recovery plan\s*={2,}\s*\n([\s\S]*?)(?:\n\s*={2,}\s*end recovery plan\s*={2,}|$)/i.exec(t);
  const body = (block ? block[1]! : t).trim();
  const cause = /^\s*\**cause\**\s*:\s*(.+)$/im.exec(body);
  const steps = [...body.matchAll(/^\s*\d+[.)]\s+(.+)$/gm)].map((m) => m[1]!.trim());
  return { cause: cause ? cause[1]!.trim() : null, steps, text: body.slice(0, 6000) };
}

/** The recovery plan handed to the builder, framed as advice from a reviewer (the builder still owns the fix). */
export function recoveryPlanMessage(answer: string): string {
  const plan = recoveryPlanFrom(answer);
  return `A reviewer looked at the repeated failures and proposes this recovery plan. Follow it unless you find it wrong, in which case say why.\n\n${plan.text}\n\nAfter the fix, run run_tests again.`;
}
