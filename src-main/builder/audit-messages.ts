import type { AuditFinding } from '../api/builds';
import { fenced, phaseLabel } from './message-text';

/** What the build runner asks the auditor after a sign-off, and how its JSON findings are read. */

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
