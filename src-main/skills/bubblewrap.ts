import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { ScriptLanguage } from './script-kinds';

/**
 * The confinement for Python and shell skill scripts: bubblewrap (`bwrap`), the sandbox Flatpak
 * uses. Inside it a script sees the system's programs and libraries read-only, its own skill folder
 * read-only and one empty temporary folder it may write; no home folder, no Forge data, no network
 * (a namespace of its own with nothing but a down loopback), no other processes. Where bubblewrap
 * is missing or cannot start, scripts are refused; they never run unconfined.
 */

/** System folders a script's interpreter needs (mounted read-only when present). */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** From /etc, only what the dynamic linker, Python and the shell read; never the whole folder (shadow, ssh keys). */
const ETC_FILES = [
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/localtime',
  '/etc/passwd',
  '/etc/group',
  '/etc/nsswitch.conf',
  '/etc/alternatives',
];

export type ConfinementCheck = { ok: true; bwrap: string } | { ok: false; reason: string };

/** Every executable named `name` on a PATH, in order. */
function onPath(name: string, searchPath: string): string[] {
  const out: string[] = [];
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    const abs = path.join(dir, name);
    try {
      fs.accessSync(abs, fs.constants.X_OK);
      if (fs.statSync(abs).isFile()) out.push(abs);
    } catch {
      /* not here */
    }
  }
  return out;
}

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

function isUnder(p: string, dirs: string[]): boolean {
  return dirs.some((d) => p === d || p.startsWith(d + '/'));
}

/** The bwrap command line: mounts first, then the namespaces, then the program. */
export function bwrapArgs(o: { skillDir: string; workDir: string; interpreter: Interpreter; script: string; args?: string[] }): string[] {
  const a: string[] = [];
  for (const d of SYSTEM_DIRS) a.push('--ro-bind-try', d, d);
  for (const f of ETC_FILES) a.push('--ro-bind-try', f, f);
  // Debian keeps Python's sitecustomize under /etc/python3.x.
  try {
    for (const e of fs.readdirSync('/etc')) if (/^python3/.test(e)) a.push('--ro-bind-try', `/etc/${e}`, `/etc/${e}`);
  } catch {
    /* no /etc listing: nothing more to mount */
  }
  // An interpreter outside the system folders (conda in /opt, a pyenv version): its whole prefix, read-only.
  if (!isUnder(o.interpreter.path, SYSTEM_DIRS)) {
    const prefix = path.dirname(path.dirname(o.interpreter.path));
    a.push('--ro-bind', prefix, prefix);
  }
  a.push('--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  // After the /tmp tmpfs, so a skill or work folder under /tmp is mounted over it, not hidden by it.
  a.push('--ro-bind', o.skillDir, o.skillDir, '--bind', o.workDir, o.workDir);
  a.push('--unshare-all', '--cap-drop', 'ALL', '--die-with-parent', '--new-session', '--chdir', o.workDir);
  a.push('--', o.interpreter.path, ...o.interpreter.args, o.script, ...(o.args ?? []));
  return a;
}

const probes = new Map<string, Promise<ConfinementCheck>>();

/**
 * Whether bubblewrap works here: found, and able to create its namespaces (a container or a kernel
 * without user namespaces can refuse). Checked once per bwrap path by running `true` inside it.
 * `bwrapPath`: where bubblewrap lives (default: `bwrap` on PATH); null means none is installed.
 */
export function checkConfinement(bwrapPath?: string | null): Promise<ConfinementCheck> {
  if (process.platform !== 'linux') {
    return Promise.resolve({ ok: false, reason: `this computer runs ${process.platform}, and the bubblewrap sandbox Forge uses exists only on Linux` });
  }
  const bwrap = bwrapPath === undefined ? (onPath('bwrap', `${process.env.PATH ?? ''}:/usr/bin:/bin`)[0] ?? null) : bwrapPath;
  if (!bwrap || !fs.existsSync(bwrap)) return Promise.resolve({ ok: false, reason: 'bubblewrap (bwrap) is not installed' });
  const cached = probes.get(bwrap);
  if (cached) return cached;
  const probe = new Promise<ConfinementCheck>((resolve) => {
    const trueBin = onPath('true', '/usr/bin:/bin')[0];
    if (!trueBin) return resolve({ ok: false, reason: 'the system has no /usr/bin/true to test bubblewrap with' });
    const args: string[] = [];
    for (const d of SYSTEM_DIRS) args.push('--ro-bind-try', d, d);
    args.push('--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--unshare-all', '--cap-drop', 'ALL', '--die-with-parent', '--new-session', '--', trueBin);
    let err = '';
    const child = spawn(bwrap, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: '/usr/bin:/bin' } });
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.stderr.on('data', (c: Buffer) => (err = (err + c.toString('utf8')).slice(-500)));
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ ok: false, reason: `bubblewrap could not be started (${e.message})` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve({ ok: true, bwrap });
      else resolve({ ok: false, reason: `bubblewrap is installed but cannot create its sandbox here (${err.trim().split('\n').pop() || `exit ${code}`})` });
    });
  });
  probes.set(bwrap, probe);
  return probe;
}
