import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadedSkillWithFiles, SkillLoader } from '../skills';

/**
 * Loaded skills, re-read only when one of their files or folders changed on disk. A sub-agent
 * starts with a few stat calls instead of re-reading and re-parsing SKILL.md and every template
 * and reference; an edit (or a file added under templates/ or references/) is still seen at once.
 */
export class SkillCache {
  private readonly cache = new Map<string, { skill: LoadedSkillWithFiles; stamp: string }>();

  constructor(private readonly loader: Pick<SkillLoader, 'loadWithFiles'>) {}

  load(name: string): LoadedSkillWithFiles {
    const hit = this.cache.get(name);
    if (hit && stampOf(hit.skill) === hit.stamp) return hit.skill;
    const skill = this.loader.loadWithFiles(name);
    this.cache.set(name, { skill, stamp: stampOf(skill) });
    return skill;
  }
}

function stampOf(skill: LoadedSkillWithFiles): string {
  const paths = [
    skill.file,
    skill.dir,
    join(skill.dir, 'templates'),
    join(skill.dir, 'references'),
    join(skill.dir, 'scripts'),
    ...skill.resources.filter((r) => r.kind === 'template' || r.kind === 'reference').map((r) => join(skill.dir, r.path)),
  ];
  return paths
    .map((p) => {
      const s = statSync(p, { throwIfNoEntry: false });
      return s ? `${s.mtimeMs}:${s.size}` : '-';
    })
    .join('|');
}
