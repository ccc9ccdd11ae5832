import fs from 'node:fs';
import path from 'node:path';
import { isProgram, readShebang } from './script-kinds';

/**
 * The files of a skill folder, each with the kind a sub-agent treats it as. Published skills are
 * laid out freely (Anthropic's keep `reference/`, loose `forms.md` beside SKILL.md, `ooxml/`
 * helpers), so the kind comes from where a file sits, never from a fixed list of folders:
 *   templates/              template   (Forge's own: the shape of the sub-agent's answer)
 *   reference/, references/ reference
 *   <top-level>.md          reference  (SKILL.md aside)
 *   scripts/                script     when it is a program (by extension or `#!`), else asset
 *   any other folder        asset
 *   any other top file      other      (LICENSE.txt)
 * Listing reads names and sizes only; the one exception is the first line of an unnamed file in
 * scripts/, to see whether it starts with `#!`.
 */

export type SkillResourceKind = 'template' | 'reference' | 'script' | 'asset' | 'other';

/** Folders with a meaning of their own; every other folder holds assets. */
export const RESOURCE_DIRS = ['templates', 'reference', 'references', 'scripts', 'assets'] as const;

export interface SkillResource {
  /** Path relative to the skill folder, always with `/` (e.g. `references/calibration.md`). */
  path: string;
  kind: SkillResourceKind;
  bytes: number;
}

const MAX_RESOURCES_PER_SKILL = 500;
const KIND_ORDER: SkillResourceKind[] = ['template', 'reference', 'script', 'asset', 'other'];

function kindOfFolder(top: string): SkillResourceKind {
  if (top === 'templates') return 'template';
  if (top === 'reference' || top === 'references') return 'reference';
  if (top === 'scripts') return 'script';
  return 'asset';
}

/**
 * Every file of a skill folder (SKILL.md aside), with its kind, templates first, then references,
 * scripts, assets and other files. Dotfiles and symlinks are skipped, and at most 500 are listed.
 * Exported because the Skills screen must show the files of an invalid skill too, which load() refuses.
 */
export function listSkillFiles(dir: string): SkillResource[] {
  const out: SkillResource[] = [];
  const walk = (abs: string, rel: string, folderKind: SkillResourceKind | null) => {
    let items: fs.Dirent[];
    try {
      items = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const it of items.sort((a, b) => a.name.localeCompare(b.name))) {
      if (it.name.startsWith('.') || out.length >= MAX_RESOURCES_PER_SKILL) continue;
      const childAbs = path.join(abs, it.name);
      const childRel = rel ? `${rel}/${it.name}` : it.name;
      if (it.isDirectory()) {
        walk(childAbs, childRel, folderKind ?? kindOfFolder(it.name));
        continue;
      }
      if (!it.isFile() || (!rel && it.name === 'SKILL.md')) continue;
      let kind: SkillResourceKind;
      if (folderKind === null) kind = /\.md$/i.test(it.name) ? 'reference' : 'other';
      else if (folderKind === 'script') kind = isProgram(it.name, () => readShebang(childAbs)) ? 'script' : 'asset';
      else kind = folderKind;
      out.push({ path: childRel, kind, bytes: fs.statSync(childAbs).size });
    }
  };
  walk(dir, '', null);
  const rank = (r: SkillResource) => KIND_ORDER.indexOf(r.kind);
  return out
    .map((r, i) => ({ r, i }))
    .sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i)
    .map(({ r }) => r);
}
