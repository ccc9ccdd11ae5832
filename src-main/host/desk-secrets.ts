import { createInterface } from 'node:readline';
import { InvalidInputError } from '../common/errors';

/**
 * Where `forge desk` reads passwords: an environment variable if set, else standard input — one
 * line per password, in the order the command asks for them, or, at a terminal, typed without
 * echo. Never from the command line (other users of the machine can read it in `ps`).
 */
export interface SecretInput {
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (on: boolean) => unknown };
  /** Where prompts go (the terminal; never stdout, which a script may be reading). */
  prompt: (text: string) => void;
}

export const processSecretInput = (): SecretInput => ({
  env: process.env,
  stdin: process.stdin,
  prompt: (text) => process.stderr.write(text),
});

export class SecretReader {
  private lines: AsyncIterator<string> | undefined;
  private close: (() => void) | undefined;

  constructor(private readonly input: SecretInput) {}

  /** The secret named `envName` in the environment, else the next line of stdin (typed unseen at a terminal). */
  async read(envName: string, label: string): Promise<string | undefined> {
    const fromEnv = this.input.env[envName];
    if (fromEnv) return fromEnv;
    if (this.atTerminal()) return this.typed(`${label} (not shown; or set ${envName}): `);
    if (!this.lines) {
      const rl = createInterface({ input: this.input.stdin, crlfDelay: Number.POSITIVE_INFINITY });
      this.lines = rl[Symbol.asyncIterator]();
      this.close = () => rl.close();
    }
    const next = await this.lines.next();
    return next.done ? undefined : next.value;
  }

  /**
   * A password being set: at a terminal it is typed twice (a typo would otherwise lock its owner
   * out of a desk nobody else can manage yet); from the environment or a pipe, read once.
   */
  async readNew(envName: string, label: string): Promise<string | undefined> {
    const first = await this.read(envName, label);
    if (first === undefined || this.input.env[envName] || !this.atTerminal()) return first;
    const again = await this.typed(`${label} again: `);
    if (again !== first) throw new InvalidInputError(`The two ${label} entries differ; nothing was changed. Run the command again.`, []);
    return first;
  }

  private atTerminal(): boolean {
    return this.input.stdin.isTTY === true && typeof this.input.stdin.setRawMode === 'function';
  }

  /** Lets go of stdin (an open reader would keep the process alive). */
  done(): void {
    this.close?.();
  }

  /** Reads one line at a terminal with echo off; Ctrl+C or Ctrl+D gives up. */
  private typed(promptText: string): Promise<string | undefined> {
    const stdin = this.input.stdin;
    this.input.prompt(promptText);
    stdin.setRawMode?.(true);
    stdin.resume();
    return new Promise((resolve) => {
      let text = '';
      const done = (value: string | undefined) => {
        stdin.removeListener('data', onData);
        stdin.setRawMode?.(false);
        stdin.pause();
        this.input.prompt('\n');
        resolve(value);
      };
      const onData = (chunk: Buffer | string) => {
        for (const ch of String(chunk)) {
          if (ch === '\r' || ch === '\n') return done(text);
          if (ch === '\u0003' || ch === '\u0004') return done(undefined);
          if (ch === '\u007f' || ch === '\b') text = [...text].slice(0, -1).join('');
          else text += ch;
        }
      };
      stdin.on('data', onData);
    });
  }
}
