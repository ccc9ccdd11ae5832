import type { BuildMode, StopCode } from '../api/builds';
import { InvalidInputError } from '../common/errors';
import { MARKER, STOP_CODES } from './markers';
import { fenced, phaseLabel, tail } from './message-text';

/**
 * Every text the build runner sends to the builder: first message, phase advance, gate, nudges,
 * answers. The recovery planner's texts are in recovery-messages.ts, the auditor's in
 * audit-messages.ts. Forge's own words; the shapes follow the seed's flow (mcp-driven-builder.md §4,
 * §5 step 4, §7).
 */

export interface ContractText {
  name: string;
  file?: string;
  text: string;
}

export interface FirstMessageInput {
  projectName: string;
  description: string;
  /** The workspace listing (one path per line). */
  listing: string;
  mode: BuildMode;
  /** The plan's first phase, by its own id ("1", "3.1", "0") — never assumed to be 0. */
  firstPhase: { id: string; name?: string };
  /** Dump mode: the documents to inline (the plan itself is left out: its window goes in instead). */
  contractsDump?: ContractText[];
  /** Dump mode: the first phase's window (it and the next), inlined. */
  phaseWindow?: string;
}

/** The exact call that reads a phase's window (and opens its gate), as the model should write it. */
export const windowCall = (phaseId: string) => `forge_get_phase_window({"phase_number": ${JSON.stringify(phaseId)}})`;

const phaseTitle = (p: { id: string; name?: string }) => `Phase ${p.id}${p.name ? ` — ${p.name}` : ''}`;

/**
 * The first user message. MCP mode: the brief, the listing and "begin Phase <first>" with the exact
 * window call — no documents (the builder fetches them). Dump mode: the old flow, kept to compare —
 * every document and the first phase's window in the message, so nothing needs fetching.
 */
export function firstMessage(input: FirstMessageInput): string {
  const head = [`# Project: ${input.projectName}`, input.description].filter(Boolean).join('\n\n');
  const workspace = `## Workspace\n\n${fenced(input.listing.trim() || '(empty)')}`;
  if (input.mode === 'mcp') {
    return `${head}\n\n${workspace}\n\nBegin ${phaseTitle(input.firstPhase)}. Call ${windowCall(input.firstPhase.id)} first (writes and commands are refused until you have), then the documents it needs, then write your ${MARKER.planStart} and start building.\n`;
  }
  if (!input.contractsDump?.length) throw new InvalidInputError('A dump-mode build needs the contracts to put in its first message; none were given.');
  // The plan never goes in whole (230 KB in a real project): its first window does.
  const contracts = input.contractsDump
    .filter((c) => c.name !== 'phases')
    .map((c) => `<contract name="${c.name}"${c.file ? ` file="${c.file}"` : ''}>\n${c.text.trim()}\n</contract>`)
    .join('\n\n');
  const first = `Phase ${input.firstPhase.id}`;
  const window = input.phaseWindow ? `\n\n## ${first} window\n\n${input.phaseWindow.trim()}` : '';
  return `${head}\n\nEverything you need to start is in this message: the project's documents below, the workspace listing and the ${first} window. Do not go looking for the documents on disk.\n\n## Contracts\n\n${contracts}\n\n${workspace}${window}\n\nBegin ${phaseTitle(input.firstPhase)}: write your ${MARKER.planStart} and start building.\n`;
}

export interface PhaseAdvanceInput {
  /** The next phase's own id, as the plan writes it. */
  nextPhase: number | string;
  nextPhaseName?: string;
  /** What the phase just signed off changed (files added, changed, removed). */
  diffSummary: string;
  listing: string;
  /** Dump mode only: the next window inlined, as the old flow did. MCP mode fetches it. */
  phaseWindow?: string;
}

/** Sent after an accepted sign-off. In MCP mode no window is injected: the builder fetches it. */
export function phaseAdvanceMessage(input: PhaseAdvanceInput): string {
  const title = `## Phase ${input.nextPhase}${input.nextPhaseName ? ` — ${input.nextPhaseName}` : ''} — start`;
  const diff = `### What the last phase changed\n\n${input.diffSummary.trim() || '(no file changes recorded)'}`;
  const workspace = `### Workspace now\n\n${fenced(input.listing.trim() || '(empty)')}`;
  const next = input.phaseWindow
    ? `### Phase window\n\n${input.phaseWindow.trim()}\n\nWrite your ${MARKER.planStart} for Phase ${input.nextPhase} and build it.`
    : `Call ${windowCall(String(input.nextPhase))} for this phase's deliverables (writes and commands are refused until you have), read the documents it touches, then write your ${MARKER.planStart}.`;
  return `The previous phase is signed off.\n\n${title}\n\n${diff}\n\n${workspace}\n\n${next}\n`;
}

/**
 * A sign-off Forge refused: the tests it ran fail, or the audit found something severe. The
 * output is whatever explains why (the test output's tail, the findings).
 */
export function signOffRejected(input: { phase: number | string; testsOutput: string }): string {
  return `Your sign-off for ${phaseLabel(input.phase)} is not accepted: when Forge ran the tests and audited the phase, this is what it found.\n\n${fenced(tail(input.testsOutput))}\n\nFix the cause, run run_tests until they pass, then sign off again with ${MARKER.signOffStart}.`;
}

/** The user's answer to a STOP, handed back so the build resumes. */
export function stopAnswered(code: StopCode, answer: string): string {
  const quoted = answer
    .trim()
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
  return `You stopped with ${code}. The user answered:\n\n${quoted}\n\nContinue the current phase with this answer. If it still leaves you unable to proceed, stop again and say exactly what is missing.`;
}

export function unknownStopCode(stop: string | { code: string }): string {
  const code = typeof stop === 'string' ? stop : stop.code;
  return `"${code.slice(0, 60)}" is not a STOP code, so the build did not stop. The codes are: ${STOP_CODES.join(', ')}. If you cannot proceed, write ${MARKER.stop('<CODE>')} on its own line followed by the reason; otherwise carry on.`;
}

/** The model answered with neither a tool call nor a marker. */
export function nudge(): string {
  return `Your last answer had no tool call and no marker, so the build did not move. Carry on with the current task: call a tool, mark finished work with ${MARKER.taskDone('N')}, or sign off with ${MARKER.signOffStart} when every task is done and the tests pass. If you are blocked, write ${MARKER.stop('<CODE>')} and the reason.`;
}

/** Markers appeared only inside a code block, where Forge does not read them. */
export function markersInCodeBlock(): string {
  return 'Your markers were inside a code block, where Forge ignores them (they look like a quoted example there). Write each marker on its own line in plain text.';
}
