import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InvalidInputError, NotFoundError } from '../common/errors';
import { bwrapArgs, checkConfinement, findInterpreter, interpreterName } from './bubblewrap';
import { resolveInside } from './confine';
import { runJsonProcess, SkillScriptError } from './json-process';
import type { SkillLoader } from './loader';
import type { NodeScriptLauncher } from './node-launcher';
import { needsScriptPermission, scriptLanguage, type ScriptLanguage } from './script-kinds';

/**
 * Runs a skill's script as a child process: JSON on stdin, JSON (or, for Python and shell, text)
 * on stdout. Two confinements, by language:
 *
 * `.mjs` — Node's own, as it always was:
 *  - scrubbed environment: only PATH/HOME/LANG/TZ (no API keys, tokens, proxies, NODE_OPTIONS);
 *  - Node's permission model when available (`--experimental-permission` on Node 20,
 *    `--permission` on 22+): the script may read only its skill folder, may not write files,
 *    spawn processes or start workers;
 *  - network: Node 20's permission model does not cover sockets, so a preloaded module replaces
 *    socket connect/listen, `tls.connect`, UDP, `dns` and `fetch` with functions that throw (http,
 *    https and http2 all go through these). The permission model also denies `process.binding`
 *    and native addons, which closes the obvious ways around the block. Best effort: Forge's own
 *    analyst skills are reviewed files in the PM's skills folder.
 *  - in the desktop app, Node is an Electron utility process started by the shell's launcher
 *    (node-launcher.ts); it has no permission model, so those runs report `sandboxed: false`.
 *
 * `.py`, `.sh`, `.bash` and `#!` scripts — published skills' scripts, run only for a skill the PM
 * allowed (Settings → Skills), inside bubblewrap (see bubblewrap.ts): no network, writes only to a
 * fresh temporary folder (its working directory, removed afterwards), the same scrubbed environment.
 * Without a working bubblewrap they are refused, never run unconfined.
 *
 * Both: a timeout that kills the whole process group, and a cap on stdout.
 * Convention for scripts: on bad input print `{"error": "..."}` and exit with code 2.
 */

export interface RunSkillScriptOptions {
  /** The skill folder (the only place the script may read besides the system's own files). */
  skillDir: string;
  /** A program under `scripts/` (`kelly.mjs`, `scripts/fill_form.py`). */
  script: string;
  input: unknown;
  /** Command-line arguments after the script (published scripts take file names and flags). */
  args?: string[];
  timeoutMs?: number;
  maxOutputBytes?: number;
  signal?: AbortSignal;
  /** Extra environment entries; names that look like secrets are refused. */
  env?: Record<string, string>;
  /** `.mjs` only: use Node's permission model and the network block (default true). */
  sandbox?: boolean;
  /** The PM allowed this skill to run Python and shell scripts (Settings → Skills). Default false. */
  scriptsAllowed?: boolean;
  /** The skill's name for messages (default: the folder name). */
  skillName?: string;
  /** Where bubblewrap lives (default: `bwrap` on PATH); null when none is installed. */
  bwrapPath?: string | null;
  /** `.mjs` only: how Node is started (the desktop app passes a utility-process launcher); default: spawn `process.execPath`. */
  launchNode?: NodeScriptLauncher;
  /** Running inside Electron, where `process.execPath` is the app, not Node (default: `process.versions.electron` is set). */
  electron?: boolean;
  /**
   * `.mjs` only: the script is byte for byte the one shipped with Forge (a reviewed file). Where the
   * launcher has no permission model (the desktop app's utility process), only such scripts, or
   * those of a skill the PM allowed, run: nothing would stop another one reading the PM's files.
   */
  shippedWithForge?: boolean;
}

export interface SkillScriptResult {
  /** The parsed JSON the script printed; for Python and shell scripts that print prose, the text. */
  output: unknown;
  durationMs: number;
  /** Last few KiB of stderr (warnings the script printed). */
  stderr: string;
  sandboxed: boolean;
}

