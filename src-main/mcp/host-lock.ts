import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../common/atomic-file';
import { MCP_FILES } from './config';

/**
 * A running Forge app announces its API (port + token) in the workspace folder so that
 * `forge mcp` started by an IDE can proxy to it instead of reading contracts on its own.
 */
export interface HostLock {
  url: string;
  token: string;
  pid: number;
  started_at: string;
}

export function writeHostLock(dataDir: string, lock: Omit<HostLock, 'pid' | 'started_at'> & Partial<HostLock>): string {
  const path = join(dataDir, MCP_FILES.hostLock);
  writeFileAtomic(path, JSON.stringify({ pid: process.pid, started_at: new Date().toISOString(), ...lock }), 0o600);
  return path;
}

export function removeHostLock(dataDir: string): void {
  const path = join(dataDir, MCP_FILES.hostLock);
  try {
    const lock = JSON.parse(readFileSync(path, 'utf8')) as HostLock;
    if (lock.pid !== process.pid) return; // another app's lock: not ours to remove
  } catch {
    /* unreadable: remove */
  }
  rmSync(path, { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock of a running app, or undefined when there is none or its process has gone. */
export function readHostLock(dataDir: string): HostLock | undefined {
  try {
    const lock = JSON.parse(readFileSync(join(dataDir, MCP_FILES.hostLock), 'utf8')) as HostLock;
    if (typeof lock.url !== 'string' || typeof lock.token !== 'string' || typeof lock.pid !== 'number') return undefined;
    return alive(lock.pid) ? lock : undefined;
  } catch {
    return undefined;
  }
}
