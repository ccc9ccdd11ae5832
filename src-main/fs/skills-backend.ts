import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { InvalidInputError, NotFoundError } from '../common/errors';
import { writeFileAtomic } from '../common/atomic-file';
import type { DirEntry } from './types';

/**
 * The workspace copy of the skills folder, on disk. Paths are resolved inside the folder and
 * checked again after following symlinks, so nothing outside it can be read or written.
 */
export class SkillsBackend {
  constructor(readonly root: string) {
    mkdirSync(root, { recursive: true });
  }

  private resolve(rel: string): string {
    const full = join(this.root, rel);
    const rootReal = realpathSync(this.root);
    let probe = full;
    while (!existsSync(probe)) probe = dirname(probe);
    const real = realpathSync(probe);
    const back = relative(rootReal, real);
    if (back.startsWith('..') || back.startsWith(sep)) {
      throw new InvalidInputError(`The path /skills/${rel} points outside the skills folder; use a path inside /skills/.`);
    }
    return full;
  }

  exists(rel: string): boolean {
    return existsSync(this.resolve(rel));
  }

  isDir(rel: string): boolean {
    const full = this.resolve(rel);
    return existsSync(full) && statSync(full).isDirectory();
  }

  read(rel: string): string {
    const full = this.resolve(rel);
    if (!existsSync(full) || statSync(full).isDirectory()) throw new NotFoundError(`There is no skill file /skills/${rel}; list /skills/ to see what exists.`);
    return readFileSync(full, 'utf8');
  }

  write(rel: string, content: string): { created: boolean } {
    if (!rel) throw new InvalidInputError('Write to a file inside /skills/, e.g. /skills/view_validation/SKILL.md.');
    const full = this.resolve(rel);
    const created = !existsSync(full);
    mkdirSync(dirname(full), { recursive: true });
    writeFileAtomic(full, content, 0o644);
    return { created };
  }

  list(rel: string): DirEntry[] {
    const full = this.resolve(rel);
    if (!existsSync(full) || !statSync(full).isDirectory()) throw new NotFoundError(`There is no skills folder /skills/${rel}.`);
    const base = rel ? `/skills/${rel.replace(/\/$/, '')}/` : '/skills/';
    return readdirSync(full, { withFileTypes: true })
      .filter((d) => !d.name.startsWith('.'))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((d) => {
        const isDir = d.isDirectory();
        const st = statSync(join(full, d.name));
        return {
          name: isDir ? `${d.name}/` : d.name,
          path: base + d.name + (isDir ? '/' : ''),
          isDir,
          id: null,
          title: '',
          meta: '',
          status: null,
          updatedAt: st.mtime.toISOString(),
        };
      });
  }
}

/**
 * Copies bundled skills into the workspace: on first start all of them, later only skill folders
 * the workspace does not have yet — the PM's (and approved proposals') edits are never overwritten.
 */
export function syncBundledSkills(bundledDir: string, workspaceDir: string): string[] {
  mkdirSync(workspaceDir, { recursive: true });
  if (!existsSync(bundledDir)) return [];
  const added: string[] = [];
  for (const d of readdirSync(bundledDir, { withFileTypes: true })) {
    if (!d.isDirectory() || d.name.startsWith('.')) continue;
    const target = join(workspaceDir, d.name);
    if (existsSync(target)) continue;
    cpSync(join(bundledDir, d.name), target, { recursive: true });
    added.push(d.name);
  }
  return added;
}
