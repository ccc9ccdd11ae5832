import fs from 'node:fs';
import path from 'node:path';

/**
 * What counts as a program in a skill's `scripts/` folder, and which interpreter runs it.
 * Published skills keep READMEs, sample data and helper modules next to their scripts; only
 * programs are listed as scripts, so the sub-agent is never told to "run" a CSV.
 */

/** The languages Forge can run. `node` is an ES module run by Node's permission model; the rest run in bubblewrap. */
export type ScriptLanguage = 'node' | 'python' | 'shell';

/** Program files by extension (lower case, with the dot). Only some of them can be run by Forge. */
const PROGRAM_EXTENSIONS: Record<string, ScriptLanguage | null> = {
  '.mjs': 'node',
  '.py': 'python',
  '.sh': 'shell',
  '.bash': 'shell',
  // Programs Forge lists but does not run: a `.js` file's module type depends on package.json files
  // outside the folder the sandbox lets the script read, and TypeScript needs a compiler.
  '.js': null,
  '.cjs': null,
  '.ts': null,
  '.mts': null,
};

/** Extensions that are never programs, so their first bytes need not be read to look for a `#!`. */
const DATA_EXTENSIONS = new Set([
  '.md',
  '.markdown',
  '.txt',
  '.rst',
  '.json',
  '.yaml',
  '.yml',
  '.csv',
  '.tsv',
  '.xml',
  '.html',
  '.css',
  '.png',
  '.jpg',
  '.jpeg',
  '.gif',
  '.svg',
  '.pdf',
  '.toml',
  '.ini',
  '.cfg',
  '.lock',
  '.pyc',
]);

/** The interpreter a `#!` line names (`#!/usr/bin/env python3`, `#!/bin/bash -e`), as a language. */
export function languageOfShebang(line: string): ScriptLanguage | null | undefined {
  const m = /^#!\s*(\S+)(?:\s+(.*))?$/.exec(line.trim());
  if (!m) return undefined;
  let program = path.posix.basename(m[1]!);
  if (program === 'env') program = (m[2] ?? '').split(/\s+/).find((a) => a && !a.startsWith('-') && !a.includes('=')) ?? '';
  if (/^python(3(\.\d+)?)?$/.test(program)) return 'python';
  if (program === 'sh' || program === 'bash' || program === 'dash') return 'shell';
  return null; // a program, in a language Forge does not run (node without .mjs, ruby, perl, ...)
}

/**
 * Reads at most the first 128 bytes of a file: the only content the listing ever reads, and only for
 * files in `scripts/` whose name does not already say what they are.
 */
export function readShebang(abs: string): string | null {
  let fd: number | null = null;
  try {
    fd = fs.openSync(abs, 'r');
    const buf = Buffer.alloc(128);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const head = buf.subarray(0, n).toString('utf8');
    return head.startsWith('#!') ? head.split('\n')[0]! : null;
  } catch {
    return null;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

/**
 * Is this file (in `scripts/`) a program? By extension, else by a `#!` first line. `firstLine` is
 * consulted lazily so data files and known programs are never opened.
 */
export function isProgram(name: string, firstLine: () => string | null): boolean {
  const ext = path.extname(name).toLowerCase();
  if (ext in PROGRAM_EXTENSIONS) return true;
  if (DATA_EXTENSIONS.has(ext)) return false;
  const line = firstLine();
  return line !== null && languageOfShebang(line) !== undefined;
}

/**
 * The language Forge runs a script in, or null when it cannot run it. The extension decides; a file
 * without a known extension is run by what its `#!` line names.
 */
export function scriptLanguage(abs: string): ScriptLanguage | null {
  const ext = path.extname(abs).toLowerCase();
  if (ext in PROGRAM_EXTENSIONS) return PROGRAM_EXTENSIONS[ext]!;
  if (DATA_EXTENSIONS.has(ext)) return null;
  const line = readShebang(abs);
  return line ? (languageOfShebang(line) ?? null) : null;
}

/** Python and shell scripts run only when the PM allowed the skill to; `.mjs` stays allowed as before. */
export function needsScriptPermission(language: ScriptLanguage | null): boolean {
  return language === 'python' || language === 'shell';
}
