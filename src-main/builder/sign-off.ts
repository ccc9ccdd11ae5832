import { pinnedDocumentTexts } from './audit';
import type { BuildHost } from './build-host';
import { forgeContractsDir, phaseIdOf, planOf, windowText } from './build-context';
import { phaseAdvanceMessage, signOffRejected } from './messages';
import { checkSignOff } from './phase-gate';
import { readContracts } from './prepare';
import type { BuildRun, RunnerState } from './store-rows';
import { diffSummary, diffWorkspace, snapshotWorkspace, workspaceListing } from './workspace';

/**
 * A claimed sign-off, checked: Forge runs the phase's tests and audits the phase (phase-gate.ts),
 * records both, then rejects the claim with the reasons or advances to the next phase (or completes
 * the build). Apart from turn.ts because it is the one place a phase ends, and it reads the whole
 * workspace diff and the pinned documents that a turn never needs.
 */

export async function signOff(
  host: BuildHost,
  run: BuildRun,
  state: RunnerState,
  phase: { number: number; name: string },
  signOff: { phase: string; deliverables: string[]; tests: string },
  signal: AbortSignal,
): Promise<'rejected' | 'advanced' | 'completed'> {
  const { store } = host.deps;
  const id = run.id;
  const phaseId = phaseIdOf(state, phase.number);
  host.log(id, 'marker', `Sign-off claimed for Phase ${phaseId}: Forge runs the tests and audits the phase.`);
  const after = await snapshotWorkspace(run.workDir);
  const before = state.phaseStart ?? { files: {} };
  const diff = diffSummary(before, after);
  const changes = diffWorkspace(before, after);
  const contracts = readContracts(forgeContractsDir(run.workDir));
  const plan = await planOf(host.deps, run);
  const gate = await checkSignOff({
    workDir: run.workDir,
    phase: { ...phase, id: phaseId },
    allowedCommands: host.deps.settings().allowedCommands,
    sandbox: host.sandboxFor(id, signal),
    // Forge's contracts and the spec documents this build pinned when it started (any format).
    contracts: [...contracts.map((c) => ({ name: c.name, text: c.text })), ...pinnedDocumentTexts((await host.deps.projects()).buildDocuments(id))],
    diffSummary: diff,
    phaseWindow: windowText(plan, phaseId),
    changedFiles: [...changes.added.map((a) => a.path), ...changes.modified.map((m) => m.path)],
    auditorPrompt: contracts.find((c) => c.name === 'auditor_prompt')?.text,
    auditor: host.deps.helperModel?.('review'),
    signal,
  });
  store.addTestRun(id, phase.number, {
    command: gate.tests.command,
    passed: gate.tests.passed,
    exitCode: gate.tests.exitCode,
    by: 'forge',
    output: gate.tests.output,
  });
  store.addFindings(id, phase.number, gate.findings);
  store.setSignOff(id, phase.number, { deliverables: signOff.deliverables, tests: signOff.tests, accepted: gate.accepted });
  host.log(id, 'tests', `Forge ran ${gate.tests.command}: ${gate.tests.passed ? 'passed' : 'failed'}.`, { isError: !gate.tests.passed });
  for (const f of gate.findings) host.log(id, 'audit', `${f.severity}: ${f.file ? `${f.file}: ` : ''}${f.message}`, { isError: f.severity === 'severe' });
  if (!gate.accepted) {
    state.pending.push(signOffRejected({ phase: `Phase ${phaseId}`, testsOutput: rejectionText(gate) }));
    host.log(id, 'gate', `Sign-off of Phase ${phaseId} rejected.`, { isError: true });
    return 'rejected';
  }
  store.finishPhase(id, phase.number, 'signed_off');
  const phases = store.phases(id);
  const next = phases.find((p) => p.number > phase.number && p.status !== 'signed_off');
  if (!next) {
    store.setStatus(id, 'completed');
    host.log(id, 'status', `Phase ${phaseId} signed off — every phase is done.`);
    host.changed(id);
    return 'completed';
  }
  const nextId = phaseIdOf(state, next.number);
  store.setCurrentPhase(id, next.number);
  store.startPhase(id, next.number);
  state.phaseStart = after;
  state.fixAttempts = {};
  // The gate closes at every phase start: the next phase's window must be read in that phase.
  state.windowRead = run.mode === 'dump' ? nextId : null;
  state.pending.push(
    phaseAdvanceMessage({
      nextPhase: nextId,
      nextPhaseName: next.name,
      diffSummary: diff,
      listing: await workspaceListing(run.workDir),
      // Dump mode has no phase-window tool: the old flow put the next window in the message.
      ...(run.mode === 'dump' ? { phaseWindow: windowText(plan, nextId) } : {}),
    }),
  );
  host.log(id, 'status', `Phase ${phaseId} signed off; Phase ${nextId} — ${next.name} begins.`);
  return 'advanced';
}

function rejectionText(gate: { tests: { passed: boolean; output: string }; findings: { severity: string; file: string | null; message: string }[] }): string {
  const severe = gate.findings.filter((f) => f.severity === 'severe');
  const lines = severe.map((f) => `- ${f.file ? `${f.file}: ` : ''}${f.message}`);
  return [gate.tests.passed ? 'The tests pass, but the audit found problems that block this phase:' : gate.tests.output.slice(-3000), ...lines].join('\n');
}
