import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppError, InvalidInputError, NotFoundError } from '../common/errors';
import { resolveInside } from './confine';
import type { SkillLoader } from './loader';

/**
 * Runs a skill's `scripts/<file>.mjs` as a child Node process: JSON on stdin, JSON on stdout.
 *
 * Isolation, strongest first:
 *  - scrubbed environment: only PATH/HOME/LANG/TZ (no API keys, tokens, proxies, NODE_OPTIONS);
 *  - Node's permission model when available (`--experimental-permission` on Node 20,
 *    `--permission` on 22+): the script may read only its skill folder, may not write files,
 *    spawn processes or start workers;
 *  - network: Node 20's permission model does not cover sockets, so a preloaded module replaces
 *    socket connect/listen, `tls.connect`, UDP, `dns` and `fetch` with functions that throw (http,
 *    https and http2 all go through these). The permission model also denies `process.binding`
 *    and native addons, which closes the obvious ways around the block. Still best effort, not a
 *    security boundary: skill scripts are reviewed files in the PM's own skills folder;
 *  - a timeout that kills the whole process group, and a cap on stdout.
 * Convention for scripts: on bad input print `{"error": "..."}` and exit with code 2.
 */

type ErrorCode = ConstructorParameters<typeof AppError>[0];

export type SkillScriptFailure = 'timeout' | 'bad_json' | 'exit' | 'too_large' | 'cancelled' | 'bad_input' | 'spawn';

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

export interface RunSkillScriptOptions {
  /** The skill folder (working directory; the only place the script may read). */
  skillDir: string;
  /** An `.mjs` file under `scripts/` (`kelly.mjs` or `scripts/kelly.mjs`). */
  script: string;
  input: unknown;
  timeoutMs?: number;
  maxOutputBytes?: number;
  signal?: AbortSignal;
  /** Extra environment entries; names that look like secrets are refused. */
  env?: Record<string, string>;
  /** Use Node's permission model and the network block (default true). */
  sandbox?: boolean;
}

export interface SkillScriptResult {
  output: unknown;
  durationMs: number;
  /** Last few KiB of stderr (warnings the script printed). */
  stderr: string;
  sandboxed: boolean;
}

export const DEFAULT_SCRIPT_TIMEOUT_MS = 10_000;
export const DEFAULT_SCRIPT_OUTPUT_BYTES = 256 * 1024;
const STDERR_TAIL_BYTES = 4096;
const SECRET_NAME = /(KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION)/i;

// Loaded with --import before the script: turns every outbound network path into an error.
const NETWORK_BLOCK = [
  'import net from "node:net"; import tls from "node:tls"; import dgram from "node:dgram"; import dns from "node:dns";',
  'const deny = () => { const e = new Error("network access is disabled for skill scripts"); e.code = "ERR_NETWORK_DISABLED"; throw e; };',
  'net.Socket.prototype.connect = deny; net.connect = deny; net.createConnection = deny; tls.connect = deny;',
  'net.Server.prototype.listen = deny; dgram.createSocket = deny;',
  'dgram.Socket.prototype.bind = deny; dgram.Socket.prototype.send = deny; dgram.Socket.prototype.connect = deny;',
  'dns.lookup = deny; dns.resolve = deny; dns.promises.lookup = deny; dns.promises.resolve = deny;',
  'globalThis.fetch = async () => deny(); globalThis.WebSocket = undefined; globalThis.EventSource = undefined;',
].join('\n');
const NETWORK_BLOCK_URL = `data:text/javascript,${encodeURIComponent(NETWORK_BLOCK)}`;

/** The permission flag this Node understands, or null (e.g. an Electron build without it). */
export function permissionFlag(): string | null {
  const flags = process.allowedNodeEnvironmentFlags;
  if (flags.has('--permission')) return '--permission';
  if (flags.has('--experimental-permission')) return '--experimental-permission';
  return null;
}

/** The minimal environment a skill script sees. */
export function scrubbedEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: os.tmpdir(),
    TMPDIR: os.tmpdir(),
    LANG: 'C.UTF-8',
    TZ: 'UTC',
  };
  // Inside Electron, process.execPath is the app binary; this makes it behave as plain Node.
  if (process.versions.electron) env.ELECTRON_RUN_AS_NODE = '1';
  for (const [k, v] of Object.entries(extra)) {
    if (SECRET_NAME.test(k)) throw new InvalidInputError(`Skill scripts may not receive "${k}": secrets never reach skill scripts.`);
    env[k] = v;
  }
  return env;
}

/**
 * Runs a script of an installed skill by skill name (either spelling). Refuses skills whose SKILL.md
 * is invalid and names the available scripts when the one asked for does not exist.
 */
export async function runScriptOfSkill(
  loader: SkillLoader,
  skill: string,
  script: string,
  input: unknown,
  options: Omit<RunSkillScriptOptions, 'skillDir' | 'script' | 'input'> = {},
): Promise<SkillScriptResult> {
  const loaded = loader.load(skill);
  loader.scriptPath(loaded.name, script);
  return runSkillScript({ ...options, skillDir: loaded.dir, script, input });
}

