import path from 'node:path';
import { AppError } from '../../common/errors';
import { isInside } from './confine';
import { type FlagRefusal, refuseProgramFlags } from './program-flags';

/**
 * The command line the builder gives run_command, split into argv here and run without a shell.
 *
 * Grammar (a deliberate subset of POSIX sh, enough for `npm test`, `python3 -m pytest -q -k "a or
 * b"`, `node --test`, `git commit -m 'msg'`):
 *  - words are separated by spaces or tabs;
 *  - '…' is literal text; "…" is literal text in which \" and \\ (also \$ and \`) are escapes;
 *  - quoted and unquoted parts next to each other join into one word (--name="a b").
 * Refused, because a shell would give them a meaning we do not (pipes, chaining, redirects,
 * substitution, globbing, brace and tilde expansion, comments, escapes, multi-line scripts):
 *  - outside quotes: ; | & > < $ ` ( ) * ? { } [ ] \ # and newlines, and ~ at the start of a word;
 *  - inside double quotes: an unescaped $ or ` (a shell would substitute there; use single quotes).
 * Builders run one program per call, never a pipeline.
 */

export type CommandRefusal =
  | 'empty'
  | 'metachar'
  | 'unterminated_quote'
  | 'path_program'
  | 'env_assignment'
  | 'not_allowed'
  | 'path_arg'
  | FlagRefusal['reason']
  /** No sandbox on this machine, and nobody to ask (or the PM said no). */
  | 'unconfined'
  | 'declined';

export class CommandRefusedError extends AppError {
  readonly reason: CommandRefusal;

  constructor(reason: CommandRefusal, message: string) {
    super(reason === 'empty' || reason === 'unterminated_quote' ? 'invalid_input' : 'forbidden', message);
    this.name = 'CommandRefusedError';
    this.reason = reason;
  }
}

/**
 * The programs run_command and run_tests may start by default: the toolchains a builder needs to
 * install, build and test a JavaScript, Python, Go or Rust project, git, and a few read-only
 * viewers. Not here on purpose: shells (bash, sh), network fetchers (curl, wget), deleters and
 * movers (rm, mv), privilege and process tools (sudo, kill), and launchers that run any other
 * program (env, xargs, nohup, timeout, find -exec). The list stops mistakes; it is not the sandbox —
 * node, python3, npm scripts and make recipes run whatever code the project holds, which is why
 * every command runs inside bubblewrap (see sandboxed.ts) or only with the PM's consent.
 */
export const DEFAULT_ALLOWED_COMMANDS: readonly string[] = [
  'node',
  'npm',
  'npx',
  'tsc',
  'vitest',
  'jest',
  'eslint',
  'prettier',
  'python3',
  'python',
  'pip',
  'pip3',
  'pytest',
  'go',
  'cargo',
  'make',
  'git',
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'diff',
  'echo',
  'pwd',
];

const OUTSIDE_QUOTES = new Set([';', '|', '&', '>', '<', '$', '`', '(', ')', '*', '?', '{', '}', '[', ']', '\\', '#', '\n', '\r']);
const DOUBLE_ESCAPES = new Set(['"', '\\', '$', '`']);

/** Splits a command line into argv by the grammar above, or says which character a shell would have read. */
export function parseCommandLine(line: string): string[] {
  const argv: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === ' ' || c === '\t') {
      if (inWord) argv.push(word);
      word = '';
      inWord = false;
    } else if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close === -1) throw unterminated("'");
      word += line.slice(i + 1, close);
      inWord = true;
      i = close;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        const d = line[j];
        if (d === '\\' && DOUBLE_ESCAPES.has(line[j + 1])) {
          word += line[++j];
        } else if (d === '$' || d === '`') {
          throw new CommandRefusedError(
            'metachar',
            `"${d}" inside double quotes would be expanded by a shell, and no shell runs here. Use single quotes for literal text, or write the value out.`,
          );
        } else word += d;
      }
      if (j >= line.length) throw unterminated('"');
      inWord = true;
      i = j;
    } else if (OUTSIDE_QUOTES.has(c) || (c === '~' && !inWord)) {
      throw metachar(c);
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) argv.push(word);
  if (argv.length === 0) throw new CommandRefusedError('empty', 'The command is empty; give a program and its arguments, such as "npm test".');
  return argv;
}

function unterminated(q: string): CommandRefusedError {
  return new CommandRefusedError('unterminated_quote', `The command has an unterminated ${q} quote; close it.`);
}

function metachar(c: string): CommandRefusedError {
  const shown = c === '\n' || c === '\r' ? 'a line break' : `"${c}"`;
  return new CommandRefusedError(
    'metachar',
    `The command contains ${shown}, which only a shell understands; run_command runs one program without a shell (no pipes, chaining, redirects, variables, globs or multi-line scripts). Quote the text if it is a literal argument, or make one call per program.`,
  );
}

/**
 * Refuses argv a build may not run: a program given by path or missing from the allow-list, an
 * environment assignment in front of it, or an argument naming a path outside the project
 * (absolute, ~/, or climbing out with ..). The argument check guards against mistakes only.
 */
export function checkArgv(argv: readonly string[], allowed: readonly string[], root: string): void {
  const program = argv[0];
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(program)) {
    throw new CommandRefusedError(
      'env_assignment',
      `"${program}" sets an environment variable; run_command does not support that. Put settings in the project's config files.`,
    );
  }
  if (program.includes('/') || program.includes('\\')) {
    throw new CommandRefusedError(
      'path_program',
      `"${program}" names a program by path; give an allowed program by name (${allowed.join(', ')}). To run a project script, use node or python3 with its path.`,
    );
  }
  if (!allowed.includes(program)) {
    throw new CommandRefusedError('not_allowed', `"${program}" is not an allowed program. Allowed: ${allowed.join(', ')}.`);
  }
  const refused = refuseProgramFlags(argv);
  if (refused) throw new CommandRefusedError(refused.reason, refused.message);
  for (const arg of argv.slice(1)) {
    const value = arg.startsWith('-') && arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : arg;
    if (leavesRoot(value, root)) {
      throw new CommandRefusedError(
        'path_arg',
        `The argument "${arg.slice(0, 200)}" points outside the project folder. Commands run in the project root; use paths relative to it.`,
      );
    }
  }
}

function leavesRoot(value: string, root: string): boolean {
  if (value.startsWith('/') || value.startsWith('~/') || value === '~') return true;
  if (!value.split(/[\\/]/).includes('..')) return false;
  return !isInside(root, path.resolve(root, value));
}
