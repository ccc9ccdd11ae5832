import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { ConflictError } from './errors';

/**
 * A lock between processes for a read-modify-write of one small file: `<file>.lock` created
 * with O_EXCL (only one creator wins). A lock left by a process that crashed is taken over once
 * it is older than `staleMs`, or at once when its process is known to be gone.
 */

export interface FileLockOptions {
  /** A lock older than this is a crashed holder's (default 10 s; holders need milliseconds). */
  staleMs?: number;
  /** Give up after this long (default 5 s). */
  timeoutMs?: number;
  /** What the lock protects, for the error message. */
  what?: string;
}

interface LockOwner {
  pid: number;
  host: string;
  token: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function readOwner(path: string): LockOwner | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockOwner;
  } catch {
    return undefined; // being written, or not ours: judged by age alone
  }
}

function processGone(owner: LockOwner | undefined): boolean {
  if (!owner || owner.host !== hostname() || typeof owner.pid !== 'number') return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function tryCreate(lockPath: string, owner: LockOwner): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx', 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    writeSync(fd, JSON.stringify(owner));
  } finally {
    closeSync(fd);
  }
  return true;
}

function isStale(path: string, staleMs: number): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > staleMs || processGone(readOwner(path));
  } catch {
    return false; // gone meanwhile: nothing to break
  }
}

/**
 * Removes a stale lock without removing a fresh one that replaced it meanwhile: the lock is first
 * renamed aside (atomic), then judged again; a lock that turns out to be fresh is put back.
 */
function breakStale(lockPath: string, staleMs: number): void {
  const aside = `${lockPath}.stale-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return; // already taken over by another waiter
  }
  if (!isStale(aside, staleMs)) {
    try {
      linkSync(aside, lockPath);
    } catch {
      /* a third process holds it now */
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    /* gone */
  }
}

export async function withFileLock<T>(lockPath: string, fn: () => T | Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const staleMs = options.staleMs ?? 10_000;
  const deadline = Date.now() + (options.timeoutMs ?? 5_000);
  const owner: LockOwner = { pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex') };
  mkdirSync(dirname(lockPath), { recursive: true });
  for (let attempt = 0; ; attempt++) {
    if (tryCreate(lockPath, owner)) break;
    if (isStale(lockPath, staleMs)) {
      breakStale(lockPath, staleMs);
      continue;
    }
    const holder = readOwner(lockPath);
    if (Date.now() > deadline) {
      throw new ConflictError(
        `${options.what ?? lockPath} is locked by another process${holder ? ` (pid ${holder.pid})` : ''}; try again in a moment. If no other Forge process is running, delete ${lockPath}.`,
      );
    }
    await sleep(Math.min(50, 2 + attempt) + Math.random() * 5);
  }
  try {
    return await fn();
  } finally {
    // Only our own lock is removed: a lock broken as stale and re-created by another is theirs.
    if (readOwner(lockPath)?.token === owner.token) {
      try {
        unlinkSync(lockPath);
      } catch {
        /* already gone */
      }
    }
  }
}
