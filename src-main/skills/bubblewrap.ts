import fs from 'node:fs';
import path from 'node:path';
import { type BubblewrapCheck, checkBubblewrap, isUnder, onPath, SYSTEM_DIRS, sandboxArgs } from '../sandbox';
import type { ScriptLanguage } from './script-kinds';

/**
 * The confinement for Python and shell skill scripts, on the shared sandbox (src-main/sandbox):
 * a script sees the system's programs and libraries read-only, its own skill folder read-only and
 * one empty temporary folder it may write; no home folder, no Forge data, no network, no other
 * processes. Where bubblewrap is missing or cannot start, scripts are refused; never run unconfined.
 */

export type ConfinementCheck = BubblewrapCheck;

/** Whether bubblewrap works here (see sandbox/bubblewrap.ts); kept under the name skills have always used. */
export const checkConfinement = checkBubblewrap;

/** Processes one skill script may have at once (a runaway loop of forks stops here). */
const MAX_SCRIPT_PROCESSES = 64;

function isWrapperScript(abs: string): boolean {
  try {
    const fd = fs.openSync(abs, 'r');
    try {
      const b = Buffer.alloc(2);
      fs.readSync(fd, b, 0, 2, 0);
      return b.toString('latin1') === '#!';
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return true;
  }
}

export interface Interpreter {
  /** What the PM would recognise: `python3`, `bash`. */
  name: string;
  /** The real file (symlinks resolved), so the sandbox can mount the folder it lives in. */
  path: string;
  args: string[];
}

const CANDIDATES: Record<Exclude<ScriptLanguage, 'node'>, { name: string; args: string[] }[]> = {
  // -B: no .pyc beside the script (its folder is read-only); -E -s: no PYTHON* variables, no user site-packages.
  python: [{ name: 'python3', args: ['-B', '-E', '-s'] }],
  shell: [
    { name: 'bash', args: ['--noprofile', '--norc'] },
    { name: 'sh', args: [] },
  ],
};

/**
 * The interpreter on PATH for a language, or null. Wrapper scripts (pyenv and asdf shims) are
 * skipped: they need the home folder the sandbox hides, so the next real binary on PATH is used.
 */
export function findInterpreter(language: Exclude<ScriptLanguage, 'node'>, searchPath = process.env.PATH ?? ''): Interpreter | null {
  const fallback = '/usr/local/bin:/usr/bin:/bin';
  for (const c of CANDIDATES[language]) {
    for (const abs of [...onPath(c.name, searchPath), ...onPath(c.name, fallback)]) {
      if (isWrapperScript(abs)) continue;
      return { name: c.name, path: fs.realpathSync(abs), args: c.args };
    }
  }
  return null;
}

/** What a language's interpreter is called, for messages. */
export function interpreterName(language: Exclude<ScriptLanguage, 'node'>): string {
  return CANDIDATES[language].map((c) => c.name).join(' or ');
}

/** The bwrap command line for one skill script. */
export function bwrapArgs(o: { skillDir: string; workDir: string; interpreter: Interpreter; script: string; args?: string[] }): string[] {
  // An interpreter outside the system folders (conda in /opt, a pyenv version): its whole prefix, read-only.
  const prefix = isUnder(o.interpreter.path, SYSTEM_DIRS) ? [] : [path.dirname(path.dirname(o.interpreter.path))];
  return sandboxArgs({
    argv: [o.interpreter.path, ...o.interpreter.args, o.script, ...(o.args ?? [])],
    chdir: o.workDir,
    readOnly: [...prefix, o.skillDir],
    writable: o.workDir,
    network: false,
    maxProcesses: MAX_SCRIPT_PROCESSES,
  });
}
