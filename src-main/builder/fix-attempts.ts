import type { BuildHost } from './build-host';
import { forgeContractsDir, phaseIdOf, scratchpadEntries } from './build-context';
import { RECOVERY_PLANNER_PROMPT, recoveryPlanMessage, recoveryRequest } from './recovery-messages';
import { readContracts } from './prepare';
import type { BuildRun, RunnerState } from './store-rows';

/**
 * The fix-attempt limit: every test run the builder makes is recorded, and a test that fails
 * MAX_FIX_ATTEMPTS times in a row stops the patching — the recovery planner (a helper model) writes
 * a remediation plan that goes to the builder instead. Its own file because it is the one rule
 * about repeated failures, applied after every turn.
 */

export const MAX_FIX_ATTEMPTS = 3;

export type BuilderTestRun = { passed: boolean; failingTests: string[]; command: string; exitCode: number | null; output: string };

export async function recordTestRuns(
  host: BuildHost,
  run: BuildRun,
  state: RunnerState,
  phase: { number: number },
  runs: BuilderTestRun[],
  signal: AbortSignal,
): Promise<void> {
  for (const r of runs) {
    host.deps.store.addTestRun(run.id, phase.number, { command: r.command, passed: r.passed, exitCode: r.exitCode, by: 'builder', output: r.output });
    host.log(run.id, 'tests', `${r.command}: ${r.passed ? 'passed' : `failed${r.failingTests.length ? ` (${r.failingTests.slice(0, 5).join(', ')})` : ''}`}`, {
      isError: !r.passed,
    });
    if (r.passed) {
      state.fixAttempts = {};
      continue;
    }
    const failing = r.failingTests.length ? r.failingTests : ['(the test command)'];
    for (const t of failing) state.fixAttempts[t] = (state.fixAttempts[t] ?? 0) + 1;
    const exhausted = failing.filter((t) => (state.fixAttempts[t] ?? 0) >= MAX_FIX_ATTEMPTS);
    if (exhausted.length) {
      for (const t of exhausted) delete state.fixAttempts[t];
      state.pending.push(await recoveryPlan(host, run, phase.number, exhausted, r.output, signal));
    }
  }
}

async function recoveryPlan(host: BuildHost, run: BuildRun, phase: number, tests: string[], output: string, signal: AbortSignal): Promise<string> {
  const planner = host.deps.helperModel?.('planner');
  const plan = host.deps.store.detail(run.id, []).phases.find((p) => p.number === phase)?.plan ?? [];
  const known = scratchpadEntries(run.workDir).find((e) => e.key === 'known_issues')?.value;
  const request = recoveryRequest({
    test: tests.join(', '),
    attempts: MAX_FIX_ATTEMPTS,
    lastOutputs: [output],
    plan,
    phase: phaseIdOf(run.state, phase),
    knownIssues: known,
  });
  const contracts = readContracts(forgeContractsDir(run.workDir));
  const system = contracts.find((c) => c.name === 'recovery_planner_prompt')?.text.trim() || RECOVERY_PLANNER_PROMPT;
  host.log(run.id, 'gate', `${tests.join(', ')} failed ${MAX_FIX_ATTEMPTS} times: asking the recovery planner for a remediation plan.`);
  if (!planner)
    return `${tests.join(', ')} failed ${MAX_FIX_ATTEMPTS} times. Stop patching: re-read the failing output, state the root cause, then fix it or stop with a STOP code.`;
  try {
    const r = await planner.call({ role: 'planner', system, messages: [{ role: 'user', content: request }], maxTokens: 2000, signal });
    host.log(run.id, 'gate', `Recovery plan: ${r.text}`);
    return recoveryPlanMessage(r.text);
  } catch (e) {
    if (signal.aborted) throw e;
    return `${tests.join(', ')} failed ${MAX_FIX_ATTEMPTS} times (the recovery planner could not be asked: ${(e as Error).message}). Stop patching: find the root cause, or stop with a STOP code.`;
  }
}
