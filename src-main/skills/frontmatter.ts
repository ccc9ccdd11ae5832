import { parseDocument } from 'yaml';

/**
 * The Agent Skills frontmatter rules, checked in one pass that collects every problem instead of
 * stopping at the first: a PM fixing a skill wants the whole list, each with file and field.
 */

export type SkillProblemSeverity = 'error' | 'warning';

export interface SkillProblem {
  severity: SkillProblemSeverity;
  /** Path of the file the problem sits in (absolute). */
  file: string;
  /** Frontmatter field (`name`, `metadata.owner`, ...) or `frontmatter` / `body` for the document itself. */
  field: string;
  message: string;
}

export interface SkillFrontmatter {
  name: string;
  description: string;
  license?: string;
  compatibility?: string;
  metadata: Record<string, string>;
  allowedTools: string[];
}

export interface ParsedSkillFile {
  frontmatter: SkillFrontmatter;
  body: string;
  problems: SkillProblem[];
}

export type SkillValidationMode = 'strict' | 'lenient';

export const KNOWN_FIELDS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'] as const;

/** The sections every Forge analyst skill carries (the executor validates against Eval Criteria). */
export const ANALYST_SKILL_SECTIONS = ['Output Format', 'Procedure', 'Eval Criteria'];

export const NAME_MAX = 64;
export const DESCRIPTION_MAX = 1024;
export const COMPATIBILITY_MAX = 500;
const NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Splits `---\n<yaml>\n---\n<body>`; tolerates a BOM and CRLF line ends. */
export function splitFrontmatter(text: string): { yaml: string; body: string } | null {
  const src = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!src.startsWith('---\n')) return null;
  const end = src.indexOf('\n---', 3);
  if (end < 0) return null;
  const afterFence = src.indexOf('\n', end + 4);
  const fenceLine = src.slice(end + 1, afterFence < 0 ? undefined : afterFence);
  if (fenceLine.trim() !== '---') return null;
  return { yaml: src.slice(4, end + 1), body: afterFence < 0 ? '' : src.slice(afterFence + 1) };
}

/** Checks a skill name against the standard (not against the folder; the caller knows the folder). */
export function nameProblems(name: string): string[] {
  const out: string[] = [];
  if (name.length === 0) out.push('must not be empty');
  if (name.length > NAME_MAX) out.push(`is ${name.length} characters; the limit is ${NAME_MAX}`);
  if (name.length > 0 && !NAME_PATTERN.test(name)) {
    out.push('may contain only lowercase letters, digits and single hyphens, and must not start or end with a hyphen');
  }
  return out;
}

/**
 * Parses and validates one SKILL.md. `folderName` is the directory the file sits in; the standard
 * requires `name` to equal it.
 *
 * In `strict` mode every rule of the standard is an error. In `lenient` mode (the app's), a skill
 * as people publish it loads: breaking a length or format nicety (a long description, an upper-case
 * name, a name that differs from its folder, an unknown key, a number in metadata) is a warning,
 * and only a skill nobody could use is refused — no frontmatter, YAML that does not parse, or
 * neither a name nor a description.
 */
