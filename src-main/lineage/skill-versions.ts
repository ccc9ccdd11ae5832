import { SkillVersionStore } from '../evolution';
import type { SkillVersionLookup } from './session-steps';

/**
 * Names the version a sub-agent's SKILL.md hash was, from the skill's own version history
 * (evolution/versions.ts). `dirOf` finds the skill's folder (the loader knows); a skill with no
 * history has only ever had the text it shipped with.
 */
export function skillVersionLookup(dirOf: (skill: string) => string | null): SkillVersionLookup {
  return (skill, hash) => {
    const dir = dirOf(skill);
    if (!dir) return undefined;
    const versions = new SkillVersionStore(dir).list('SKILL.md');
    if (!versions.length) return 'no-history';
    const v = versions.find((x) => x.hash === hash);
    return v ? { version: v.version, createdAt: v.createdAt, by: v.by } : null;
  };
}
