import { AppError } from '../common/errors';
import { runProcess, type StartedProcess } from '../sandbox';

/**
 * One run of a skill script as a child process, on the shared spawn helper (sandbox/spawn.ts):
 * JSON on stdin, its answer on stdout, a timeout that kills the whole process tree, a cap on stdout
 * and a tail of stderr. The caller decides the command (Node with its permission model, or
 * bubblewrap around python3/bash).
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
  | 'no_interpreter'
  | 'no_launcher';

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
  /** Start the process another way than spawning `command` (a NodeScriptLauncher: Electron's utility process). */
  start?: () => StartedProcess;
}

const STDERR_TAIL_BYTES = 4096;

export async function runJsonProcess(spec: JsonProcessSpec): Promise<{ output: unknown; durationMs: number; stderr: string }> {
  const { label, timeoutMs, maxOutputBytes: maxOut } = spec;
  const out: Buffer[] = [];
  let errTail = '';
  const r = await runProcess({
    start: spec.start,
    command: spec.command,
    args: spec.args,
    cwd: spec.cwd,
    env: spec.env,
    stdin: spec.stdin,
    timeoutMs,
    signal: spec.signal,
    maxStdoutBytes: maxOut,
    onStdout: (chunk) => out.push(chunk),
    onStderr: (chunk) => {
      errTail = (errTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    },
  });
  const { exitCode: code, signal, durationMs } = r;
  const tail = errTail.trim();
  if (r.spawnError) throw new SkillScriptError('internal', 'spawn', `Could not start "${label}": ${r.spawnError.message}`);
  if (r.stoppedFor === 'timeout') {
    throw new SkillScriptError(
      'unavailable',
      'timeout',
      `"${label}" ran longer than ${timeoutMs} ms and was stopped. Give it a smaller input or a longer timeout.`,
      { stderrTail: tail },
    );
  }
  if (r.stoppedFor === 'output_cap') {
    throw new SkillScriptError(
      'too_large',
      'too_large',
      `"${label}" printed more than ${maxOut} bytes and was stopped; ask it for a summary instead of raw rows.`,
      {
        stderrTail: tail,
      },
    );
  }
  if (r.stoppedFor === 'cancelled') throw new SkillScriptError('cancelled', 'cancelled', `"${label}" was cancelled.`, { stderrTail: tail });
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
    throw new SkillScriptError('invalid_input', 'bad_input', `${label}: ${parsed.error}`, { stderrTail: tail, exitCode: code });
  }
  if (code !== 0) {
    const how = code === null ? `was killed by ${signal}` : `exited with code ${code}`;
    throw new SkillScriptError('internal', 'exit', `"${label}" ${how}.${tail ? ` ${errorLine(tail)}` : ''}`, { stderrTail: tail, exitCode: code });
  }
  if (!parseOk && spec.allowText) return { output: text, durationMs, stderr: tail };
  if (!parseOk) {
    throw new SkillScriptError(
      'internal',
      'bad_json',
      `"${label}" did not print valid JSON${text ? ` (it printed: ${text.slice(0, 200)})` : ' (it printed nothing)'}.`,
      { stderrTail: tail, exitCode: code },
    );
  }
  return { output: parsed, durationMs, stderr: tail };
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
