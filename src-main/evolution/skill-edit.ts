import { InvalidInputError } from '../common/errors';

/**
 * What a skill-edit proposal may touch, and how its quoted text is found and replaced. A proposal
 * edits the instructions, templates and references of one skill (seed §11) — never its scripts or
 * assets, never a hidden file (the `.versions/` store lives there), never anything outside it.
 */

const SEGMENT_RE = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const TEXT_FILE_RE = /\.(md|markdown|txt|json|ya?ml|csv)$/i;
const EDITABLE_DIRS = new Set(['templates', 'references', 'reference']);

/** The longest text a proposal may quote or propose: skill files are prompts, not data. */
export const MAX_EDIT_CHARS = 20_000;

/**
 * Checks a proposal's target, relative to the skill folder: `SKILL.md`, a top-level `.md`, or a
 * text file under templates/ or references/. Returns the normalised path (`/` separators).
 */
export function checkTargetFile(raw: unknown): string {
  const refuse = (why: string) =>
    new InvalidInputError(`The target file ${JSON.stringify(String(raw).slice(0, 120))} ${why}`, [{ path: ['target_file'], message: why }]);
  if (typeof raw !== 'string' || raw.trim() === '') throw refuse('is missing; name a file inside the skill folder, e.g. SKILL.md.');
  if (raw.includes('\0')) throw refuse('contains a NUL byte.');
  const rel = raw.trim().replace(/\\/g, '/');
  if (rel.startsWith('/') || /^[A-Za-z]:/.test(rel) || rel.startsWith('~'))
    throw refuse('is an absolute path; use a path inside the skill folder, e.g. SKILL.md.');
  const parts = rel.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw refuse('points outside the skill folder (`..`); proposals edit files of their own skill only.');
  if (parts.length === 0) throw refuse('is not a file.');
  const bad = parts.find((p) => !SEGMENT_RE.test(p));
  if (bad) throw refuse(`has a name proposals may not touch ("${bad.slice(0, 40)}"); hidden files and odd names are off limits.`);
  if (!TEXT_FILE_RE.test(parts[parts.length - 1]!)) throw refuse('is not a text file a proposal may edit (.md, .txt, .json, .yaml, .csv).');
  if (parts.length === 1) return parts[0]!;
  if (!EDITABLE_DIRS.has(parts[0]!)) throw refuse('is outside SKILL.md, templates/ and references/; proposals do not edit scripts or assets.');
  return parts.join('/');
}

/** How many times `needle` occurs in `text` (non-overlapping). */
export function countOccurrences(text: string, needle: string): number {
  if (!needle) return 0;
  let n = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) n++;
  return n;
}

export type EditCheck = { ok: true; result: string; oldText: string; newText: string } | { ok: false; reason: string };

/**
 * Applies the replacement when the quoted text occurs exactly once. Proposal records keep their
 * text with `\n` line ends, so a file with CRLF line ends is matched with the quote in CRLF too.
 */
export function applyEdit(file: string, oldText: string, newText: string): EditCheck {
  if (!oldText) return { ok: false, reason: 'the proposal quotes no existing text' };
  let oldT = oldText;
  let newT = newText;
  let n = countOccurrences(file, oldT);
  if (n === 0 && file.includes('\r\n') && !oldText.includes('\r')) {
    oldT = oldText.replace(/\n/g, '\r\n');
    newT = newText.replace(/\r?\n/g, '\r\n');
    n = countOccurrences(file, oldT);
  }
  if (n === 0) return { ok: false, reason: 'the quoted text is no longer in the file' };
  if (n > 1) return { ok: false, reason: `the quoted text occurs ${n} times in the file, so the edit is ambiguous` };
  const at = file.indexOf(oldT);
  return { ok: true, result: file.slice(0, at) + newT + file.slice(at + oldT.length), oldText: oldT, newText: newT };
}