export function parseSkillFile(text: string, file: string, folderName: string, mode: SkillValidationMode): ParsedSkillFile {
  const problems: SkillProblem[] = [];
  const err = (field: string, message: string) => problems.push({ severity: 'error', file, field, message });
  const warn = (field: string, message: string) => problems.push({ severity: 'warning', file, field, message });
  /** A rule of the standard that a usable skill may break: an error only in strict mode. */
  const nicety = (field: string, message: string) => (mode === 'strict' ? err : warn)(field, message);
  const lenient = mode === 'lenient';
  const empty: SkillFrontmatter = { name: '', description: '', metadata: {}, allowedTools: [] };

  const parts = splitFrontmatter(text);
  if (!parts) {
    err('frontmatter', 'SKILL.md must start with a YAML frontmatter block between two "---" lines');
    return { frontmatter: empty, body: text, problems };
  }
  const doc = parseDocument(parts.yaml, { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    for (const e of doc.errors) err('frontmatter', `the YAML does not parse: ${e.message.split('\n')[0]}`);
    return { frontmatter: empty, body: parts.body, problems };
  }
  const data: unknown = doc.toJS();
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    err('frontmatter', 'the frontmatter must be a mapping of fields (name: ..., description: ...)');
    return { frontmatter: empty, body: parts.body, problems };
  }
  const fm = data as Record<string, unknown>;
  const out: SkillFrontmatter = { ...empty, metadata: {}, allowedTools: [] };
  // A number or true/false where the standard wants text: lenient mode reads it as text.
  const scalarText = (v: unknown): string | null =>
    typeof v === 'string' ? v : lenient && (typeof v === 'number' || typeof v === 'boolean') ? String(v) : null;
  /** A text field: its trimmed value, or null when absent, empty or not text (strict mode reports the type here). */
  const textField = (field: 'name' | 'description'): string | null => {
    const v = fm[field];
    if (typeof v === 'string') return v.trim() || null;
    if (v === undefined || v === null) return null;
    if (lenient && (typeof v === 'number' || typeof v === 'boolean')) {
      warn(field, `should be a string; read as "${String(v)}" (quote it in the YAML)`);
      return String(v);
    }
    if (!lenient) err(field, 'must be a string'); // lenient: reported below, with what is used instead
    return null;
  };
  const missing = (field: 'name' | 'description') => {
    const v = fm[field];
    return v === undefined || v === null ? 'is required' : typeof v === 'string' ? 'must not be empty' : 'must be a string';
  };
  const hasError = (field: string) => problems.some((p) => p.field === field && p.severity === 'error');

  const name = textField('name');
  const description = textField('description');
  if (name === null && description === null) {
    // Nothing to find the skill by and nothing to choose it by: unusable in either mode.
    if (!hasError('name')) err('name', missing('name'));
    if (!hasError('description')) err('description', missing('description'));
  }

  if (name !== null) {
    out.name = name;
    for (const p of nameProblems(name)) nicety('name', `"${name}" ${p}`);
    if (name !== folderName) nicety('name', `"${name}" must equal the folder name "${folderName}"${lenient ? `; the skill is listed as "${folderName}"` : ''}`);
  } else if (description !== null && !hasError('name')) {
    nicety('name', `${missing('name')}${lenient ? `; the folder name "${folderName}" is used` : ''}`);
  }

  if (description !== null) {
    let d = description;
    if (d.length > DESCRIPTION_MAX) nicety('description', `is ${d.length} characters; the limit is ${DESCRIPTION_MAX}`);
    if (/[<>]/.test(d)) {
      nicety('description', `must not contain "<" or ">" (it is placed inside the system prompt)${lenient ? '; they are shown as ‹ ›' : ''}`);
      if (lenient) d = d.replace(/</g, '‹').replace(/>/g, '›');
    }
    out.description = d;
  } else if (name !== null && !hasError('description')) {
    if (!lenient) err('description', missing('description'));
    else {
      out.description = firstParagraph(parts.body);
      const instead = out.description ? 'the first paragraph of the instructions is used instead' : 'it will rarely be chosen';
      warn('description', `${missing('description')}; the analyst picks skills by their description, so ${instead}`);
    }
  }

  // license
  if (fm.license !== undefined) {
    const l = scalarText(fm.license);
    if (l === null || l.trim() === '') nicety('license', 'must be a non-empty string');
    else out.license = l.trim();
  }

  // compatibility
  if (fm.compatibility !== undefined) {
    const c = scalarText(fm.compatibility)?.trim() ?? null;
    if (c === null) nicety('compatibility', 'must be a string');
    else {
      if (c.length === 0) nicety('compatibility', 'must not be empty when present');
      if (c.length > COMPATIBILITY_MAX) nicety('compatibility', `is ${c.length} characters; the limit is ${COMPATIBILITY_MAX}`);
      if (c.length > 0) out.compatibility = c;
    }
  }

  // metadata: a string → string map
  if (fm.metadata !== undefined) {
    const m = fm.metadata;
    if (m === null || typeof m !== 'object' || Array.isArray(m)) nicety('metadata', 'must be a mapping of string keys to string values');
    else {
      for (const [k, v] of Object.entries(m as Record<string, unknown>)) {
        if (typeof v === 'string') out.metadata[k] = v;
        else if (lenient && (typeof v === 'number' || typeof v === 'boolean')) {
          out.metadata[k] = String(v);
          warn(`metadata.${k}`, `should be a string; read as "${String(v)}" (quote it in the YAML)`);
        } else if (lenient && v !== null && v !== undefined) {
          out.metadata[k] = JSON.stringify(v);
          warn(`metadata.${k}`, 'should be a string; a nested value was kept as JSON text');
        } else nicety(`metadata.${k}`, 'must be a string (quote it in the YAML)');
      }
    }
  }

  // allowed-tools: the standard says space-separated; a YAML list is accepted too
  const at = fm['allowed-tools'];
  if (at !== undefined) {
    if (typeof at === 'string') {
      if (at.includes(',')) warn('allowed-tools', 'the standard separates tools with spaces, not commas');
      out.allowedTools = at.split(/[\s,]+/).filter(Boolean);
    } else if (Array.isArray(at)) {
      at.forEach((t, i) => {
        if (typeof t === 'string' && t.trim() !== '') out.allowedTools.push(t.trim());
        else nicety(`allowed-tools[${i}]`, 'must be a tool name');
      });
    } else nicety('allowed-tools', 'must be a space-separated string or a list of tool names');
  }

  // unknown keys
  for (const key of Object.keys(fm)) {
    if ((KNOWN_FIELDS as readonly string[]).includes(key)) continue;
    nicety(key, `is not a field of the Agent Skills standard (allowed: ${KNOWN_FIELDS.join(', ')}); move it under metadata`);
  }

  if (parts.body.trim() === '') warn('body', 'the skill has no instructions after the frontmatter');
  return { frontmatter: out, body: parts.body, problems };
}

