import type { SkillFileView, SkillState, SkillView } from '../../src-main/api/skills';

/** What the screen opens when a skill is chosen without a file. */
export const SKILL_FILE = 'SKILL.md';

export const stateLabel: Record<SkillState, string> = {
  valid: 'Valid',
  warnings: 'Warnings',
  errors: 'Errors',
};

/** The badge text: "Valid", "2 warnings", "1 error · 1 warning". */
export function stateBadge(skill: Pick<SkillView, 'state' | 'problems'>): string {
  if (skill.state === 'valid') return stateLabel.valid;
  const errors = skill.problems.filter((p) => p.severity === 'error').length;
  const warnings = skill.problems.length - errors;
  const parts: string[] = [];
  if (errors) parts.push(`${errors} ${errors === 1 ? 'error' : 'errors'}`);
  if (warnings) parts.push(`${warnings} ${warnings === 1 ? 'warning' : 'warnings'}`);
  return parts.join(' · ') || stateLabel[skill.state];
}

/** `#/skills/<name>/<path>`: the path travels as one encoded segment, so it keeps its slashes. */
export function routeSkill(rest: string[]): { name: string; path: string } | null {
  const name = rest[0];
  if (!name) return null;
  return { name, path: rest.slice(1).join('/') || SKILL_FILE };
}

export function skillRoute(sel: { name: string; path?: string } | null): string[] {
  if (!sel) return [];
  return !sel.path || sel.path === SKILL_FILE ? [sel.name] : [sel.name, sel.path];
}

export interface FileGroup {
  key: keyof SkillView['files'] | 'skill';
  label: string;
  /** Shown under the group title: when the sub-agent reads these files. */
  hint: string;
  files: SkillFileView[];
}

const groupInfo: { key: keyof SkillView['files']; label: string; hint: string }[] = [
  { key: 'templates', label: 'Templates', hint: 'the shape of the output' },
  { key: 'references', label: 'References', hint: 'read when the procedure calls for them' },
  { key: 'scripts', label: 'Scripts', hint: 'run as JSON in, JSON out' },
  { key: 'assets', label: 'Assets', hint: '' },
  { key: 'other', label: 'Other files', hint: '' },
];

/** SKILL.md first, then the non-empty groups in the standard's order. */
export function fileGroups(skill: Pick<SkillView, 'files'>, skillFileBytes?: number): FileGroup[] {
  const out: FileGroup[] = [
    { key: 'skill', label: 'Skill', hint: 'instructions the sub-agent follows', files: [{ path: SKILL_FILE, bytes: skillFileBytes ?? 0 }] },
  ];
  for (const g of groupInfo) if (skill.files[g.key].length > 0) out.push({ ...g, files: skill.files[g.key] });
  return out;
}

/** The name shown in the tree: the path inside its group folder (`references/a/b.md` → `a/b.md`). */
export function fileLabel(path: string): string {
  const i = path.indexOf('/');
  return i < 0 ? path : path.slice(i + 1);
}

/** Monaco's language id for a skill file (only the languages the viewer loads). */
export function languageFor(path: string): string {
  const ext = path.toLowerCase().split('.').pop() ?? '';
  if (ext === 'md' || ext === 'markdown') return 'markdown';
  if (ext === 'mjs' || ext === 'js' || ext === 'cjs') return 'javascript';
  if (ext === 'ts' || ext === 'mts') return 'typescript';
  if (ext === 'yaml' || ext === 'yml') return 'yaml';
  if (ext === 'json') return 'json';
  if (ext === 'py') return 'python';
  if (ext === 'sh') return 'shell';
  return 'plaintext';
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Case-insensitive match on name, description and allowed tools. */
export function matchesFilter(skill: Pick<SkillView, 'name' | 'description' | 'allowedTools'>, filter: string): boolean {
  const q = filter.trim().toLowerCase();
  if (!q) return true;
  return [skill.name, skill.description, ...skill.allowedTools].some((s) => s.toLowerCase().includes(q));
}

/**
 * The 1-based line of a frontmatter field in a SKILL.md (`name`, `metadata.owner`), so a problem
 * can be shown where it sits. `frontmatter` is line 1; anything not found (or `body`) is null.
 */
export function fieldLine(text: string, field: string): number | null {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (field === 'frontmatter') return 1;
  if (lines[0]?.trim() !== '---') return null;
  let end = lines.findIndex((l, i) => i > 0 && l.trim() === '---');
  if (end < 0) end = lines.length;
  const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const [top, sub] = field.split('.', 2) as [string, string | undefined];
  const at = lines.findIndex((l, i) => i > 0 && i < end && new RegExp(`^${escapeRegExp(top)}\\s*:`).test(l));
  if (at < 0) return null;
  if (!sub) return at + 1;
  const child = lines.findIndex((l, i) => i > at && i < end && new RegExp(`^\\s+${escapeRegExp(sub)}\\s*:`).test(l));
  return child < 0 ? at + 1 : child + 1;
}
