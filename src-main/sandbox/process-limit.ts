import fs from 'node:fs';
import path from 'node:path';

/**
 * A cap on how many processes one run may have at once, so a fork bomb in a project's tests stops
 * at the cap instead of taking the computer down. Two mechanisms, because neither works everywhere:
 *  - prlimit's RLIMIT_NPROC inside the sandbox's own user namespace (sandboxArgs' `maxProcesses`).
 *    The kernel ignores it for root, so it alone does not bound Forge running as root;
 *  - a `pids` control group, where one is writable (root; a systemd-delegated user slice): the
 *    run is placed in it before its program starts, and `pids.events` says whether the cap was hit.
 */

let counter = 0;

export interface ProcessGroupLimit {
  /** The command to run instead: a tiny sh wrapper that joins the group, then execs the real command. */
  wrap(command: string, args: string[]): { command: string; args: string[] };
  /** Whether a fork was refused because the cap was reached. */
  hit(): boolean;
  /** Removes the group (after the run's processes are gone). */
  dispose(): Promise<void>;
}

function ownCgroupDirs(): string[] {
  let lines: string[] = [];
  try {
    lines = fs.readFileSync('/proc/self/cgroup', 'utf8').split('\n');
  } catch {
    return [];
  }
  const dirs: string[] = [];
  for (const line of lines) {
    const [, controllers, rel] = line.split(':');
    if (rel === undefined) continue;
    // cgroup v1 pids hierarchy, then a v2 unified one (its own folder or the unified mount point).
    if (controllers.split(',').includes('pids')) dirs.push(path.join('/sys/fs/cgroup/pids', rel));
    if (controllers === '') {
      dirs.push(path.join('/sys/fs/cgroup', rel));
      dirs.push(path.join('/sys/fs/cgroup/unified', rel));
    }
  }
  return dirs;
}

/** A fresh pids group capped at `max`, or null when no writable pids controller exists here. */
export function createProcessGroupLimit(max: number): ProcessGroupLimit | null {
  if (process.platform !== 'linux') return null;
  const sh = ['/bin/sh', '/usr/bin/sh'].find((p) => fs.existsSync(p));
  if (!sh) return null;
  for (const parent of ownCgroupDirs()) {
    const dir = path.join(parent, `forge-run-${process.pid}-${++counter}`);
    try {
      fs.mkdirSync(dir);
    } catch {
      continue;
    }
    try {
      fs.writeFileSync(path.join(dir, 'pids.max'), String(max));
    } catch {
      void rmGroup(dir);
      continue;
    }
    const procs = path.join(dir, 'cgroup.procs');
    return {
      wrap: (command, args) => ({ command: sh, args: ['-c', 'echo $$ > "$0" && exec "$@"', procs, command, ...args] }),
      hit: () => {
        try {
          const m = /^max (\d+)/m.exec(fs.readFileSync(path.join(dir, 'pids.events'), 'utf8'));
          return !!m && Number(m[1]) > 0;
        } catch {
          return false;
        }
      },
      dispose: () => rmGroup(dir),
    };
  }
  return null;
}

async function rmGroup(dir: string): Promise<void> {
  // A group can be removed only once empty; the run's processes are being reaped, so retry a while.
  for (let i = 0; i < 100; i++) {
    try {
      fs.rmdirSync(dir);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
