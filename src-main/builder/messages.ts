import type { AuditFinding, BuildMode, StopCode } from '../api/builds';
import { InvalidInputError } from '../common/errors';
import { MARKER, STOP_CODES } from './markers';

/**
 * Every text the build runner sends: to the builder (first message, phase advance, gate, nudges,
 * answers), to the recovery planner and to the auditor. Forge's own words; the shapes follow the
 * seed's flow (mcp-driven-builder.md §4, §5 step 4, §7).
 */

const MAX_OUTPUT = 4000;

/** The tail of a long output, marked as cut: the end of a test run is where the failure summary is. */
export function tail(text: string, max = MAX_OUTPUT): string {
  const t = text.trimEnd();
  return t.length <= max ? t : `[… ${t.length - max} earlier characters cut …]\n${t.slice(-max)}`;
}

/** A fence longer than any backtick run inside, so quoted text cannot close it early. */
export function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text.trimEnd()}\n${fence}`;
}

// ── The project brief ────────────────────────────────────────────────────────

const MAX_DESCRIPTION = 300;

const plain = (s: string) =>
  s
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*|__|`/g, '')
    .replace(/(^|\s)[*_](\S[^*_]*?)[*_](?=\s|[.,;:!?]|$)/g, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The project's name and one-line description, from the blueprint: its first heading (without a
 * "Blueprint —" label) and the first sentence of its first paragraph. A missing or empty blueprint
 * gives the fallback name and an empty description rather than an error: the builder can still
 * read the blueprint itself.
 */
export function projectBrief(blueprintMarkdown: string | null | undefined, fallbackName = 'Untitled project'): { name: string; description: string } {
  const lines = (blueprintMarkdown ?? '').replace(/\r\n?/g, '\n').split('\n');
  let name = '';
  const paragraph: string[] = [];
  let inFence = false;
  for (const line of lines) {
    const t = line.trim();
    if (/^(```|~~~)/.test(t)) {
      inFence = !inFence;
      if (paragraph.length) break;
      continue;
    }
    if (inFence || t.startsWith('<!--')) continue;
    const heading = /^#{1,6}\s+(.+?)\s*#*$/.exec(t);
    if (heading) {
      if (paragraph.length) break;
      if (!name) name = headingName(heading[1]!);
      continue;
    }
    if (!t) {
      if (paragraph.length) break;
      continue;
    }
    if (/^(\||-{3,}|={3,})/.test(t)) continue; // tables and rules are not a description
    paragraph.push(t.replace(/^([-*+]|\d+[.)])\s+/, ''));
  }
  return { name: name || fallbackName, description: firstSentence(plain(paragraph.join(' '))) };
}

function headingName(heading: string): string {
  const h = plain(heading);
  const labelled = /^(?:project\s+)?blueprint\s*[:—–-]\s*(.+)$/i.exec(h) ?? /^(.+?)\s*[:—–-]\s*(?:project\s+)?blueprint$/i.exec(h);
  if (labelled) return labelled[1]!.trim();
  return /^(?:project\s+)?blueprint$/i.test(h) ? '' : h;
}

function firstSentence(text: string): string {
  const m = /^.+?[.!?](?=\s+[A-Z("'`]|$)/.exec(text);
  const s = (m ? m[0] : text).trim();
  if (s.length <= MAX_DESCRIPTION) return s;
  const cut = s.slice(0, MAX_DESCRIPTION);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : MAX_DESCRIPTION).trimEnd()}…`;
}

// ── Messages to the builder ──────────────────────────────────────────────────

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

/** "Phase 2" from a number; a label such as "Phase 2 — API" as given. */
const phaseLabel = (phase: number | string) => (typeof phase === 'number' ? `Phase ${phase}` : phase);

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

// ── The recovery planner ─────────────────────────────────────────────────────

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

// ── The auditor ──────────────────────────────────────────────────────────────

/** System prompt of the auditor (after contracts/auditor_prompt.md): a plain model call answering with JSON findings. */
export const AUDITOR_PROMPT = `You are the auditor of a Forge build. The builder has signed off a phase, Forge has run the project's tests and its own checks, and you decide whether anything in this phase should hold it back. You read; you never change files.

Check, in this order:
1. Deliverables — each one the phase asks for exists and does what it says; name any that is missing or partial.
2. Layers — no import reaches past a layer the project's boundaries forbid.
3. Scope — every change serves a deliverable; flag renames, clean-ups and refactors nobody asked for.
4. Leaks — no governance contract text, Forge/ paths or Forge tool names in the product's source, README or comments; no secrets in code, logs or fixtures.
5. Tests — they assert on values and could fail; flag a test that cannot.
Forge's own findings are listed for you: do not repeat them.

Severity: "severe" breaks a rule or leaves a deliverable missing (it blocks the phase); "warning" should be fixed but does not block; "info" is a note. Style preferences are never severe.

Answer with one JSON array in a \`\`\`json block: [{"severity": "severe" | "warning" | "info", "file": "<path>" or null, "message": "<the rule broken and the smallest fix>"}]. An empty array means the phase stands.`;

