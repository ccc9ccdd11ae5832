import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { SkillFileView, SkillView, skillProcedures } from '../../api/skills';
import { MAX_RESOURCE_BYTES, RESOURCE_DIRS, resolveInside, type SkillEntry, type SkillLoader } from '../../skills';
import type { CoreContext } from '../context';
import type { PartialHandlerMap } from './types';

/** The viewer opens files up to the loader's cap (1 MB); larger ones come back as `too_large`. */
export const MAX_SKILL_FILE_BYTES = MAX_RESOURCE_BYTES;
const MAX_FILES_PER_SKILL = 500;

type FileGroups = SkillView['files'];

/**
 * The files of one skill folder, grouped the way the standard names them. Walked here rather than
 * through `load()` because an invalid skill's files must still be shown (load refuses it).
 * Symlinks and dotfiles are skipped, exactly as the loader does.
 */
export function skillFiles(dir: string): FileGroups {
  const groups: FileGroups = { templates: [], references: [], scripts: [], assets: [], other: [] };
  let count = 0;
  const walk = (abs: string, rel: string, into: SkillFileView[]) => {
    let items: fs.Dirent[];
    try {
      items = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const it of items.sort((a, b) => a.name.localeCompare(b.name))) {
      if (it.name.startsWith('.') || count >= MAX_FILES_PER_SKILL) continue;
      const childAbs = path.join(abs, it.name);
      const childRel = rel ? `${rel}/${it.name}` : it.name;
      if (!rel && (it.name === 'SKILL.md' || (RESOURCE_DIRS as readonly string[]).includes(it.name))) continue;
      if (it.isDirectory()) walk(childAbs, childRel, into);
      else if (it.isFile()) {
        count++;
        into.push({ path: childRel, bytes: fs.statSync(childAbs).size });
      }
    }
  };
  for (const sub of RESOURCE_DIRS) walk(path.join(dir, sub), sub, groups[sub]);
  walk(dir, '', groups.other);
  return groups;
}

/** The shape the Skills screen reads: problem files relative to the skill folder, never absolute paths. */
export function toSkillView(entry: SkillEntry): SkillView {
  const relFile = (file: string) => {
    const rel = path.relative(entry.dir, file);
    return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : path.basename(file);
  };
  const problems = entry.problems.map((p) => ({ file: relFile(p.file), field: p.field, severity: p.severity, message: p.message }));
  return {
    name: entry.name,
    description: entry.description,
    allowedTools: entry.allowedTools,
    license: entry.license ?? null,
    compatibility: entry.compatibility ?? null,
    metadata: entry.metadata,
    valid: entry.valid,
    state: !entry.valid ? 'errors' : problems.length > 0 ? 'warnings' : 'valid',
    problems,
    files: skillFiles(entry.dir),
  };
}

type P = typeof skillProcedures;
type SkillHandlerMap = {
  [N in keyof P]: (input: z.output<P[N]['input']>, ctx: CoreContext) => z.output<P[N]['output']> | Promise<z.output<P[N]['output']>>;
};

/** Handlers for skills/list and skills/read over the core's one SkillLoader. */
export function skillsHandlers(getLoader: () => SkillLoader): PartialHandlerMap {
  const handlers: SkillHandlerMap = {
    'skills/list': () => {
      const loader = getLoader();
      return { skills: loader.list().map(toSkillView), mode: loader.mode };
    },
    'skills/read': (input) => {
      const loader = getLoader();
      const rel = input.path.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
      // readResource confines the path to the skill folder (no `..`, no absolute path, no link
      // escape), reports a missing file with the skill's file list, and refuses files over the cap.
      const text = loader.readResource(input.name, rel);
      const entry = loader.find(input.name)!;
      const bytes = fs.statSync(resolveInside(entry.dir, rel)).size;
      // A NUL in the first 8 KB marks a binary file (the test git uses): shown as a note, not as text.
      const binary = text.slice(0, 8192).includes('\0');
      return { name: entry.name, path: rel, bytes, text: binary ? '' : text, binary };
    },
  };
  return handlers as unknown as PartialHandlerMap;
}
