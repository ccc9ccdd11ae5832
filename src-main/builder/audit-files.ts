import { type Dirent, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { looksBinary, MAX_TEXT_FILE_BYTES, SKIPPED_DIRS } from './workspace/walk';

/**
 * The audit's view of a project: its files (without Forge/, version control, dependencies and
 * build output) and the imports of its source files.
 */

/**
 * Folders that are not the builder's product: what the project tools never walk (dependencies, VCS,
 * build output, caches), plus what the audit alone leaves out — Forge's own governance folder, more
 * build output and editor settings, which the builder may still list and open.
 */
const SKIP_DIRS: ReadonlySet<string> = new Set([...SKIPPED_DIRS, 'Forge', 'out', '.nuxt', '.tox', 'target', '.turbo', '.cache', '.idea', '.vscode']);
const LOCK_FILES = new Set(['package-lock.json', 'yarn.lock', 'pnpm-lock.yaml', 'poetry.lock', 'Cargo.lock', 'uv.lock', 'Pipfile.lock', 'bun.lockb']);
const MAX_FILES = 5000;

export interface ProjectFile {
  /** Relative to the project, with forward slashes. */
  path: string;
  text: string;
}

/**
 * The project's text files, sorted by path. Symlinks are not followed (they may point out of the
 * project); binary files (a NUL byte near the start), lock files and files over 1 MB are left out.
 * Synchronous: it runs once per phase on a project of at most a few thousand files, and the
 * sign-off gate that calls it waits for the answer anyway.
 */
export function projectTextFiles(workDir: string): ProjectFile[] {
  const paths: string[] = [];
  const walk = (rel: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(workDir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (paths.length >= MAX_FILES) return;
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) walk(p);
      } else if (e.isFile() && !LOCK_FILES.has(e.name)) paths.push(p);
    }
  };
  walk('');
  const files: ProjectFile[] = [];
  for (const p of paths) {
    const full = join(workDir, p);
    try {
      if (statSync(full).size > MAX_TEXT_FILE_BYTES) continue;
      const buf = readFileSync(full);
      if (looksBinary(buf)) continue;
      files.push({ path: p, text: buf.toString('utf8') });
    } catch {
      // Vanished or unreadable between listing and reading: nothing to audit in it.
    }
  }
  return files;
}

export interface ImportRef {
  /** As written: "../repos/db", "fastapi". */
  specifier: string;
  line: number;
  /** Python: the names a `from X import a, b` brings in (matched as "X.a" and "a" too). */
  names: string[];
}

const SCRIPT = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

export const isSourceFile = (path: string) => SCRIPT.test(path) || path.endsWith('.py');

export function importsOf(path: string, text: string): ImportRef[] {
  if (SCRIPT.test(path)) return scriptImports(text);
  if (path.endsWith('.py')) return pythonImports(text);
  return [];
}

/** TS/JS imports, exports-from, require() and import() through the compiler's own pre-processor. */
function scriptImports(text: string): ImportRef[] {
  const info = ts.preProcessFile(text, true, true);
  const starts = lineStarts(text);
  return info.importedFiles.map((f) => ({ specifier: f.fileName, line: lineAt(starts, f.pos), names: [] }));
}

function pythonImports(text: string): ImportRef[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: ImportRef[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/#.*$/, '');
    const from = /^\s*from\s+(\.*[\w.]*)\s+import\s+(.+)$/.exec(line);
    if (from) {
      let names = from[2]!;
      // from x import (a,\n b) spans lines up to the closing bracket.
      for (let j = i + 1; names.includes('(') && !names.includes(')') && j < lines.length; j++) names += ` ${lines[j]!.replace(/#.*$/, '')}`;
      const list = names
        .replace(/[()\\]/g, ' ')
        .split(',')
        .map((n) =>
          n
            .trim()
            .split(/\s+as\s+/)[0]!
            .trim(),
        )
        .filter((n) => /^[\w*]+$/.test(n));
      out.push({ specifier: from[1]!, line: i + 1, names: list });
      continue;
    }
    const plain = /^\s*import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)\s*$/.exec(line);
    if (plain) {
      for (const part of plain[1]!.split(','))
        out.push({
          specifier: part
            .trim()
            .split(/\s+as\s+/)[0]!
            .trim(),
          line: i + 1,
          names: [],
        });
    }
  }
  return out;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function lineAt(starts: number[], pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/**
 * Where an import points inside the project, as a project-relative path without extension, or
 * null for a package. Relative TS/JS specifiers resolve from the importing file; Python relative
 * imports (`.x`, `..x`) from its package; absolute Python modules ("app.repos.x") map to paths.
 */
export function importTarget(fromPath: string, ref: ImportRef, isPython: boolean): string | null {
  const dir = posix.dirname(fromPath);
  if (!isPython) {
    if (!ref.specifier.startsWith('.')) return null;
    return posix.normalize(posix.join(dir, ref.specifier)).replace(SCRIPT, '');
  }
  const dots = /^\.*/.exec(ref.specifier)![0].length;
  const mod = ref.specifier.slice(dots).replace(/\./g, '/');
  if (dots === 0) return mod;
  let base = dir;
  for (let k = 1; k < dots; k++) base = posix.dirname(base);
  return posix.normalize(posix.join(base, mod));
}

/** A contract's path glob as a matcher: `*` within a folder, `**` across folders, `{a,b}`, `?`; a plain path also matches everything under it. */
export function globMatcher(glob: string): (path: string) => boolean {
  let g = glob.trim().replace(/\\/g, '/').replace(/^\.\//, '');
  if (g.endsWith('/')) g += '**';
  const esc = (s: string) => s.replace(/[.+^$()|[\]\\]/g, '\\$&');
  if (!/[*?{]/.test(g)) {
    const exact = new RegExp(`^${esc(g)}(?:/.*)?$`);
    return (p) => exact.test(p);
  }
  let re = '';
  for (let i = 0; i < g.length; i++) {
    const c = g[i]!;
    if (c === '*' && g[i + 1] === '*') {
      i++;
      if (g[i + 1] === '/') {
        i++;
        re += '(?:.*/)?';
      } else re += '.*';
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{' && g.indexOf('}', i) > i) {
      const end = g.indexOf('}', i);
      re += `(?:${g
        .slice(i + 1, end)
        .split(',')
        .map(esc)
        .join('|')})`;
      i = end;
    } else re += esc(c);
  }
  const rx = new RegExp(`^${re}$`);
  return (p) => rx.test(p);
}
