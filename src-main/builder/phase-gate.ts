import type { AuditFinding } from '../api/builds';
import type { Model } from '../llm/types';
import { auditRequest, AUDITOR_PROMPT, parseAuditorFindings } from './messages';
import { checkContractLeaks, checkLayerBoundaries } from './audit';
import { runProjectTests } from './workspace';

/**
 * What happens when the builder signs a phase off: Forge runs the project's tests itself (the
 * builder's word is not evidence), then audits the phase — deterministic checks first (layer
 * rules over imports, no contract text or Forge references in the project), then the auditor
 * model. A failing test or a severe finding keeps the phase open.
 */

export interface GateInput {
  workDir: string;
  phase: { number: number; name: string };
  allowedCommands: readonly string[];
  contracts: { name: string; text: string }[];
  diffSummary: string;
  auditor?: Model;
  signal?: AbortSignal;
}

export interface GateResult {
  tests: { command: string; passed: boolean; exitCode: number | null; output: string; failingTests: string[] };
  findings: AuditFinding[];
  accepted: boolean;
}

const MAX_EXCERPT = 1500;

export async function checkSignOff(input: GateInput): Promise<GateResult> {
  const tests = await runProjectTests(input.workDir, { allowedCommands: input.allowedCommands, signal: input.signal });
  const findings: AuditFinding[] = [];
  if (!tests.passed) {
    findings.push({
      severity: 'severe',
      source: 'tests',
      file: null,
      message: `The project's tests fail when Forge runs them (${tests.command}, exit ${tests.exitCode ?? 'none'})${tests.failingTests.length ? `: ${tests.failingTests.slice(0, 5).join(', ')}` : ''}.`,
    });
    // No audit of a phase whose tests fail: the builder fixes the tests first.
    return { tests, findings, accepted: false };
  }
  const boundaries = input.contracts.find((c) => c.name === 'boundaries');
  if (boundaries) findings.push(...checkLayerBoundaries(input.workDir, boundaries.text));
  findings.push(...checkContractLeaks(input.workDir, input.contracts));
  if (input.auditor) findings.push(...(await auditWithModel(input, findings)));
  return { tests, findings, accepted: !findings.some((f) => f.severity === 'severe') };
}

async function auditWithModel(input: GateInput, deterministic: AuditFinding[]): Promise<AuditFinding[]> {
  try {
    const result = await input.auditor!.call({
      role: 'review',
      system: AUDITOR_PROMPT,
      messages: [
        {
          role: 'user',
          content: auditRequest({
            phase: `Phase ${input.phase.number} — ${input.phase.name}`,
            diffSummary: input.diffSummary,
            deterministicFindings: deterministic,
            files: [],
          }),
        },
      ],
      maxTokens: 2000,
      signal: input.signal,
    });
    return parseAuditorFindings(result.text);
  } catch (e) {
    if (input.signal?.aborted) throw e;
    // The auditor being unreachable never blocks a phase whose tests pass: it is recorded.
    return [{ severity: 'warning', source: 'auditor', file: null, message: `The auditor model could not be asked: ${(e as Error).message}`.slice(0, MAX_EXCERPT) }];
  }
}