/** The first paragraph of prose in a body (headings, fences and lists skipped), within the description limit. */
function firstParagraph(body: string): string {
  const para: string[] = [];
  let fenced = false;
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced || /^(```|~~~)/.test(line)) continue;
    if (line === '') {
      if (para.length) break;
      continue;
    }
    if (/^(#|[-*+] |\d+\. |[|>])/.test(line)) {
      if (para.length) break;
      continue;
    }
    para.push(line);
  }
  const text = para.join(' ').replace(/[<>]/g, (c) => (c === '<' ? '‹' : '›'));
  return text.length <= DESCRIPTION_MAX ? text : `${text.slice(0, DESCRIPTION_MAX - 1)}…`;
}

/** Level-2 headings (`## X`) present in a skill body. */
export function bodyHeadings(body: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of body.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const m = /^##\s+(.+?)\s*#*\s*$/.exec(line);
    if (m) out.push(m[1]!);
  }
  return out;
}

/**
 * The text of one `## heading` section of a skill body (up to the next level-1/2 heading), or null.
 * Headings are matched case-insensitively and by prefix, so `Output Format (mandatory structure)`
 * answers to `Output Format`. Fenced code blocks are skipped when looking for headings.
 */
export function skillSection(body: string, heading: string): string | null {
  const lines = body.split('\n');
  const want = heading.trim().toLowerCase();
  let fenced = false;
  let start = -1;
  let end = lines.length;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const m = /^(#{1,2})\s+(.+?)\s*$/.exec(line);
    if (!m) continue;
    if (start >= 0) {
      end = i;
      break;
    }
    if (m[1] === '##' && m[2]!.toLowerCase().startsWith(want)) start = i + 1;
  }
  if (start < 0) return null;
  return lines.slice(start, end).join('\n').trim();
}
