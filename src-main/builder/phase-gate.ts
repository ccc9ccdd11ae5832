import type { AuditFinding } from '../api/builds';
import type { Model } from '../llm/types';
import { auditRequest, AUDITOR_PROMPT, parseAuditorFindings } from './audit-messages';
import { windowCall } from './messages';
import { checkContractLeaks, checkLayerBoundaries } from './audit';
import { readFileSync } from 'node:fs';
import { type CommandSandbox, resolveInside, runProjectTests } from './workspace';
import type { ToolDefinition } from '../tools/define';
import type { z } from 'zod';

/**
 * The window gate: in every phase, writes and commands are refused until that phase's window has
 * been read in this phase (forge_get_phase_window with the phase's own id). A reminder after the
 * fact let a model write a whole phase unread; a refusal it cannot get past does not. Reading the
 * summary or a contract does not open it: the window is what says what this phase must build.
 */
export const GATED_TOOLS: ReadonlySet<string> = new Set(['write_file', 'edit_file', 'run_command', 'run_tests']);

/** What a gated tool asks of the build: null when the current phase's window has been read, else the refusal. */
export interface WindowGateHost {
  windowGate?: (tool: string) => string | null;
}

export function windowGateRefusal(phaseId: string, tool: string): string {
  return `${tool} refused: you have not read the window of Phase ${phaseId} in this phase. Call ${windowCall(phaseId)} first; writes and commands of Phase ${phaseId} are refused until you have.`;
}

/** Wraps the gated tools so each asks the build's gate before it runs (the others pass through). */
export function withWindowGate<T extends ToolDefinition<z.ZodType, never>>(tools: T[]): T[] {
  return tools.map((t) => {
    if (!GATED_TOOLS.has(t.name)) return t;
    const run = t.run.bind(t) as (input: unknown, ctx: WindowGateHost) => ReturnType<T['run']>;
    return {
      ...t,
      run(input: unknown, ctx: WindowGateHost) {
        const refusal = ctx.windowGate?.(t.name);
        if (refusal) return { isError: true, content: refusal };
        return run(input, ctx);
      },
    } as T;
  });
}

/**
 * What happens when the builder signs a phase off: Forge runs the project's tests itself (the
 * builder's word is not evidence), then audits the phase — deterministic checks first (layer
 * rules over imports, no contract text or Forge references in the project), then the auditor
 * model. A failing test or a severe finding keeps the phase open.
 */

export interface GateInput {
  workDir: string;
  phase: { number: number; name: string; id?: string };
  allowedCommands: readonly string[];
  contracts: { name: string; text: string }[];
  diffSummary: string;
  /** The phase's deliverables, for the auditor. */
  phaseWindow?: string;
  /** Files the phase added or changed (paths inside the project), excerpted for the auditor. */
  changedFiles?: string[];
  /** The project's own auditor prompt (its auditor_prompt contract), else Forge's. */
  auditorPrompt?: string;
  auditor?: Model;
  signal?: AbortSignal;
  /** How Forge's own test run is confined (the build's sandbox, or the PM's consent). */
  sandbox?: CommandSandbox;
}

export interface GateResult {
  tests: { command: string; passed: boolean; exitCode: number | null; output: string; failingTests: string[] };
  findings: AuditFinding[];
  accepted: boolean;
}

const MAX_EXCERPT = 1500;
const MAX_FILES = 12;

/** The first part of each changed file (text files only; a file that vanished or cannot be read is skipped). */
function excerpts(workDir: string, paths: string[]): { path: string; excerpt: string }[] {
  const out: { path: string; excerpt: string }[] = [];
  for (const p of paths.slice(0, MAX_FILES)) {
    try {
      const text = readFileSync(resolveInside(workDir, p, { write: false }), 'utf8');
      if (text.includes('\u0000')) continue;
      out.push({ path: p, excerpt: text.length > 6000 ? `${text.slice(0, 6000)}\n…` : text });
    } catch {
      // gone or unreadable: the diff summary still names it
    }
  }
  return out;
}

export async function checkSignOff(input: GateInput): Promise<GateResult> {
  const tests = await runProjectTests(input.workDir, { allowedCommands: input.allowedCommands, signal: input.signal, sandbox: input.sandbox });
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
      system: input.auditorPrompt?.trim() || AUDITOR_PROMPT,
      messages: [
        {
          role: 'user',
          content: auditRequest({
            phase: input.phase.id ? `Phase ${input.phase.id}` : input.phase.number,
            phaseName: input.phase.name,
            phaseWindow: input.phaseWindow,
            diffSummary: input.diffSummary,
            deterministicFindings: deterministic,
            files: excerpts(input.workDir, input.changedFiles ?? []),
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
    return [
      { severity: 'warning', source: 'auditor', file: null, message: `The auditor model could not be asked: ${(e as Error).message}`.slice(0, MAX_EXCERPT) },
    ];
  }
}