export { SkillScriptError, type SkillScriptFailure } from './json-process';

export const DEFAULT_SCRIPT_TIMEOUT_MS = 10_000;
export const DEFAULT_SCRIPT_OUTPUT_BYTES = 256 * 1024;
const SECRET_NAME = /(KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION)/i;
const MAX_ARGS = 32;

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
  for (const [k, v] of Object.entries(extra)) {
    if (SECRET_NAME.test(k)) throw new InvalidInputError(`Skill scripts may not receive "${k}": secrets never reach skill scripts.`);
    env[k] = v;
  }
  return env;
}

/**
 * Runs a script of an installed skill by skill name (either spelling): the one path the analyst's
 * sub-agents take (run_script). Refuses skills whose SKILL.md is invalid, names the available
 * scripts when the one asked for does not exist, and applies the PM's "Allow scripts" setting.
 */
export async function runScriptOfSkill(
  loader: SkillLoader,
  skill: string,
  script: string,
  input: unknown,
  options: Omit<RunSkillScriptOptions, 'skillDir' | 'script' | 'input' | 'scriptsAllowed' | 'skillName' | 'shippedWithForge'> = {},
): Promise<SkillScriptResult> {
  const loaded = loader.load(skill);
  loader.scriptPath(loaded.name, script);
  return runSkillScript({
    ...options,
    launchNode: options.launchNode ?? loader.nodeLauncher,
    skillDir: loaded.dir,
    script,
    input,
    skillName: loaded.name,
    scriptsAllowed: loader.scriptsAllowed(loaded.name),
    shippedWithForge: loader.shippedWithForge(loaded.name, script),
  });
}

/** Every refusal (bad path, bad input, not allowed, no sandbox) comes back as a rejected promise, never a throw. */
export async function runSkillScript(opts: RunSkillScriptOptions): Promise<SkillScriptResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_SCRIPT_TIMEOUT_MS;
  const maxOut = opts.maxOutputBytes ?? DEFAULT_SCRIPT_OUTPUT_BYTES;
  const skillDir = path.resolve(opts.skillDir);
  const rel = opts.script.replace(/\\/g, '/').startsWith('scripts/') ? opts.script : `scripts/${opts.script}`;
  const scriptAbs = resolveInside(skillDir, rel);
  const skillName = opts.skillName ?? path.basename(skillDir);
  const label = `${skillName}/${rel}`;

  if (!(timeoutMs > 0) || !(maxOut > 0)) throw new InvalidInputError('A skill script needs a positive timeout and output cap.');
  if (!fs.existsSync(scriptAbs)) throw new NotFoundError(`The skill script "${label}" does not exist.`);
  const args = opts.args ?? [];
  if (args.length > MAX_ARGS || args.some((a) => typeof a !== 'string' || a.includes('\0'))) {
    throw new InvalidInputError(`The arguments for "${label}" must be at most ${MAX_ARGS} strings without NUL bytes.`);
  }
  const language = scriptLanguage(scriptAbs);
  if (language === null) {
    throw new InvalidInputError(
      `"${label}" is not a script Forge can run: it runs Node ES modules (.mjs), Python (.py) and shell (.sh, .bash) scripts, or a file whose first line is a #! for python3, bash or sh.`,
    );
  }
  let stdin: string;
  try {
    stdin = JSON.stringify(opts.input ?? null);
  } catch (e) {
    throw new InvalidInputError(`The input for "${label}" is not JSON-serialisable: ${(e as Error).message}`);
  }
  const env = scrubbedEnv(opts.env);
  const base = { stdin, label, timeoutMs, maxOutputBytes: maxOut, signal: opts.signal };

  if (language === 'node') {
    const launcher = opts.launchNode;
    // Never execPath + ELECTRON_RUN_AS_NODE inside Electron: with the runAsNode fuse off that starts a second Forge.
    if (!launcher && (opts.electron ?? Boolean(process.versions.electron))) {
      throw new SkillScriptError(
        'unavailable',
        'no_launcher',
        `"${label}" was not run: inside the desktop app Node scripts run in the app's script host, and this run was given none.`,
      );
    }
    const execArgv: string[] = ['--no-warnings'];
    const perm = opts.sandbox === false ? null : launcher ? launcher.permissionFlag() : permissionFlag();
    if (perm === null && opts.sandbox !== false && opts.scriptsAllowed !== true && opts.shippedWithForge !== true) {
      throw new SkillScriptError(
        'forbidden',
        'not_allowed',
        `"${label}" was not run: here Node scripts run without a file-permission limit, so Forge runs only the scripts it ships ` +
          `and those of skills the PM allowed. The PM can turn on "Allow scripts" for "${skillName}" in Settings → Skills.`,
      );
    }
    if (perm) execArgv.push(perm, `--allow-fs-read=${realDirOf(skillDir)}${path.sep}`);
    if (opts.sandbox !== false) execArgv.push(`--import=${NETWORK_BLOCK_URL}`);
    const r = launcher
      ? await runJsonProcess({
          ...base,
          command: 'node',
          args: [scriptAbs, ...args],
          cwd: skillDir,
          env,
          start: () => launcher.launch({ script: scriptAbs, args, execArgv, env, cwd: skillDir }),
        })
      : await runJsonProcess({ ...base, command: process.execPath, args: [...execArgv, scriptAbs, ...args], cwd: skillDir, env });
    return { ...r, sandboxed: perm !== null };
  }
  return runConfined(language, { ...opts, skillName }, scriptAbs, label, env, base, args);
}

