import { Readable, type ReadableOptions } from 'node:stream';
import { pathToFileURL } from 'node:url';

/**
 * What runs a `.mjs` skill script inside an Electron utility process. The packaged app cannot start
 * its own binary as Node (the `runAsNode` fuse is off), and a utility process has no stdin pipe, so
 * the shell posts one message — the script, its arguments, the modules to preload and the JSON input
 * — and this host gives the script what plain Node would: `process.stdin` carrying that input, then
 * end; `process.argv` as `[node, script, ...args]`; the preloads (the network block) imported first.
 *
 * Scripts read their input from `process.stdin` (every script Forge ships does); reading file
 * descriptor 0 directly (`fs.readFileSync(0)`) finds nothing here.
 */

export interface HostedScriptRequest {
  /** Absolute path of the `.mjs` file. */
  script: string;
  args: string[];
  /** Module URLs imported before the script (`--import=` would do this in plain Node). */
  imports: string[];
  /** The script's whole standard input. */
  stdin: string;
}

export function isHostedScriptRequest(v: unknown): v is HostedScriptRequest {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  const strings = (a: unknown) => Array.isArray(a) && a.every((s) => typeof s === 'string');
  return typeof r.script === 'string' && typeof r.stdin === 'string' && strings(r.args) && strings(r.imports);
}

/** Resource kinds as Node counts them (`process.getActiveResourcesInfo()`), by kind. */
function resourceCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

function idleAgainst(baseline: Map<string, number>): boolean {
  for (const [kind, n] of resourceCounts()) if (n > (baseline.get(kind) ?? 0)) return false;
  return true;
}

/**
 * Makes `process.stdin` yield `input`, then end. On Windows Electron fixes `process.stdin` to an
 * already-ended stream with a non-configurable getter (lib/common/init.ts), so there the same stream
 * object is re-initialised with the input instead of being replaced.
 */
export function provideStdin(input: string): void {
  const own = Object.getOwnPropertyDescriptor(process, 'stdin');
  if (!own || own.configurable) {
    Object.defineProperty(process, 'stdin', { value: Readable.from([input]), configurable: true, enumerable: true });
    return;
  }
  const fixed = process.stdin as unknown as Readable;
  (Readable as unknown as (this: Readable, options: ReadableOptions) => void).call(fixed, { read() {} });
  fixed.push(input);
  fixed.push(null);
}

export interface HostOptions {
  exit?: (code: number) => void;
  /** How often to look whether the script left anything running (ms). */
  pollMs?: number;
}

/**
 * Runs the script and exits when it is done. A utility process does not end when its event loop
 * runs dry (electron/electron#47228), so "done" is judged here: the script's module has finished
 * evaluating and nothing it started (a timer, a file read, a pending write) is still active beyond
 * what the host itself had open before the script began. The parent's timeout covers the rest.
 */
export async function runHostedScript(request: HostedScriptRequest, options: HostOptions = {}): Promise<void> {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const fail = (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    exit(1);
  };
  // Plain Node ends a script on an uncaught error with code 1 and the stack on stderr: do the same.
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);

  provideStdin(request.stdin);
  process.argv = [process.argv[0] ?? 'node', request.script, ...request.args];
  // Touch the output streams first so their handles count as the host's own, not the script's.
  void process.stdout.writable;
  void process.stderr.writable;
  const baseline = resourceCounts();
  try {
    for (const url of request.imports) await import(url);
    await import(pathToFileURL(request.script).href);
  } catch (e) {
    fail(e);
    return;
  }
  const poll = setInterval(() => {
    if (!idleAgainst(baseline)) return;
    clearInterval(poll);
    exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  }, options.pollMs ?? 10);
  // Where the process does end by itself (plain Node), the poll must not be what keeps it alive.
  poll.unref();
}