/** Every refusal (bad path, bad input, bad env) comes back as a rejected promise, never a throw. */
export function runSkillScript(opts: RunSkillScriptOptions): Promise<SkillScriptResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_SCRIPT_TIMEOUT_MS;
  const maxOut = opts.maxOutputBytes ?? DEFAULT_SCRIPT_OUTPUT_BYTES;
  const skillDir = path.resolve(opts.skillDir);
  const rel = opts.script.replace(/\\/g, '/').startsWith('scripts/') ? opts.script : `scripts/${opts.script}`;
  let scriptAbs: string;
  try {
    scriptAbs = resolveInside(skillDir, rel);
  } catch (e) {
    return Promise.reject(e);
  }
  const label = `${path.basename(skillDir)}/${rel}`;

  // Only ES modules: a `.js` file's module type depends on package.json files outside the folder the
  // sandbox lets the script read.
  if (path.extname(scriptAbs) !== '.mjs') {
    return Promise.reject(new InvalidInputError(`"${label}" is not a Node ES module (.mjs); only those can be run as skill scripts.`));
  }
  if (!(timeoutMs > 0) || !(maxOut > 0)) {
    return Promise.reject(new InvalidInputError('A skill script needs a positive timeout and output cap.'));
  }
  if (!fs.existsSync(scriptAbs)) return Promise.reject(new NotFoundError(`The skill script "${label}" does not exist.`));

  let stdin: string;
  try {
    stdin = JSON.stringify(opts.input ?? null);
  } catch (e) {
    return Promise.reject(new InvalidInputError(`The input for "${label}" is not JSON-serialisable: ${(e as Error).message}`));
  }
  let env: Record<string, string>;
  try {
    env = scrubbedEnv(opts.env);
  } catch (e) {
    return Promise.reject(e);
  }

  const args: string[] = ['--no-warnings'];
  const perm = opts.sandbox === false ? null : permissionFlag();
  if (perm) {
    let realDir = skillDir;
    try {
      realDir = fs.realpathSync(skillDir);
    } catch {
      /* reported by spawn */
    }
    args.push(perm, `--allow-fs-read=${realDir}${path.sep}`);
  }
  if (opts.sandbox !== false) args.push(`--import=${NETWORK_BLOCK_URL}`);
  args.push(scriptAbs);

  return new Promise<SkillScriptResult>((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      cwd: skillDir,
      env,
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
      opts.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const stopFor = (why: SkillScriptFailure) => {
      if (killedFor) return;
      killedFor = why;
      killGroup();
    };
    const onAbort = () => stopFor('cancelled');
    const timer = setTimeout(() => stopFor('timeout'), timeoutMs);
    if (opts.signal?.aborted) stopFor('cancelled');
    else opts.signal?.addEventListener('abort', onAbort, { once: true });

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
    child.on('error', (e) =>
      finish(() => reject(new SkillScriptError('internal', 'spawn', `Could not start "${label}": ${e.message}`))),
    );
    child.on('close', (code, signal) => {
      const durationMs = performance.now() - started;
      const tail = errTail.trim();
      finish(() => {
        if (killedFor === 'timeout') {
          return reject(new SkillScriptError('unavailable', 'timeout', `"${label}" ran longer than ${timeoutMs} ms and was stopped. Give it a smaller input or a longer timeout.`, { stderrTail: tail }));
        }
        if (killedFor === 'too_large') {
          return reject(new SkillScriptError('too_large', 'too_large', `"${label}" printed more than ${maxOut} bytes and was stopped; ask it for a summary instead of raw rows.`, { stderrTail: tail }));
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
          return reject(new SkillScriptError('internal', 'exit', `"${label}" ${how}.${tail ? ` ${errorLine(tail)}` : ''}`, { stderrTail: tail, exitCode: code }));
        }
        if (!parseOk) {
          return reject(new SkillScriptError('internal', 'bad_json', `"${label}" did not print valid JSON${text ? ` (it printed: ${text.slice(0, 200)})` : ' (it printed nothing)'}.`, { stderrTail: tail, exitCode: code }));
        }
        resolve({ output: parsed, durationMs, stderr: tail, sandboxed: perm !== null });
      });
    });

    child.stdin.end(stdin);
  });
}

function isErrorObject(v: unknown): v is { error: string } {
  return typeof v === 'object' && v !== null && typeof (v as { error?: unknown }).error === 'string';
}

/** The line a PM needs from a Node crash: the `SomeError: message` line, else the last lines. */
function errorLine(tail: string): string {
  const lines = tail.split('\n').map((l) => l.trim()).filter(Boolean);
  const err = [...lines].reverse().find((l) => /^[A-Za-z]*Error\b.*:/.test(l));
  return err ? `It said: ${err}` : `Last error output: ${lines.slice(-3).join(' | ')}`;
}
