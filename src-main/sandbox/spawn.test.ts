import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createProcessGroupLimit } from './process-limit';
import { runProcess } from './spawn';

/**
 * The one spawn helper skills and builds share: a timeout, a cancel and an output flood each stop
 * the whole process tree, not just the first process. If these failed, a stopped test run would
 * leave its servers and watchers running, or a flood of output would fill Forge's memory.
 */

const env = { PATH: '/usr/local/bin:/usr/bin:/bin' };
const tag = () => `forge-spawn-${process.pid}-${Math.floor(Math.random() * 1e9)}`;

/** Host processes (not zombies) whose command line holds `arg`. */
function running(arg: string): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
      if (
        fs
          .readFileSync(`/proc/${d}/cmdline`, 'utf8')
          .split('\0')
          .some((a) => a.includes(arg))
      )
        out.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return out;
}

const settle = () => new Promise((r) => setTimeout(r, 300));

describe.skipIf(process.platform !== 'linux')('runProcess', { timeout: 60_000 }, () => {
  it('kills the program and the children it started at the timeout', async () => {
    // A unique duration marks the sleeps, so the test finds them among the host's processes.
    const t = `3000.${process.pid}${Math.floor(Math.random() * 1e6)}`;
    const r = await runProcess({ command: 'sh', args: ['-c', `sleep ${t} & sleep ${t}; wait`], cwd: '/', env, timeoutMs: 500 });
    expect(r.durationMs).toBeLessThan(20_000);
    expect(r.stoppedFor).toBe('timeout');
    expect(r.exitCode).toBeNull();
    await settle();
    expect(running(t)).toEqual([]);
  });

  it('stops a flood of output at the cap, with everything it started', async () => {
    const t = tag();
    let seen = 0;
    const r = await runProcess({
      command: 'sh',
      args: ['-c', `yes ${t} & yes ${t}`],
      cwd: '/',
      env,
      timeoutMs: 30_000,
      maxOutputBytes: 256 * 1024,
      onStdout: (b) => {
        seen += b.length;
      },
    });
    expect(r.stoppedFor).toBe('output_cap');
    expect(seen).toBeLessThanOrEqual(256 * 1024);
    await settle();
    expect(running(t)).toEqual([]);
  });

  it('is cancelled by its abort signal', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const r = await runProcess({ command: 'sleep', args: ['30'], cwd: '/', env, timeoutMs: 30_000, signal: ac.signal });
    expect(r.stoppedFor).toBe('cancelled');
  });

  it('reports a program that cannot be started', async () => {
    const r = await runProcess({ command: 'no-such-program-forge', args: [], cwd: '/', env, timeoutMs: 5000 });
    expect(r.spawnError?.code).toBe('ENOENT');
  });

  it.skipIf(createProbe() === null)('caps the processes of a run with a pids control group and says when a fork was refused', async () => {
    const r = await runProcess({
      command: 'sh',
      args: ['-c', 'for i in 1 2 3 4 5 6 7 8 9 10 11 12; do sleep 1 & done; wait'],
      cwd: '/',
      env,
      timeoutMs: 20_000,
      maxProcesses: 4,
    });
    expect(r.processLimit).toBe('cgroup');
    expect(r.processLimitHit).toBe(true);
    // Within the cap it runs as usual.
    const ok = await runProcess({ command: 'sh', args: ['-c', 'true'], cwd: '/', env, timeoutMs: 20_000, maxProcesses: 4 });
    expect(ok.exitCode).toBe(0);
    expect(ok.processLimitHit).toBe(false);
  });
});

function createProbe() {
  const l = createProcessGroupLimit(4);
  void l?.dispose();
  return l;
}
