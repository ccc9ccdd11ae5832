import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import { finished, Writable } from 'node:stream';
import { InvalidInputError } from '../common/errors';
import type { NodeScriptLaunch, NodeScriptLauncher, StartedProcess } from '../host';
import type { HostedScriptRequest } from './script-host';

/**
 * How the desktop app runs `.mjs` skill scripts: in an Electron utility process, never by starting
 * its own binary with ELECTRON_RUN_AS_NODE (the `runAsNode` fuse is off in packaged builds, so that
 * would open a second Forge). The utility process runs skill-script-host.js, which receives the
 * script and its JSON input in one message (a utility process has no stdin pipe) and hands the
 * input to the script as `process.stdin`.
 *
 * What confinement this keeps and loses, compared with plain Node (`forge serve`, the dev CLI):
 *  - kept: the scrubbed environment, the skill folder as working directory, the network block
 *    (imported by the host before the script), the timeout that kills the process and the output cap;
 *  - lost: Node's permission model. Electron's utility process is reported not to honour
 *    `--permission`/`--allow-fs-read` in execArgv (measured on Electron 42 by daintreehq/daintree
 *    PR #10900; not measurable here without the binary), so this launcher says it has none
 *    (`permissionFlag()` → null) and every run reports `sandboxed: false`. A script can then read
 *    the PM's files, start processes, and reach `process.binding`, which makes the network block
 *    a speed bump rather than a wall.
 */

/** The part of Electron's UtilityProcess (electron.d.ts, Electron 45) this launcher uses. */
export interface UtilityChild {
  readonly pid: number | undefined;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  kill(): boolean;
  postMessage(message: unknown): void;
  once(event: 'spawn', listener: () => void): unknown;
  once(event: 'exit', listener: (code: number) => void): unknown;
}

export interface UtilityForkOptions {
  env: Record<string, string>;
  cwd: string;
  execArgv: string[];
  stdio: 'pipe';
  serviceName: string;
}

/** `utilityProcess.fork` in the app; a test passes one that starts plain Node with a stand-in parent port. */
export type UtilityFork = (modulePath: string, args: string[], options: UtilityForkOptions) => UtilityChild;

/** After the process exits, how long its output pipes may take to drain (a grandchild may hold them open). */
const DRAIN_MS = 2_000;

/** A utility process shaped as the spawn helper drives a child: stdin, stdout, stderr, kill, close. */
class UtilityScriptProcess extends EventEmitter {
  readonly stdin: Writable;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;

  constructor(
    private readonly child: UtilityChild,
    request: Omit<HostedScriptRequest, 'stdin'>,
  ) {
    super();
    this.stdout = child.stdout as Readable | null;
    this.stderr = child.stderr as Readable | null;
    const chunks: Buffer[] = [];
    this.stdin = new Writable({
      write(chunk: Buffer | string, _enc, done) {
        chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
        done();
      },
      final(done) {
        // The whole input goes in the one message the host waits for (the script contract is unchanged: JSON on stdin).
        const send = () => child.postMessage({ ...request, stdin: Buffer.concat(chunks).toString('utf8') } satisfies HostedScriptRequest);
        if (child.pid !== undefined) send();
        else child.once('spawn', send);
        done();
      },
    });
    child.once('exit', (code) => {
      const streams = [this.stdout, this.stderr].filter((s): s is Readable => s !== null);
      let pending = streams.length;
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        clearTimeout(drain);
        this.emit('close', code, null);
      };
      const drain = setTimeout(close, DRAIN_MS);
      if (pending === 0) close();
      for (const s of streams) {
        finished(s, () => {
          if (--pending === 0) close();
        });
      }
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  kill(): boolean {
    return this.child.kill();
  }
}

/** Node options the host can apply itself; anything else (a permission flag) it refuses rather than drop silently. */
function importsOf(execArgv: string[]): string[] {
  const imports: string[] = [];
  for (const a of execArgv) {
    if (a === '--no-warnings') continue;
    if (a.startsWith('--import=')) imports.push(a.slice('--import='.length));
    else throw new InvalidInputError(`The app's script host cannot apply the Node option "${a}"; the script was not run.`);
  }
  return imports;
}

export function createUtilityNodeLauncher(options: { fork: UtilityFork; hostModule: string }): NodeScriptLauncher {
  return {
    permissionFlag: () => null,
    launch(spec: NodeScriptLaunch): StartedProcess {
      const imports = importsOf(spec.execArgv);
      const child = options.fork(options.hostModule, [], {
        env: spec.env,
        cwd: spec.cwd,
        // The host applies the preloads itself: whether a utility process honours --import is not documented.
        execArgv: [],
        stdio: 'pipe',
        serviceName: 'Forge skill script',
      });
      return new UtilityScriptProcess(child, { script: spec.script, args: spec.args, imports }) as unknown as StartedProcess;
    },
  };
}
