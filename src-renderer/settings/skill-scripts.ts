import type { SkillView } from '../../src-main/api/skills';

/**
 * Settings → Skills: one row per installed skill. Only skills with Python or shell scripts get an
 * "Allow scripts" switch; the rest say why they need none. Pure, tested without a DOM.
 */
export interface SkillScriptRow {
  name: string;
  description: string;
  /** The switch's state, or null when the skill has no Python or shell scripts. */
  allowed: boolean | null;
  /** The scripts the switch governs (`summarize.py`, `word_count.sh`). */
  scripts: string[];
  /** Under the name: what the switch means for this skill. */
  note: string;
}

const GATED = /\.(py|sh|bash)$/i;

export function skillScriptRows(skills: readonly SkillView[]): SkillScriptRow[] {
  const rows = skills.map((s): SkillScriptRow => {
    const scripts = s.files.scripts.map((f) => f.path.replace(/^scripts\//, ''));
    if (s.scriptPermission === 'none') {
      const note = scripts.length ? 'Its scripts are Node modules, which always run in Node’s own sandbox.' : 'No scripts.';
      return { name: s.name, description: s.description, allowed: null, scripts, note };
    }
    const gated = scripts.filter((p) => GATED.test(p) || !p.includes('.'));
    const allowed = s.scriptPermission === 'allowed';
    const note = allowed
      ? 'May run its Python and shell scripts, sandboxed: no network, writes only to a scratch folder.'
      : 'Its Python and shell scripts are refused until you allow them.';
    return { name: s.name, description: s.description, allowed, scripts: gated, note };
  });
  // Skills with a decision to make first, then the rest, each by name.
  return rows.sort((a, b) => Number(a.allowed === null) - Number(b.allowed === null) || a.name.localeCompare(b.name));
}
