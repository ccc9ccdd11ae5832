import { inspect } from 'node:util';

/**
 * One policy for errors nothing caught, in every long-running Forge process (`forge serve`,
 * `forge mcp`, the desktop app): a throw in a timer or an event listener (`uncaughtException`) and
 * a promise rejected with no handler (`unhandledRejection`) are logged with their stack, counted,
 * and the process keeps serving. Node's default — exit — would take the PM's open page, every IDE
 * attached over MCP and any run in flight down with one stray bug.
 *
 * Fatal (logged, then exit 70 so a supervisor or the PM restarts us): only errors saying the
 * process is out of memory (ENOMEM, or an allocation that failed). After those the heap is in a
 * state where the next step may fail anywhere; carrying on would serve wrong answers, not keep the
 * host up. A V8 heap exhaustion aborts the process before any handler runs and cannot be helped.
 *
 * The log never carries secrets: the run's token and environment values whose names look secret
 * are replaced, as are `token=…`, `Bearer …` and `sk-…` patterns.
 */

export interface CrashPolicyOptions {
  /** Names the process in each log line: `forge serve`, `forge mcp`, `forge app`. */
  name: string;
  /** Where a log entry goes (default: stderr, the host's log). */
  write?: (entry: string) => void;
  /** How a fatal error ends the process (default: process.exit). */
  exit?: (code: number) => void;
  /** Where the two events come from (default: process; tests pass their own emitter). */
  source?: Pick<NodeJS.EventEmitter, 'on' | 'off'>;
}

export interface CrashPolicy {
  /** Unexpected errors seen since install. */
  readonly count: number;
  /** A value that must never appear in the log (the run's token, once it is known). */
  hide(secret: string): void;
  /** Removes the handlers (tests, and a process that is shutting down). */
  uninstall(): void;
}

/** Exit status for a fatal error: EX_SOFTWARE, "internal software error". */
export const FATAL_EXIT_CODE = 70;
/** Past this many, only every hundredth entry is written: a timer throwing every tick must not fill the disk. */
const FULL_LOG_LIMIT = 100;
const MAX_ENTRY_CHARS = 8_000;
const SECRET_ENV_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSPHRASE|CREDENTIAL/i;

export function isFatal(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code === 'ENOMEM' || e.code === 'ERR_MEMORY_ALLOCATION_FAILED') return true;
  return error instanceof RangeError && /allocation failed|out of memory/i.test(String(e.message));
}

/** The error with its stack (and its cause's), never its other fields: those can hold headers or config. */
export function describeError(error: unknown, depth = 0): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    let text = `${error.stack ?? `${error.name}: ${error.message}`}${code ? ` [${code}]` : ''}`;
    if (error.cause !== undefined && depth < 3) text += `\nCaused by: ${describeError(error.cause, depth + 1)}`;
    return text;
  }
  return `${typeof error === 'string' ? error : inspect(error, { depth: 2, breakLength: 120 })} (thrown value is not an Error, so it has no stack)`;
}

export function redact(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const s of secrets) if (s.length >= 8) out = out.split(s).join('[redacted]');
  return out
    .replace(/(token=)[^&\s"'<>]+/gi, '$1[redacted]')
    .replace(/(bearer\s+)[^\s"'<>]+/gi, '$1[redacted]')
    .replace(/\bsk-[A-Za-z0-9_-]{8,}/g, 'sk-[redacted]');
}

export function installCrashPolicy(options: CrashPolicyOptions): CrashPolicy {
  const write =
    options.write ??
    ((entry: string) => {
      try {
        process.stderr.write(`${entry}\n`);
      } catch {
        // Nowhere left to log; the count still goes up.
      }
    });
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const secrets = new Set<string>();
  for (const [name, value] of Object.entries(process.env)) if (value && SECRET_ENV_NAME.test(name)) secrets.add(value);
  let count = 0;
  let handling = false;

  const onError = (error: unknown, kind: 'uncaughtException' | 'unhandledRejection') => {
    count++;
    // An error raised while logging the last one (a broken stderr) must not recurse.
    if (handling) return;
    handling = true;
    try {
      const fatal = isFatal(error);
      if (fatal || count <= FULL_LOG_LIMIT || count % 100 === 0) {
        const outcome = fatal ? `fatal (out of memory), exiting with status ${FATAL_EXIT_CODE}` : 'logged; still serving';
        const head = `${options.name}: unexpected error ${count} (${kind}), ${outcome}: `;
        write(redact(head + describeError(error), secrets).slice(0, MAX_ENTRY_CHARS));
      }
      if (fatal) exit(FATAL_EXIT_CODE);
    } finally {
      handling = false;
    }
  };
  const onException = (error: Error) => onError(error, 'uncaughtException');
  const onRejection = (reason: unknown) => onError(reason, 'unhandledRejection');
  // A closed stderr reports EPIPE as an 'error' event: with nobody reading, it is not worth a crash.
  const onStderrError = () => undefined;
  const source = options.source ?? process;
  source.on('uncaughtException', onException);
  source.on('unhandledRejection', onRejection);
  if (!options.write) process.stderr.on('error', onStderrError);

  return {
    get count() {
      return count;
    },
    hide(secret: string) {
      if (secret) secrets.add(secret);
    },
    uninstall() {
      source.off('uncaughtException', onException);
      source.off('unhandledRejection', onRejection);
      process.stderr.off('error', onStderrError);
    },
  };
}