export interface AuditRequestInput {
  /** The phase number, or its label ("Phase 2 — API"). */
  phase: number | string;
  phaseName?: string;
  /** The phase's deliverables (its window), when the runner has them. */
  phaseWindow?: string;
  diffSummary: string;
  deterministicFindings: AuditFinding[];
  /** Excerpts of the files the phase touched. */
  files: { path: string; excerpt: string }[];
}

const MAX_EXCERPT = 6000;
const MAX_EXCERPTS_TOTAL = 60_000;

export function auditRequest(input: AuditRequestInput): string {
  const title = `${phaseLabel(input.phase)}${input.phaseName ? ` — ${input.phaseName}` : ''}`;
  const window = input.phaseWindow?.trim() ? `## What the phase asks for\n\n${input.phaseWindow.trim()}\n\n` : '';
  const found = input.deterministicFindings.length
    ? input.deterministicFindings.map((f) => `- [${f.severity}] ${f.source}${f.file ? ` ${f.file}` : ''}: ${f.message}`).join('\n')
    : '(none)';
  let budget = MAX_EXCERPTS_TOTAL;
  const files: string[] = [];
  let left = 0;
  for (const f of input.files) {
    if (budget <= 0) {
      left++;
      continue;
    }
    const cap = Math.min(MAX_EXCERPT, budget);
    const excerpt = f.excerpt.length > cap ? `${f.excerpt.slice(0, cap)}\n[… cut …]` : f.excerpt;
    budget -= excerpt.length;
    files.push(`### ${f.path}\n\n${fenced(excerpt)}`);
  }
  if (left) files.push(`(${left} more files not shown)`);
  return `# Audit of ${title}\n\n${window}## What changed\n\n${input.diffSummary.trim() || '(no changes recorded)'}\n\n## Forge's findings\n\n${found}\n\n## Files\n\n${files.join('\n\n') || '(none)'}\n\nAnswer with the JSON array of findings.`;
}

const SEVERITY: Record<string, AuditFinding['severity']> = {
  severe: 'severe',
  critical: 'severe',
  high: 'severe',
  error: 'severe',
  blocker: 'severe',
  fail: 'severe',
  warning: 'warning',
  warn: 'warning',
  medium: 'warning',
  low: 'warning',
  info: 'info',
  note: 'info',
};

const unreadable = (why: string, text: string): AuditFinding[] => [
  {
    severity: 'warning',
    source: 'auditor',
    file: null,
    message: `The auditor's answer could not be read (${why}), so its review is missing for this phase. It began: "${text.trim().slice(0, 160)}"`,
  },
];

/**
 * The auditor's findings from its answer: the JSON array in a fenced block, or the first bare
 * array in the text, or an object with a `findings` array. Never throws — an answer that cannot be
 * read becomes one warning saying so, since a silent empty list would pass the phase unreviewed.
 */
export function parseAuditorFindings(text: string): AuditFinding[] {
  const blocks = [...text.matchAll(/```[a-zA-Z]*\s*\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());
  const candidates = [...blocks.filter((b) => /^[[{]/.test(b)), ...bareJson(text)];
  if (candidates.length === 0) return unreadable('no JSON array in it', text);
  let error = 'not valid JSON';
  for (const c of candidates) {
    let data: unknown;
    try {
      data = JSON.parse(c);
    } catch {
      continue;
    }
    const list = Array.isArray(data) ? data : Array.isArray((data as { findings?: unknown })?.findings) ? (data as { findings: unknown[] }).findings : null;
    if (!list) {
      error = 'JSON, but not a list of findings';
      continue;
    }
    const findings = list.map(toFinding).filter((f): f is AuditFinding => f !== null);
    if (list.length > 0 && findings.length === 0) {
      error = 'a list whose items have no message';
      continue;
    }
    return findings;
  }
  return unreadable(error, text);
}

/** The outermost [...] or {...} of the text, for answers that skip the fence. */
function bareJson(text: string): string[] {
  const out: string[] = [];
  for (const [open, close] of [
    ['[', ']'],
    ['{', '}'],
  ] as const) {
    const a = text.indexOf(open);
    const b = text.lastIndexOf(close);
    if (a >= 0 && b > a) out.push(text.slice(a, b + 1));
  }
  return out;
}

function toFinding(item: unknown): AuditFinding | null {
  if (typeof item === 'string') return item.trim() ? { severity: 'warning', source: 'auditor', file: null, message: item.trim().slice(0, 1000) } : null;
  if (!item || typeof item !== 'object') return null;
  const o = item as Record<string, unknown>;
  const message = [o.message, o.finding, o.description, o.issue].find((v) => typeof v === 'string' && v.trim()) as string | undefined;
  if (!message) return null;
  const severity = SEVERITY[String(o.severity ?? o.level ?? '').toLowerCase()] ?? 'warning';
  const file =
    typeof o.file === 'string' && o.file.trim()
      ? o.file.trim().slice(0, 300)
      : typeof o.path === 'string' && o.path.trim()
        ? o.path.trim().slice(0, 300)
        : null;
  return { severity, source: 'auditor', file, message: message.trim().slice(0, 1000) };
}
