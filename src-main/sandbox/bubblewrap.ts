import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Bubblewrap (`bwrap`, the sandbox Flatpak uses): the one confinement for every program Forge runs
 * on the project's or a skill's behalf — skill scripts and the builder's commands alike. Inside it a
 * program sees the system's programs and libraries read-only, the folders it is given read-only,
 * at most one folder it may write, a private /tmp, no home folder, its own process namespace (the
 * host's processes and their /proc entries do not exist there) and, unless asked for, no network.
 */

/** System folders programs need (mounted read-only when present). */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** From /etc, only what the dynamic linker, interpreters, git and the shell read; never the whole folder (shadow, ssh keys). */
const ETC_FILES = [
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/localtime',
  '/etc/passwd',
  '/etc/group',
  '/etc/nsswitch.conf',
  '/etc/alternatives',
  '/etc/gitconfig',
];
/** What name lookup and TLS need, mounted only when the network is on. */
const NETWORK_ETC = ['/etc/resolv.conf', '/etc/hosts', '/etc/ssl', '/etc/ca-certificates', '/etc/pki', '/etc/host.conf', '/etc/gai.conf'];

export type BubblewrapCheck = { ok: true; bwrap: string } | { ok: false; reason: string };

/** Every executable named `name` on a PATH, in order. */
export function onPath(name: string, searchPath: string): string[] {
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

export function isUnder(p: string, dirs: readonly string[]): boolean {
  return dirs.some((d) => p === d || p.startsWith(d.endsWith('/') ? d : `${d}/`));
}

/**
 * The install prefix of a program found outside the system folders (a Node from nvm, a conda
 * Python): mounted read-only so the program, and the libraries beside it, work in the sandbox.
 * Null when the program lives in the system folders (already mounted) or is not found.
 */
export function programPrefix(name: string, searchPath: string): string | null {
  const found = path.isAbsolute(name) ? [name] : onPath(name, searchPath);
  for (const abs of found) {
    let real: string;
    try {
      real = fs.realpathSync(abs);
    } catch {
      continue;
    }
    if (isUnder(real, SYSTEM_DIRS)) return null;
    // <prefix>/bin/node, <prefix>/lib/node_modules/npm/bin/npm-cli.js: climb to the folder above bin/ or lib/.
    const parts = real.split('/');
    const at = parts.lastIndexOf('bin') > 0 ? parts.lastIndexOf('bin') : parts.lastIndexOf('lib');
    return at > 1 ? parts.slice(0, at).join('/') : path.dirname(path.dirname(real));
  }
  return null;
}

export interface SandboxSpec {
  /** The program (an absolute path inside the sandbox) and its arguments. */
  argv: string[];
  /** The working directory inside the sandbox. */
  chdir: string;
  /** Folders or files mounted read-only at the same path, besides the system's. */
  readOnly?: string[];
  /** The one folder the program may write (mounted at the same path), if any. */
  writable?: string;
  /** Sub-paths of `writable` mounted read-only over it (the project's Forge/ and .git/). Missing ones are skipped. */
  readOnlyInside?: string[];
  /** Keep the host's network (package installs). Default false: a namespace with only a down loopback. */
  network?: boolean;
  /** Folders created (empty, on the private /tmp) before the program starts, e.g. a stand-in home. */
  tmpDirs?: string[];
  /** A cap on processes inside the sandbox (applied with prlimit inside its own user namespace). */
  maxProcesses?: number;
}

/** The bwrap command line: mounts first, then the namespaces, then the program. */
export function sandboxArgs(s: SandboxSpec): string[] {
  const a: string[] = [];
  for (const d of SYSTEM_DIRS) a.push('--ro-bind-try', d, d);
  for (const f of ETC_FILES) a.push('--ro-bind-try', f, f);
  // Debian keeps Python's sitecustomize under /etc/python3.x.
  try {
    for (const e of fs.readdirSync('/etc')) if (/^python3/.test(e)) a.push('--ro-bind-try', `/etc/${e}`, `/etc/${e}`);
  } catch {
    /* no /etc listing: nothing more to mount */
  }
  if (s.network) for (const f of NETWORK_ETC) a.push('--ro-bind-try', f, f);
  a.push('--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  for (const d of s.tmpDirs ?? []) a.push('--dir', d);
  // After the /tmp tmpfs, so a folder under /tmp is mounted over it, not hidden by it.
  for (const d of dedupe(s.readOnly ?? [])) {
    if (!s.writable || !isUnder(d, [s.writable])) a.push('--ro-bind', d, d);
  }
  if (s.writable) {
    a.push('--bind', s.writable, s.writable);
    for (const sub of s.readOnlyInside ?? []) if (isRealDir(sub)) a.push('--ro-bind', sub, sub);
  }
  // The sandbox's own root (where bwrap made the mount points) becomes read-only too: only the binds above are writable.
  a.push('--remount-ro', '/');
  // --unshare-all: user, PID (host processes and their /proc invisible), network, IPC, UTS and cgroup namespaces.
  a.push('--unshare-all');
  if (s.network) a.push('--share-net');
  a.push('--cap-drop', 'ALL', '--die-with-parent', '--new-session', '--chdir', s.chdir, '--');
  const prlimit = s.maxProcesses ? onPath('prlimit', '/usr/bin:/bin')[0] : undefined;
  if (prlimit) a.push(prlimit, `--nproc=${s.maxProcesses}:${s.maxProcesses}`, '--');
  a.push(...s.argv);
  return a;
}

function dedupe(dirs: string[]): string[] {
  return [...new Set(dirs.map((d) => path.resolve(d)))];
}

/** A real folder, not a link (a link inside the project could point the read-only mount elsewhere). */
function isRealDir(p: string): boolean {
  try {
    return fs.lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

const probes = new Map<string, Promise<BubblewrapCheck>>();

/**
 * Whether bubblewrap works here: found, and able to create its namespaces (a container or a kernel
 * without user namespaces can refuse). Checked once per bwrap path by running `true` inside it.
 * `bwrapPath`: where bubblewrap lives (default: `bwrap` on PATH); null means none is installed.
 */
export function checkBubblewrap(bwrapPath?: string | null): Promise<BubblewrapCheck> {
  if (process.platform !== 'linux') {
    return Promise.resolve({ ok: false, reason: `this computer runs ${process.platform}, and the bubblewrap sandbox Forge uses exists only on Linux` });
  }
  const bwrap = bwrapPath === undefined ? (onPath('bwrap', `${process.env.PATH ?? ''}:/usr/bin:/bin`)[0] ?? null) : bwrapPath;
  if (!bwrap || !fs.existsSync(bwrap)) return Promise.resolve({ ok: false, reason: 'bubblewrap (bwrap) is not installed' });
  const cached = probes.get(bwrap);
  if (cached) return cached;
  const probe = new Promise<BubblewrapCheck>((resolve) => {
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
