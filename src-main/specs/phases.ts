import { fenceMask, numberedItem, parseChecklist } from './markdown';
import type { SpecPhase, SpecTask } from './types';

/**
 * Phases as a plan writes them. Ids are kept exactly as written (`0`, `1`, `3.1`): the builder, the
 * tools and the prompts use the plan's own numbering, never a position.
 */

export interface PlanReading {
  preamble: string;
  phases: SpecPhase[];
  notUnderstood: string[];
}

interface Section {
  id: string;
  name: string;
  lines: string[];
}

const PHASE_HEADING = /^(#{1,6})\s+Phase\s+(\d+(?:\.\d+)*)\b\.?\s*(.*)$/i;
const NUMBERED_HEADING = /^(#{1,6})\s+(\d+(?:\.\d+)*)[.)]\s+(.+)$/;
const ANY_HEADING = /^(#{1,6})\s+(.*)$/;
// A phase heading numbered in words or a placeholder (`Phase One`, `Phase N`, `Phase IV`): seen, not numbered.
// `### Phase Dependencies` (spec-kit) is a section about phases, not one, so only number-like words count.
const WORDY_PHASE = /^#{1,6}\s+Phase\s+(?:[A-Z]|[IVX]+|one|two|three|four|five|six|seven|eight|nine|ten|final|last)\b/i;

/** `: Setup`, `— Core`, `- Polish (week 2)` → the name, its leading separator dropped. */
function cleanName(rest: string): string {
  return rest
    .replace(/^[\s:.—–-]+/, '')
    .replace(/\s+#+\s*$/, '')
    .trim();
}

/**
 * Split a plan at its phase headings (`## Phase 1: …`, `### Phase 2 - …`, `## Phase 3.1 — …`), or,
 * with `numbered`, at numbered headings (`## 1. Group`, OpenSpec). A non-phase heading at the phase
 * headings' level or above ends a phase (spec-kit's `## Dependencies` after the last phase is not
 * part of that phase). Text before the first phase is the preamble.
 */
export function splitPhaseHeadings(text: string, source: string, mode: 'phase' | 'numbered'): PlanReading {
  const lines = text.split('\n');
  const mask = fenceMask(lines);
  const re = mode === 'phase' ? PHASE_HEADING : NUMBERED_HEADING;
  let level = 0;
  for (let i = 0; i < lines.length && !level; i++) {
    const m = mask[i] ? null : re.exec(lines[i].trimEnd());
    if (m) level = m[1].length;
  }
  const notUnderstood: string[] = [];
  if (!level) {
    if (mode === 'phase') {
      for (let i = 0; i < lines.length; i++) {
        if (!mask[i] && WORDY_PHASE.test(lines[i])) notUnderstood.push(unnumbered(source, lines[i]));
      }
    }
    return { preamble: text.trim(), phases: [], notUnderstood };
  }
  const preamble: string[] = [];
  const sections: Section[] = [];
  let current: Section | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const m = mask[i] ? null : re.exec(line.trimEnd());
    if (m && m[1].length === level) {
      current = { id: m[2], name: cleanName(m[3]), lines: [line] };
      sections.push(current);
      continue;
    }
    const h = mask[i] ? null : ANY_HEADING.exec(line);
    if (h && h[1].length <= level) {
      if (mode === 'phase' && WORDY_PHASE.test(line)) {
        notUnderstood.push(unnumbered(source, line));
      }
      if (current) {
        current = undefined;
        continue;
      }
    }
    if (current) current.lines.push(line);
    else if (sections.length === 0) preamble.push(line);
  }
  const phases = sections.map((s, ordinal) => {
    const body = s.lines.join('\n').trimEnd();
    return { id: s.id, ordinal, name: s.name, tasks: tasksOf(body), text: body, source };
  });
  notUnderstood.push(...duplicateIds(phases, source));
  return { preamble: preamble.join('\n').trim(), phases, notUnderstood };
}

/**
 * Tasks of a phase: its checklist (`- [ ] T001 [P] …`, `- [ ] 1.1 …`) when it has one; otherwise its
 * top-level bullets, because a plain plan often lists the work of a phase as a simple list.
 */
export function tasksOf(body: string): SpecTask[] {
  const checklist = parseChecklist(body);
  if (checklist.length) return checklist;
  const lines = body.split('\n');
  const mask = fenceMask(lines);
  const bullets: { indent: number; text: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = mask[i] ? null : /^(\s*)[-*+]\s+(.+)$/.exec(lines[i]);
    if (m) bullets.push({ indent: m[1].replace(/\t/g, '    ').length, text: m[2].trim() });
  }
  if (!bullets.length) return [];
  const top = Math.min(...bullets.map((b) => b.indent));
  return bullets.filter((b) => b.indent === top).map((b, i) => ({ id: String(i + 1), text: b.text }));
}

/**
 * A plan that lists its phases as a numbered list (`1. Foundations — …` with the work indented
 * beneath): each top-level item is a phase numbered as written.
 */
export function splitNumberedList(text: string, source: string): PlanReading {
  const lines = text.split('\n');
  const mask = fenceMask(lines);
  const items: { i: number; id: string; text: string }[] = [];
  let indent = -1;
  for (let i = 0; i < lines.length; i++) {
    const n = mask[i] ? null : numberedItem(lines[i]);
    if (!n) continue;
    if (indent < 0) indent = n.indent;
    if (n.indent === indent && !n.id.includes('.')) items.push({ i, id: n.id, text: n.text });
  }
  if (items.length < 2) return { preamble: text.trim(), phases: [], notUnderstood: [] };
  const phases: SpecPhase[] = items.map((it, ordinal) => {
    const end = ordinal + 1 < items.length ? items[ordinal + 1].i : endOfList(lines, mask, it.i, indent);
    const body = lines.slice(it.i, end).join('\n').trimEnd();
    const [name] = it.text.split(/\s+[—–:-]\s+/);
    const nested = lines.slice(it.i + 1, end).join('\n');
    return { id: it.id, ordinal, name: name.trim(), tasks: tasksOf(nested), text: body, source };
  });
  const preamble = lines.slice(0, items[0].i).join('\n').trim();
  return { preamble, phases, notUnderstood: duplicateIds(phases, source) };
}

/** The list ends at the first heading or unindented non-list line after its last item. */
function endOfList(lines: string[], mask: boolean[], from: number, indent: number): number {
  for (let j = from + 1; j < lines.length; j++) {
    if (mask[j]) continue;
    const l = lines[j];
    if (/^#{1,6}\s/.test(l)) return j;
    if (l.trim() && l.length - l.trimStart().length <= indent && !numberedItem(l)) return j;
  }
  return lines.length;
}

function unnumbered(source: string, line: string): string {
  return `${source}: the heading "${line.trim()}" looks like a phase but has no number, so it was not read as one.`;
}

function duplicateIds(phases: SpecPhase[], source: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const p of phases) {
    if (seen.has(p.id)) out.push(`${source}: Phase ${p.id} is written twice; a tool asking for Phase ${p.id} gets the first.`);
    seen.add(p.id);
  }
  return out;
}
