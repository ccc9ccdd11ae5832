import fs from 'node:fs';
import path from 'node:path';
import { checkBubblewrap, onPath, programPrefix, sandboxArgs, scrubEnv } from '../../sandbox';
import { CommandRefusedError } from './argv';

/**
 * Where a build's command runs. On Linux with bubblewrap: inside the sandbox (src-main/sandbox) —
 * its own PID namespace, the project folder the only writable place with Forge/ and .git/
 * read-only (git itself may write .git/), the system read-only, no home folder, no network unless
 * the PM turned on "Allow network for this build", and a cap on processes. Without bubblewrap the
 * command runs only after the PM approved its class for this build; never silently unconfined.
 */

export interface CommandSandbox {
  /** Where bubblewrap lives (default: `bwrap` on PATH); null when none is installed. */
  bwrapPath?: string | null;
  /** The PM's "Allow network for this build" (default off). */
  allowNetwork?: boolean;
  /**
   * Asked before a command runs unconfined (no usable bubblewrap). Resolves true when the PM
   * allows it. Absent: unconfined commands are refused.
   */
  askUnconfined?: (request: UnconfinedCommandRequest) => Promise<boolean>;
}

export interface UnconfinedCommandRequest {
  /** `tests`, `npm install`, `git`, or the program's name: what one approval covers in a build. */
  commandClass: string;
  /** The exact command line. */
  commandLine: string;
  /** One sentence for the PM: commands are not confined on this machine, and why. */
  notice: string;
}

/** Processes one command may have at once: enough for parallel test runners, few enough to stop a fork bomb. */
export const MAX_COMMAND_PROCESSES = 512;
/** The stand-in home inside the sandbox (on its private /tmp): tools' caches land there and vanish. */
const SANDBOX_HOME = '/tmp/home';
const FALLBACK_PATH = '/usr/local/bin:/usr/bin:/bin';

export type Launch =
  | { kind: 'run'; command: string; args: string[]; env: Record<string, string>; confined: boolean; network: boolean }
  | { kind: 'missing'; message: string };

/** What one approval covers: installs are their own class (they reach the network and run package scripts). */
export function commandClassOf(argv: readonly string[]): string {
  const [program, sub] = argv;
  if (['npm', 'pnpm', 'yarn'].includes(program) && ['install', 'i', 'ci', 'add'].includes(sub ?? '')) return 'npm install';
  if ((program === 'pip' || program === 'pip3') && sub === 'install') return 'pip install';
  if ((program === 'python' || program === 'python3') && sub === '-m' && argv[2] === 'pip') return 'pip install';
  return program;
}

export function unconfinedNotice(reason: string): string {
  return `Commands are not confined on this machine (${reason}), so this one would run with your own access to files, network and processes.`;
}

/** How to start `argv` for a build: the sandboxed command line, or the bare one after the PM's consent. */
export async function prepareLaunch(
  root: string,
  argv: string[],
  commandLine: string,
  o: { sandbox?: CommandSandbox; commandClass?: string; env?: NodeJS.ProcessEnv; maxProcesses?: number },
): Promise<Launch> {
  const env = scrubEnv(o.env);
  const check = await checkBubblewrap(o.sandbox?.bwrapPath);
  if (!check.ok) {
    const request = { commandClass: o.commandClass ?? commandClassOf(argv), commandLine, notice: unconfinedNotice(check.reason) };
    if (!o.sandbox?.askUnconfined) {
      throw new CommandRefusedError(
        'unconfined',
        `"${commandLine}" was not run: ${request.notice} Forge runs a build's commands unconfined only when the PM approves them on the Builds screen.`,
      );
    }
    if (!(await o.sandbox.askUnconfined(request))) {
      throw new CommandRefusedError(
        'declined',
        `The PM did not allow "${commandLine}" to run unconfined on this machine. Do the work without it, or say why it is needed (STOP ENVIRONMENT_LIMITATION).`,
      );
    }
    // Found here rather than by spawn: the process-cap wrapper (a shell) would hide spawn's "not found".
    if (process.platform !== 'win32' && !onPath(argv[0], env.PATH ?? '').length) return missing(argv[0]);
    return { kind: 'run', command: argv[0], args: argv.slice(1), env, confined: false, network: true };
  }
  const searchPath = `${env.PATH ?? ''}${path.delimiter}${FALLBACK_PATH}`;
  const program = onPath(argv[0], searchPath)[0];
  if (!program) return missing(argv[0]);
  const network = !!o.sandbox?.allowNetwork;
  // Node-based tools (npm, npx, tsc, vitest) run `node` too: its install prefix comes along, read-only.
  const prefixes = [programPrefix(program, searchPath), programPrefix('node', searchPath)];
  const args = sandboxArgs({
    argv: [program, ...argv.slice(1)],
    chdir: root,
    readOnly: [...prefixes.filter((p): p is string => p !== null), ...certificateFiles(env)],
    writable: root,
    readOnlyInside: readOnlyTops(root, argv[0] !== 'git'),
    network,
    tmpDirs: [SANDBOX_HOME],
    maxProcesses: o.maxProcesses ?? MAX_COMMAND_PROCESSES,
  });
  return { kind: 'run', command: check.bwrap, args, env: { ...env, HOME: SANDBOX_HOME, TMPDIR: '/tmp' }, confined: true, network };
}

function missing(program: string): Launch {
  return { kind: 'missing', message: `"${program}" is not installed or not on PATH on this machine.` };
}

/** Certificate bundles the host's environment names (a corporate proxy's CA): visible, read-only, so TLS still verifies. */
const CERT_VARS = ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE', 'PIP_CERT'];
function certificateFiles(env: Record<string, string>): string[] {
  return CERT_VARS.map((v) => env[v]).filter((p): p is string => !!p && path.isAbsolute(p) && fs.existsSync(p));
}

/** The project's Forge/ (any case) and, except for git itself, .git/: mounted read-only over the writable project. */
function readOnlyTops(root: string, includeGit: boolean): string[] {
  let names: string[] = [];
  try {
    names = fs.readdirSync(root);
  } catch {
    return [];
  }
  return names.filter((n) => n.toLowerCase() === 'forge' || (includeGit && n.toLowerCase() === '.git')).map((n) => path.join(root, n));
}
