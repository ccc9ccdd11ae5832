import fs from 'node:fs';
import path from 'node:path';
import { InvalidInputError } from '../common/errors';

/** Resolves `relPath` under `dir`, refusing absolute paths, `..`, NUL bytes and symlinks that leave `dir`. */
export function resolveInside(dir: string, relPath: string): string {
  if (relPath.includes('\0')) throw new InvalidInputError('A skill file path must not contain NUL bytes.');
  const norm = relPath.replace(/\\/g, '/');
  if (path.isAbsolute(norm) || norm.split('/').includes('..')) {
    throw new InvalidInputError(`"${relPath}" points outside the skill folder; use a path like "references/guide.md".`);
  }
  const abs = path.resolve(dir, norm);
  let realDir = dir;
  try {
    realDir = fs.realpathSync(dir);
  } catch {
    /* folder vanished: the stat below reports it */
  }
  let realAbs = abs;
  try {
    realAbs = fs.realpathSync(abs);
  } catch {
    return abs; // does not exist yet; the caller reports not-found
  }
  if (realAbs !== realDir && !realAbs.startsWith(realDir + path.sep)) {
    throw new InvalidInputError(`"${relPath}" leads outside the skill folder through a link; skill files must live inside it.`);
  }
  return realAbs;
}
