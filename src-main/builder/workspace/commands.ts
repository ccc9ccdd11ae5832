import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { InvalidInputError } from '../../common/errors';
import { checkArgv, DEFAULT_ALLOWED_COMMANDS, parseCommandLine } from './argv';
import { realRoot } from './confine';

/**
 * run_command: one allowed program, argv passed without a shell, in the project root, with the
 * environment scrubbed of secrets, a timeout that kills the whole process group, and output kept
 * to its head and tail.
 */

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
/** Output the model sees from one command: the first third and the last two thirds of this. */
export const MAX_OUTPUT_CHARS = 30_000;

export interface RunCommandOptions {
  allowedCommands?: readonly string[];
  timeoutMs?: number;
  maxOutputChars?: number;
  signal?: AbortSignal;
  /** The environment to scrub (default process.env). */
  env?: NodeJS.ProcessEnv;
}

export interface CommandRun {
  command: string;
  argv: string[];
  /** null when the process was killed (timeout, cancel) or never started. */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
  /** stdout and stderr interleaved as they arrived, capped. */
  output: string;
  truncated: boolean;
  /** Set when the program could not be started (not installed, not on PATH). */
  spawnError?: string;
}

/** Names that look like credentials: dropped from every child's environment. */
export const SECRET_ENV_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE|_PAT$|_DSN$|DATABASE_URL)/i;
/** Whole families dropped: vendor accounts, Forge's own settings, and the host's Node/Electron/test-runner state. */
const DROPPED_PREFIXES = ['ANTHROPIC_', 'OPENAI_', 'VOYAGE_', 'AWS_', 'AZURE_', 'GOOGLE_', 'GCP_', 'GH_', 'GITHUB_', 'FORGE_', 'ELECTRON_', 'VITEST'];
const DROPPED_NAMES = new Set(['NODE_OPTIONS', 'NODE_ENV', 'TEST', 'SSH_AUTH_SOCK']);
/** A value carrying a password in a URL (scheme://user:pass@host) is dropped whatever its name. */
const CREDENTIAL_URL = /[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:[^\s/@]+@/i;

/**
 * The environment a build's programs see: the host's, minus anything that looks like a secret or
 * belongs to Forge itself, plus settings that keep tools non-interactive and their output plain.
 * PATH, HOME, LANG, TMPDIR and toolchain variables (PYENV_ROOT, GOPATH, …) pass through so the
 * project's own toolchain still works.
 */
export function scrubEnv(source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    const upper = name.toUpperCase();
    if (SECRET_ENV_NAME.test(name) || DROPPED_NAMES.has(upper) || DROPPED_PREFIXES.some((p) => upper.startsWith(p))) continue;
    if (CREDENTIAL_URL.test(value)) continue;
    env[name] = value;
  }
  env.CI = '1';
  env.NO_COLOR = '1';
  env.FORCE_COLOR = '0';
  return env;
}

/** Parses, checks and runs a command line in the project root. Refusals throw CommandRefusedError. */
export async function runCommand(workDir: string, commandLine: string, opts: RunCommandOptions = {}): Promise<CommandRun> {
  const root = realRoot(workDir);
  const argv = parseCommandLine(commandLine.trim());
  checkArgv(argv, opts.allowedCommands ?? DEFAULT_ALLOWED_COMMANDS, root);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0) || timeoutMs > MAX_TIMEOUT_MS) throw new InvalidInputError(`A timeout must be between 1 and ${MAX_TIMEOUT_MS / 1000} seconds.`);
  return spawnCapped(root, commandLine.trim(), argv, { ...opts, timeoutMs });
}

function spawnCapped(cwd: string, command: string, argv: string[], opts: RunCommandOptions & { timeoutMs: number }): Promise<CommandRun> {
  const cap = new OutputCap(opts.maxOutputChars ?? MAX_OUTPUT_CHARS);
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), {
      cwd,
      env: scrubEnv(opts.env),
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group: a timeout stops what it started too
    });
    let stoppedFor: 'timeout' | 'cancel' | null = null;
    let spawnError: string | undefined;
    let settled = false;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* the group is already gone */
      }
    };
    const stop = (why: 'timeout' | 'cancel') => {
      if (stoppedFor) return;
      stoppedFor = why;
      killGroup();
    };
    const timer = setTimeout(() => stop('timeout'), opts.timeoutMs);
    const onAbort = () => stop('cancel');
    if (opts.signal?.aborted) stop('cancel');
    else opts.signal?.addEventListener('abort', onAbort, { once: true });

    const out = new StringDecoder('utf8');
    const err = new StringDecoder('utf8');
    child.stdout.on('data', (b: Buffer) => cap.push(out.write(b)));
    child.stderr.on('data', (b: Buffer) => cap.push(err.write(b)));
    // The program is done: background children it left would hold the pipes open, so they go too.
    child.on('exit', () => killGroup());
    const finish = (exitCode: number | null, signal: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      cap.push(out.end() + err.end());
      const { text, truncated } = cap.result();
      resolve({
        command,
        argv,
        exitCode: stoppedFor ? null : exitCode,
        signal,
        timedOut: stoppedFor === 'timeout',
        cancelled: stoppedFor === 'cancel',
        durationMs: Math.round(performance.now() - started),
        output: text,
        truncated,
        ...(spawnError ? { spawnError } : {}),
      });
    };
    child.on('error', (e: NodeJS.ErrnoException) => {
      spawnError = e.code === 'ENOENT' ? `"${argv[0]}" is not installed or not on PATH on this machine.` : `"${argv[0]}" could not be started: ${e.message}`;
      finish(null, null);
    });
    child.on('close', (code, signal) => finish(code, signal));
  });
}

/** Keeps the first third and the last two thirds of a stream, counting what fell between. */
export class OutputCap {
  private head = '';
  private tail = '';
  private total = 0;
  private readonly headCap: number;
  private readonly tailCap: number;

  constructor(max: number) {
    this.headCap = Math.floor(max / 3);
    this.tailCap = max - this.headCap;
  }

  push(s: string): void {
    if (!s) return;
    this.total += s.length;
    if (this.head.length < this.headCap) {
      const take = this.headCap - this.head.length;
      this.head += s.slice(0, take);
      s = s.slice(take);
    }
    if (!s) return;
    this.tail += s;
    if (this.tail.length > this.tailCap * 2) this.tail = this.tail.slice(-this.tailCap);
  }

  result(): { text: string; truncated: boolean } {
    const tail = this.tail.slice(-this.tailCap);
    const omitted = this.total - this.head.length - tail.length;
    if (omitted <= 0) return { text: this.head + tail, truncated: false };
    return { text: `${this.head}\n[… ${omitted} characters of output omitted …]\n${tail}`, truncated: true };
  }
}

/** The text the model reads: how it ended, then the output. */
export function formatCommandRun(run: CommandRun): string {
  const secs = `${(run.durationMs / 1000).toFixed(1)} s`;
  let status: string;
  if (run.spawnError) status = run.spawnError;
  else if (run.timedOut) status = `timed out after ${secs} and was stopped, with everything it started`;
  else if (run.cancelled) status = `cancelled after ${secs}`;
  else if (run.exitCode === null) status = `killed by ${run.signal ?? 'a signal'} after ${secs}`;
  else status = `exit code ${run.exitCode} · ${secs}`;
  const body = run.output.trim() ? `\n${run.output.replace(/\s+$/, '')}` : '\n(no output)';
  return `$ ${run.command}\n${status}${run.spawnError ? '' : body}`;
}
