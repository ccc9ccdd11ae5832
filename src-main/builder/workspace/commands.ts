import { StringDecoder } from 'node:string_decoder';
import { InvalidInputError } from '../../common/errors';
import { runProcess, SECRET_ENV_NAME, type StopReason, scrubEnv } from '../../sandbox';
import { checkArgv, DEFAULT_ALLOWED_COMMANDS, parseCommandLine } from './argv';
import { realRoot } from './confine';
import { type CommandSandbox, MAX_COMMAND_PROCESSES, prepareLaunch } from './sandboxed';

/**
 * run_command: one allowed program, argv passed without a shell, in the project root, inside the
 * sandbox (sandboxed.ts), with the environment scrubbed of secrets, a timeout that kills the whole
 * process tree, a byte cap that stops a flood of output, and output kept to its head and tail.
 */

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
/** Output the model sees from one command: the first third and the last two thirds of this. */
export const MAX_OUTPUT_CHARS = 30_000;
/** Output one command may print before it is stopped (most of it is dropped anyway; this bounds the reading). */
export const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

export interface RunCommandOptions {
  allowedCommands?: readonly string[];
  timeoutMs?: number;
  maxOutputChars?: number;
  signal?: AbortSignal;
  /** The environment to scrub (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Stop the command once it has printed this many bytes (default MAX_OUTPUT_BYTES). */
  maxOutputBytes?: number;
  /** Processes it may have at once (default MAX_COMMAND_PROCESSES). */
  maxProcesses?: number;
  /** Where and how it is confined; see sandboxed.ts. */
  sandbox?: CommandSandbox;
  /** What a PM's approval covers when it runs unconfined (default: by program, see commandClassOf). */
  commandClass?: string;
}

export interface CommandRun {
  command: string;
  argv: string[];
  /** null when the process was killed (timeout, cancel) or never started. */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  /** Why Forge stopped it, if it did: timeout, cancelled, or output_cap (it printed too much). */
  stoppedFor: StopReason | null;
  /** A fork was refused because it reached MAX_COMMAND_PROCESSES (known where a control group enforced the cap). */
  processLimitHit: boolean;
  /** It ran inside the sandbox (false: unconfined, with the PM's approval). */
  confined: boolean;
  /** It could reach the network. */
  network: boolean;
  durationMs: number;
  /** stdout and stderr interleaved as they arrived, capped. */
  output: string;
  truncated: boolean;
  /** Set when the program could not be started (not installed, not on PATH). */
  spawnError?: string;
}

/** The environment a build's programs see (see sandbox/env.ts); re-exported under the builder's old name. */
export { SECRET_ENV_NAME, scrubEnv };

/** Parses, checks and runs a command line in the project root. Refusals throw CommandRefusedError. */
export async function runCommand(workDir: string, commandLine: string, opts: RunCommandOptions = {}): Promise<CommandRun> {
  const root = realRoot(workDir);
  const command = commandLine.trim();
  const argv = parseCommandLine(command);
  checkArgv(argv, opts.allowedCommands ?? DEFAULT_ALLOWED_COMMANDS, root);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0) || timeoutMs > MAX_TIMEOUT_MS) throw new InvalidInputError(`A timeout must be between 1 and ${MAX_TIMEOUT_MS / 1000} seconds.`);
  const launch = await prepareLaunch(root, argv, command, opts);
  const base = { command, argv, signal: null, timedOut: false, cancelled: false, stoppedFor: null, processLimitHit: false };
  if (launch.kind === 'missing') {
    return { ...base, exitCode: null, durationMs: 0, output: '', truncated: false, spawnError: launch.message, confined: true, network: false };
  }
  const cap = new OutputCap(opts.maxOutputChars ?? MAX_OUTPUT_CHARS);
  const out = new StringDecoder('utf8');
  const err = new StringDecoder('utf8');
  const r = await runProcess({
    command: launch.command,
    args: launch.args,
    cwd: root,
    env: launch.env,
    timeoutMs,
    signal: opts.signal,
    maxOutputBytes: opts.maxOutputBytes ?? MAX_OUTPUT_BYTES,
    onStdout: (b) => cap.push(out.write(b)),
    onStderr: (b) => cap.push(err.write(b)),
    // The program is done: background children it left would hold the pipes open, so they go too.
    killTreeOnExit: true,
    maxProcesses: opts.maxProcesses ?? MAX_COMMAND_PROCESSES,
  });
  cap.push(out.end() + err.end());
  const { text, truncated } = cap.result();
  const spawnError = r.spawnError
    ? r.spawnError.code === 'ENOENT'
      ? `"${argv[0]}" is not installed or not on PATH on this machine.`
      : `"${argv[0]}" could not be started: ${r.spawnError.message}`
    : undefined;
  return {
    ...base,
    exitCode: r.exitCode,
    signal: r.signal,
    timedOut: r.stoppedFor === 'timeout',
    cancelled: r.stoppedFor === 'cancelled',
    stoppedFor: r.stoppedFor,
    processLimitHit: r.processLimitHit,
    durationMs: r.durationMs,
    output: text,
    truncated: truncated || r.stoppedFor === 'output_cap',
    confined: launch.confined,
    network: launch.network,
    ...(spawnError ? { spawnError } : {}),
  };
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
  else if (run.stoppedFor === 'output_cap') status = `printed more than ${MAX_OUTPUT_BYTES / 1024 / 1024} MB and was stopped, with everything it started`;
  else if (run.cancelled) status = `cancelled after ${secs}`;
  else if (run.exitCode === null) status = `killed by ${run.signal ?? 'a signal'} after ${secs}`;
  else status = `exit code ${run.exitCode} · ${secs}`;
  if (run.processLimitHit) status += ` · it tried to start more than ${MAX_COMMAND_PROCESSES} processes at once and was refused`;
  const body = run.output.trim() ? `\n${run.output.replace(/\s+$/, '')}` : '\n(no output)';
  return `$ ${run.command}\n${status}${run.spawnError ? '' : body}${networkHint(run)}`;
}

const NETWORK_ERROR = /ENOTFOUND|EAI_AGAIN|ENETUNREACH|getaddrinfo|Could not resolve host|Temporary failure in name resolution|Network is unreachable/i;

/** A failed command that reached for the network, in a build without it: say who can turn it on. */
export function networkHint(run: CommandRun): string {
  if (!run.confined || run.network || run.exitCode === 0 || !NETWORK_ERROR.test(run.output)) return '';
  return '\n[Network is off for this build\'s commands. The PM can turn on "Allow network for this build" on the Builds screen; until then, work without downloads or say so with STOP ENVIRONMENT_LIMITATION.]';
}
