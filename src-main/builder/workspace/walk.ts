import type { Dirent } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

/**
 * What the project tools walk and what they skip. Dependencies, build output, caches and VCS
 * internals are never the builder's own work, and listing them would flood its context.
 */

export const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  'node_modules',
  '.git',
  'dist',
  'build',
  '.venv',
  'venv',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.next',
  'coverage',
]);

/** Files larger than this are not read, searched or line-counted (1 MB). */
export const MAX_TEXT_FILE_BYTES = 1024 * 1024;

/** A NUL byte in the first 8 KB: the heuristic git and ripgrep use for "binary". */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8000);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

export interface WalkedFile {
  /** Forward-slash path relative to the root. */
  rel: string;
  abs: string;
}

/**
 * Every regular file under the root, depth first, folders before files, skipping SKIPPED_DIRS (and Forge/ at the
 * root when asked). Symbolic links are not followed: one could lead outside the project.
 */
export async function* walkFiles(root: string, opts: { skipForge?: boolean } = {}): AsyncGenerator<WalkedFile> {
  yield* walkDir(root, root, opts.skipForge ?? false);
}

async function* walkDir(root: string, dir: string, skipForge: boolean): AsyncGenerator<WalkedFile> {
  for (const e of await readDirSorted(dir)) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (SKIPPED_DIRS.has(e.name)) continue;
      if (skipForge && dir === root && e.name.toLowerCase() === 'forge') continue;
      yield* walkDir(root, abs, skipForge);
    } else if (e.isFile()) {
      yield { rel: path.relative(root, abs).split(path.sep).join('/'), abs };
    }
  }
}

/** Folders first, then files, each alphabetically; an unreadable folder reads as empty. */
export async function readDirSorted(dir: string): Promise<Dirent[]> {
  let entries: Dirent[];
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * A glob as a RegExp over forward-slash relative paths: `**` spans folders, `*` and `?` stay
 * within one name, `{a,b}` alternates, `[...]` is a character class. A glob without a slash
 * matches the file name anywhere (`*.ts`), as ripgrep and .gitignore read it.
 */
export function globToRegExp(glob: string): RegExp {
  let g = glob.trim().replace(/^\.\//, '');
  if (!g.includes('/')) g = `**/${g}`;
  let out = '';
  let braces = 0;
  for (let i = 0; i < g.length; i++) {
    const c = g[i];
    if (c === '*') {
      if (g[i + 1] === '*') {
        const slashAfter = g[i + 2] === '/';
        out += slashAfter ? '(?:.*/)?' : '.*';
        i += slashAfter ? 2 : 1;
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) out += '|';
    else if (c === '[') {
      const close = g.indexOf(']', i + 2);
      if (close === -1) out += '\\[';
      else {
        const body = g
          .slice(i + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        out += `[${body}]`;
        i = close;
      }
    } else out += c.replace(/[.+^$()|\\\]]/g, '\\$&');
  }
  return new RegExp(`^${out}${')'.repeat(braces)}$`);
}
