import { spawn } from 'node:child_process';
import { createProcessGroupLimit } from './process-limit';

/**
 * The one way Forge starts a program on someone else's behalf (a skill script, a build's command):
 * no shell, no console window on Windows, a timeout and an abort that kill the whole process tree
 * on every OS, and output caps that stop the run the moment they are exceeded instead of letting a
 * flood fill memory. The caller chooses the command (bubblewrap around it, or not) and environment.
 */

/** Why Forge stopped a run: too slow, cancelled, too much output. */
export type StopReason = 'timeout' | 'cancelled' | 'output_cap';

export interface ProcessSpec {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Written to stdin, which is then closed; absent: stdin is /dev/null. */
  stdin?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Stop the run when stdout exceeds this many bytes. */
  maxStdoutBytes?: number;
  /** Stop the run when stdout and stderr together exceed this many bytes. */
  maxOutputBytes?: number;
  onStdout?: (chunk: Buffer) => void;
  onStderr?: (chunk: Buffer) => void;
  /** When the program exits, kill what it left running in the background (it would hold the pipes open). */
  killTreeOnExit?: boolean;
  /** Cap the run's processes with a pids control group where one is writable (see process-limit.ts). */
  maxProcesses?: number;
  /**
   * Start the program some other way than spawning `command` (the desktop app runs Node scripts in
   * an Electron utility process); `command` and `args` then only name it. Timeout, caps and kill apply the same.
   */
  start?: () => StartedProcess;
}

/** The parts of a ChildProcess this helper drives, so a process started another way can be run the same. */
export interface StartedProcess {
  readonly pid?: number;
  readonly stdin: NodeJS.WritableStream | null;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  kill(signal?: NodeJS.Signals): boolean;
  on(event: 'exit' | 'close', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  on(event: 'error', listener: (e: NodeJS.ErrnoException) => void): unknown;
}

export interface ProcessOutcome {
  /** null when killed or never started. */
  exitCode: number | null;
  signal: string | null;
  stoppedFor: StopReason | null;
  durationMs: number;
  /** Set when the program could not be started. */
  spawnError?: { code?: string; message: string };
  /** A fork was refused because the run reached its process cap (known only where a control group enforced it). */
  processLimitHit: boolean;
  /** How the process cap was enforced: a control group, or none here (prlimit inside the sandbox may still apply). */
  processLimit: 'cgroup' | null;
}

/** Kills a child and everything it started: its process group on POSIX, `taskkill /T /F` on Windows. */
export function killTree(child: StartedProcess): void {
  if (!child.pid) return;
  if (process.platform === 'win32') {
    try {
      spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => child.kill());
    } catch {
      child.kill();
    }
    return;
  }
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    try {
      child.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

export function runProcess(spec: ProcessSpec): Promise<ProcessOutcome> {
  const started = performance.now();
  const limit = spec.maxProcesses ? createProcessGroupLimit(spec.maxProcesses) : null;
  const { command, args } = limit ? limit.wrap(spec.command, spec.args) : spec;
  return new Promise((resolve) => {
    let child: StartedProcess;
    try {
      child = spec.start
        ? spec.start()
        : spawn(command, args, {
            cwd: spec.cwd,
            env: spec.env,
            shell: false,
            windowsHide: true,
            stdio: [spec.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
            // POSIX: its own process group, so the kill reaches grandchildren. Windows: detached would open a console.
            detached: process.platform !== 'win32',
          });
    } catch (e) {
      void limit?.dispose();
      resolve({
        exitCode: null,
        signal: null,
        stoppedFor: null,
        durationMs: 0,
        spawnError: { code: (e as NodeJS.ErrnoException).code, message: (e as Error).message },
        processLimitHit: false,
        processLimit: null,
      });
      return;
    }
    let stoppedFor: StopReason | null = null;
    let spawnError: ProcessOutcome['spawnError'];
    let settled = false;
    let outBytes = 0;
    let allBytes = 0;
    const stop = (why: StopReason) => {
      if (stoppedFor) return;
      stoppedFor = why;
      killTree(child);
    };
    const timer = setTimeout(() => stop('timeout'), spec.timeoutMs);
    const onAbort = () => stop('cancelled');
    if (spec.signal?.aborted) stop('cancelled');
    else spec.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout?.on('data', (b: Buffer) => {
      if (stoppedFor === 'output_cap') return;
      outBytes += b.length;
      allBytes += b.length;
      if ((spec.maxStdoutBytes && outBytes > spec.maxStdoutBytes) || (spec.maxOutputBytes && allBytes > spec.maxOutputBytes)) return stop('output_cap');
      spec.onStdout?.(b);
    });
    child.stderr?.on('data', (b: Buffer) => {
      if (stoppedFor === 'output_cap') return;
      allBytes += b.length;
      if (spec.maxOutputBytes && allBytes > spec.maxOutputBytes) return stop('output_cap');
      spec.onStderr?.(b);
    });
    child.stdin?.on('error', () => {
      /* the program exited without reading its input; the exit handler reports why */
    });
    if (spec.killTreeOnExit) child.on('exit', () => killTree(child));
    const finish = (exitCode: number | null, signal: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
      const processLimitHit = limit?.hit() ?? false;
      void limit?.dispose();
      resolve({
        exitCode: stoppedFor ? null : exitCode,
        signal,
        stoppedFor,
        durationMs: Math.round(performance.now() - started),
        ...(spawnError ? { spawnError } : {}),
        processLimitHit,
        processLimit: limit ? 'cgroup' : null,
      });
    };
    child.on('error', (e: NodeJS.ErrnoException) => {
      spawnError = { code: e.code, message: e.message };
      finish(null, null);
    });
    child.on('close', (code, signal) => finish(code, signal));
    if (spec.stdin !== undefined) child.stdin?.end(spec.stdin);
  });
}
