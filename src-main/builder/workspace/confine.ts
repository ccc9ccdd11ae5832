import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../common/errors';

/**
 * Every project tool works inside the build's working directory and nowhere else. Paths arrive
 * from the model, so each one is resolved to a real path and checked here, once, before any read
 * or write touches the disk.
 */

export type PathRefusal = 'nul' | 'absolute' | 'escape' | 'symlink' | 'read_only' | 'root';

/** A path the builder may not use; the message says what to do instead. */
export class WorkspacePathError extends AppError {
  readonly reason: PathRefusal;

  constructor(reason: PathRefusal, message: string) {
    super(reason === 'root' ? 'invalid_input' : 'forbidden', message);
    this.name = 'WorkspacePathError';
    this.reason = reason;
  }
}

/** Top-level folders the builder reads but never writes (compared case-insensitively). */
const READ_ONLY_TOPS: Record<string, string> = {
  forge:
    'Forge/ holds the governance contracts and the scratchpad and is read-only to the builder: read contracts with the forge tools, keep notes with forge_scratchpad, and write project files elsewhere.',
  '.git': '.git/ is read-only to the builder: change the repository with run_command and git.',
};

/** The root's real path; a missing root is a fault of the build, not of the model. */
export function realRoot(workDir: string): string {
  try {
    return fs.realpathSync(workDir);
  } catch (e) {
    throw new AppError('not_found', `The build's working directory ${workDir} does not exist any more.`, { cause: e });
  }
}

/** `abs` lies at or under `root` (both real, absolute). */
export function isInside(root: string, abs: string): boolean {
  return abs === root || abs.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** The project-relative spelling of an absolute path under the root, with forward slashes. */
export function relativeName(root: string, abs: string): string {
  const rel = path.relative(root, abs);
  return rel === '' ? '.' : rel.split(path.sep).join('/');
}

/**
 * Resolves a model-given path to an absolute real path inside `workDir`. Refuses NUL bytes,
 * absolute paths, `..` that climbs above the root, symlinks whose real target lies outside, and —
 * for writes — the root itself and anything under Forge/ or .git/.
 */
export function resolveInside(workDir: string, given: string, opts: { write: boolean }): string {
  const root = realRoot(workDir);
  if (given.includes('\0')) throw new WorkspacePathError('nul', 'A path must not contain NUL bytes; give a plain relative path such as "src/index.ts".');
  const spelled = process.platform === 'win32' ? given.replace(/\\/g, '/') : given;
  if (path.isAbsolute(spelled) || /^[A-Za-z]:/.test(spelled) || spelled === '~' || spelled.startsWith('~/')) {
    throw new WorkspacePathError(
      'absolute',
      `"${clip(given)}" is an absolute path. Project tools work inside the project folder only; give a path relative to its root, such as "src/index.ts".`,
    );
  }
  const segments: string[] = [];
  for (const seg of spelled.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (segments.length === 0) {
        throw new WorkspacePathError('escape', `"${clip(given)}" climbs out of the project folder with "..". Use a path inside it, relative to its root.`);
      }
      segments.pop();
    } else segments.push(seg);
  }
  if (opts.write) refuseReadOnly(segments[0], given);
  const real = realOf(root, path.join(root, ...segments), given);
  if (opts.write) {
    if (real === root) throw new WorkspacePathError('root', 'That names the project folder itself; give a file path such as "src/index.ts".');
    // A link inside the root may still lead into Forge/ or .git/: check where the write really lands.
    refuseReadOnly(relativeName(root, real).split('/')[0], given);
  }
  return real;
}

function refuseReadOnly(top: string | undefined, given: string): void {
  const why = top ? READ_ONLY_TOPS[top.toLowerCase()] : undefined;
  if (why) throw new WorkspacePathError('read_only', `"${clip(given)}" cannot be written. ${why}`);
}

/**
 * The real path of `abs`. For a path that does not exist yet, the real path of its deepest
 * existing ancestor decides (a new file under a linked folder lands where the link points).
 */
function realOf(root: string, abs: string, given: string): string {
  const tail: string[] = [];
  let probe = abs;
  for (;;) {
    let real: string | null = null;
    try {
      real = fs.realpathSync(probe);
    } catch {
      real = null;
    }
    if (real !== null) {
      if (!isInside(root, real)) throw outsideLink(given);
      return tail.length ? path.join(real, ...tail.reverse()) : real;
    }
    // Missing, or a dangling link: a link that would create its target outside the root is refused.
    const target = danglingTarget(probe);
    if (target !== null && !isInside(root, target)) throw outsideLink(given);
    const parent = path.dirname(probe);
    if (parent === probe) throw outsideLink(given);
    tail.push(path.basename(probe));
    probe = parent;
  }
}

function danglingTarget(p: string): string | null {
  try {
    if (!fs.lstatSync(p).isSymbolicLink()) return null;
    return path.resolve(path.dirname(p), fs.readlinkSync(p));
  } catch {
    return null;
  }
}

function outsideLink(given: string): WorkspacePathError {
  return new WorkspacePathError(
    'symlink',
    `"${clip(given)}" goes through a symbolic link to a place outside the project folder. Work with files inside the project instead.`,
  );
}

function clip(s: string): string {
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}
