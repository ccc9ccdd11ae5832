import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { SkillView, skillProcedures } from '../../api/skills';
import {
  listSkillFiles,
  MAX_RESOURCE_BYTES,
  needsScriptPermission,
  resolveInside,
  scriptLanguage,
  type SkillEntry,
  type SkillLoader,
  type SkillResourceKind,
} from '../../skills';
import { NotFoundError } from '../../common/errors';
import type { CoreContext } from '../context';
import { settingsViewOf } from './settings';
import type { PartialHandlerMap } from './types';

/** The viewer opens files up to the loader's cap (1 MB); larger ones come back as `too_large`. */
export const MAX_SKILL_FILE_BYTES = MAX_RESOURCE_BYTES;

type FileGroups = SkillView['files'];

const GROUP_OF: Record<SkillResourceKind, keyof FileGroups> = {
  template: 'templates',
  reference: 'references',
  script: 'scripts',
  asset: 'assets',
  other: 'other',
};

/** The files of one skill folder, grouped the way the standard names them (invalid skills included). */
export function skillFiles(dir: string): FileGroups {
  return groupFiles(listSkillFiles(dir));
}

function groupFiles(files: ReturnType<typeof listSkillFiles>): FileGroups {
  const groups: FileGroups = { templates: [], references: [], scripts: [], assets: [], other: [] };
  for (const r of files) groups[GROUP_OF[r.kind]].push({ path: r.path, bytes: r.bytes });
  return groups;
}

/** The shape the Skills screen reads: problem files relative to the skill folder, never absolute paths. */
export function toSkillView(entry: SkillEntry, scriptsAllowed = false): SkillView {
  const relFile = (file: string) => {
    const rel = path.relative(entry.dir, file);
    return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : path.basename(file);
  };
  const problems = entry.problems.map((p) => ({ file: relFile(p.file), field: p.field, severity: p.severity, message: p.message }));
  const files = listSkillFiles(entry.dir);
  const hasGatedScripts = files.some((f) => f.kind === 'script' && needsScriptPermission(scriptLanguage(path.join(entry.dir, f.path))));
  return {
    name: entry.name,
    description: entry.description,
    allowedTools: entry.allowedTools,
    license: entry.license ?? null,
    compatibility: entry.compatibility ?? null,
    metadata: entry.metadata,
    valid: entry.valid,
    state: !entry.valid ? 'errors' : problems.length > 0 ? 'warnings' : 'valid',
    scriptPermission: !hasGatedScripts ? 'none' : scriptsAllowed ? 'allowed' : 'not-allowed',
    problems,
    files: groupFiles(files),
  };
}

type P = typeof skillProcedures;
type SkillHandlerMap = {
  [N in keyof P]: (input: z.output<P[N]['input']>, ctx: CoreContext) => z.output<P[N]['output']> | Promise<z.output<P[N]['output']>>;
};

/** Handlers for skills/list, skills/read and skills/allow-scripts over the core's one SkillLoader. */
export function skillsHandlers(getLoader: () => SkillLoader): PartialHandlerMap {
  const handlers: SkillHandlerMap = {
    'skills/list': () => {
      const loader = getLoader();
      return { skills: loader.list().map((e) => toSkillView(e, loader.scriptsAllowed(e.name))), mode: loader.mode };
    },
    'skills/allow-scripts': (input, ctx) => {
      const loader = getLoader();
      const entry = loader.find(input.name);
      if (!entry)
        throw new NotFoundError(
          `There is no skill named "${input.name}". Installed skills: ${
            loader
              .list()
              .map((e) => e.name)
              .join(', ') || 'none'
          }.`,
        );
      // Kept by folder name: the key the loader finds the skill under, whatever its frontmatter says.
      const before = ctx.settings.get().allowedSkillScripts ?? [];
      const after = input.allow ? [...new Set([...before, entry.name])].sort() : before.filter((n) => n !== entry.name);
      ctx.settings.update({ allowedSkillScripts: after });
      ctx.events.emit('settings/changed', settingsViewOf(ctx));
      ctx.events.emit('skills/changed', {});
      return toSkillView(entry, loader.scriptsAllowed(entry.name));
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