async function runConfined(
  language: Exclude<ScriptLanguage, 'node'>,
  opts: RunSkillScriptOptions & { skillName: string },
  scriptAbs: string,
  label: string,
  env: Record<string, string>,
  base: { stdin: string; label: string; timeoutMs: number; maxOutputBytes: number; signal?: AbortSignal },
  args: string[],
): Promise<SkillScriptResult> {
  const kind = language === 'python' ? 'Python' : 'shell';
  if (needsScriptPermission(language) && opts.scriptsAllowed !== true) {
    throw new SkillScriptError(
      'forbidden',
      'not_allowed',
      `"${label}" was not run: skill "${opts.skillName}" is not allowed to run ${kind} scripts. ` +
        `The PM can turn on "Allow scripts" for "${opts.skillName}" in Settings → Skills.`,
    );
  }
  const confinement = await checkConfinement(opts.bwrapPath);
  if (!confinement.ok) {
    throw new SkillScriptError(
      'unavailable',
      'no_sandbox',
      `"${label}" was not run: Forge runs ${kind} scripts only inside the bubblewrap sandbox, and ${confinement.reason}. ` +
        'It never runs them unconfined; install bubblewrap (the "bubblewrap" package on Linux) to use this script.',
    );
  }
  const interpreter = findInterpreter(language);
  if (!interpreter) {
    throw new SkillScriptError(
      'unavailable',
      'no_interpreter',
      `"${label}" was not run: it needs ${interpreterName(language)}, and none was found on this computer's PATH.`,
    );
  }
  // A fresh, empty folder per run: the script's working directory, HOME and TMPDIR, and the only place it can write.
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-skill-run-'));
  try {
    const realWork = fs.realpathSync(workDir);
    const sandboxEnv: Record<string, string> = {
      ...env,
      HOME: realWork,
      TMPDIR: realWork,
      PATH: `${path.dirname(interpreter.path)}:/usr/local/bin:/usr/bin:/bin`,
    };
    delete sandboxEnv.ELECTRON_RUN_AS_NODE;
    const bwrap = bwrapArgs({ skillDir: realDirOf(opts.skillDir), workDir: realWork, interpreter, script: scriptAbs, args });
    const r = await runJsonProcess({ ...base, command: confinement.bwrap, args: bwrap, cwd: realWork, env: sandboxEnv, allowText: true });
    return { ...r, sandboxed: true };
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

function realDirOf(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir); // reported by spawn
  }
}
