import { spawn } from 'node:child_process';
import { AppError } from '../common/errors';

/**
 * One run of a skill script as a child process: JSON on stdin, its answer on stdout, a timeout
 * that kills the whole process group, a cap on stdout and a tail of stderr. The caller decides
 * the command (Node with its permission model, or bubblewrap around python3/bash).
 */

type ErrorCode = ConstructorParameters<typeof AppError>[0];

export type SkillScriptFailure =
  | 'timeout'
  | 'bad_json'
  | 'exit'
  | 'too_large'
  | 'cancelled'
  | 'bad_input'
  | 'spawn'
  | 'not_allowed'
  | 'no_sandbox'
  | 'no_interpreter';

export class SkillScriptError extends AppError {
  readonly failure: SkillScriptFailure;
  readonly stderrTail: string;
  readonly exitCode: number | null;

  constructor(code: ErrorCode, failure: SkillScriptFailure, message: string, extra: { stderrTail?: string; exitCode?: number | null } = {}) {
    super(code, message);
    this.name = 'SkillScriptError';
    this.failure = failure;
    this.stderrTail = extra.stderrTail ?? '';
    this.exitCode = extra.exitCode ?? null;
  }
}

export interface JsonProcessSpec {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  stdin: string;
  /** `skill/scripts/file`, for messages. */
  label: string;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
  /** Accept plain text on stdout (published Python and shell scripts print prose); else JSON is required. */
  allowText?: boolean;
}

const STDERR_TAIL_BYTES = 4096;

export function runJsonProcess(spec: JsonProcessSpec): Promise<{ output: unknown; durationMs: number; stderr: string }> {
  const { label, timeoutMs, maxOutputBytes: maxOut } = spec;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true, // own process group, so a timeout kills grandchildren too
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let errTail = '';
    let settled = false;
    let killedFor: SkillScriptFailure | null = null;

    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const stopFor = (why: SkillScriptFailure) => {
      if (killedFor) return;
      killedFor = why;
      killGroup();
    };
    const onAbort = () => stopFor('cancelled');
    const timer = setTimeout(() => stopFor('timeout'), timeoutMs);
    if (spec.signal?.aborted) stopFor('cancelled');
    else spec.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      if (killedFor) return;
      outBytes += chunk.length;
      if (outBytes > maxOut) return stopFor('too_large');
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      errTail = (errTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    child.stdin.on('error', () => {
      /* the script exited without reading its input; the exit handler reports why */
    });
    child.on('error', (e) => finish(() => reject(new SkillScriptError('internal', 'spawn', `Could not start "${label}": ${e.message}`))));
    child.on('close', (code, signal) => {
      const durationMs = performance.now() - started;
      const tail = errTail.trim();
      finish(() => {
        if (killedFor === 'timeout') {
          return reject(
            new SkillScriptError(
              'unavailable',
              'timeout',
              `"${label}" ran longer than ${timeoutMs} ms and was stopped. Give it a smaller input or a longer timeout.`,
              { stderrTail: tail },
            ),
          );
        }
        if (killedFor === 'too_large') {
          return reject(
            new SkillScriptError(
              'too_large',
              'too_large',
              `"${label}" printed more than ${maxOut} bytes and was stopped; ask it for a summary instead of raw rows.`,
              { stderrTail: tail },
            ),
          );
        }
        if (killedFor === 'cancelled') {
          return reject(new SkillScriptError('cancelled', 'cancelled', `"${label}" was cancelled.`, { stderrTail: tail }));
        }
        const text = Buffer.concat(out).toString('utf8').trim();
        let parsed: unknown;
        let parseOk = false;
        try {
          parsed = JSON.parse(text);
          parseOk = text.length > 0;
        } catch {
          parseOk = false;
        }
        if (code === 2 && parseOk && isErrorObject(parsed)) {
          return reject(new SkillScriptError('invalid_input', 'bad_input', `${label}: ${parsed.error}`, { stderrTail: tail, exitCode: code }));
        }
        if (code !== 0) {
          const how = code === null ? `was killed by ${signal}` : `exited with code ${code}`;
          return reject(
            new SkillScriptError('internal', 'exit', `"${label}" ${how}.${tail ? ` ${errorLine(tail)}` : ''}`, { stderrTail: tail, exitCode: code }),
          );
        }
        if (!parseOk && spec.allowText) return resolve({ output: text, durationMs, stderr: tail });
        if (!parseOk) {
          return reject(
            new SkillScriptError(
              'internal',
              'bad_json',
              `"${label}" did not print valid JSON${text ? ` (it printed: ${text.slice(0, 200)})` : ' (it printed nothing)'}.`,
              { stderrTail: tail, exitCode: code },
            ),
          );
        }
        resolve({ output: parsed, durationMs, stderr: tail });
      });
    });

    child.stdin.end(spec.stdin);
  });
}

function isErrorObject(v: unknown): v is { error: string } {
  return typeof v === 'object' && v !== null && typeof (v as { error?: unknown }).error === 'string';
}

/** The line a PM needs from a crash: the `SomeError: message` line (Node and Python alike), else the last lines. */
function errorLine(tail: string): string {
  const lines = tail
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const err = [...lines].reverse().find((l) => /^[A-Za-z.]*(Error|Exception)\b.*:/.test(l));
  return err ? `It said: ${err}` : `Last error output: ${lines.slice(-3).join(' | ')}`;
}
