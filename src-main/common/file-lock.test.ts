import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withFileLock } from './file-lock';

const dir = mkdtempSync(join(tmpdir(), 'forge-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lockOf = (pid: number) => JSON.stringify({ pid, host: hostname(), token: 'someone-else' });

describe('withFileLock', () => {
  it('waits for a live holder and then names it, rather than writing over its change', async () => {
    const lock = join(dir, 'held.lock');
    writeFileSync(lock, lockOf(process.pid)); // this process is alive: the lock is not stale
    const started = Date.now();
    await expect(withFileLock(lock, () => 'ran', { timeoutMs: 300, what: 'The notes' })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/^The notes is locked by another process \(pid \d+\)/),
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(existsSync(lock)).toBe(true); // a live holder's lock is never removed
  });

  it('takes over a lock left by a crashed process (old, or its pid gone), so one crash does not lock notes forever', async () => {
    const old = join(dir, 'old.lock');
    writeFileSync(old, lockOf(process.pid));
    const past = new Date(Date.now() - 60_000);
    utimesSync(old, past, past);
    expect(await withFileLock(old, () => 'ran', { timeoutMs: 300 })).toBe('ran');
    expect(existsSync(old)).toBe(false);

    const orphan = join(dir, 'orphan.lock');
    writeFileSync(orphan, lockOf(2 ** 22 + 12345)); // above Linux's default pid_max: no such process
    expect(await withFileLock(orphan, () => 'ran', { timeoutMs: 300 })).toBe('ran');
  });

  it('lets callers in one process take turns, and releases the lock when the work throws', async () => {
    const lock = join(dir, 'turns.lock');
    const order: string[] = [];
    const slow = withFileLock(lock, async () => {
      order.push('a-in');
      await new Promise((r) => setTimeout(r, 50));
      order.push('a-out');
    });
    const fast = withFileLock(lock, () => void order.push('b'));
    await Promise.all([slow, fast]);
    expect(order).toEqual(['a-in', 'a-out', 'b']);
    await expect(
      withFileLock(lock, () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(existsSync(lock)).toBe(false);
  });
});
