import fsp from 'node:fs/promises';
import vm from 'node:vm';
import { AppError, InvalidInputError } from '../../common/errors';
import { realRoot } from './confine';
import { globToRegExp, looksBinary, MAX_TEXT_FILE_BYTES, walkFiles } from './walk';

/**
 * search_code: a regular expression (or literal text) over the project's text files, one line
 * per match as `path:line: text`. The regex comes from the model, so it runs under a time budget
 * in a VM context: a pattern that backtracks catastrophically is stopped, not left to freeze the
 * main process.
 */

export const MAX_MATCHES = 200;
/** A matched line is shown up to this many characters. */
const MAX_LINE_CHARS = 200;
/** The whole search's budget for running the pattern. */
const SEARCH_BUDGET_MS = 10_000;

export interface SearchOptions {
  pattern: string;
  glob?: string;
  literal?: boolean;
  ignoreCase?: boolean;
  maxMatches?: number;
  budgetMs?: number;
}

export interface SearchMatch {
  path: string;
  line: number;
  text: string;
}

export interface SearchOutcome {
  matches: SearchMatch[];
  filesSearched: number;
  /** More matches existed than were kept. */
  truncated: boolean;
}

// Runs inside the VM context, so the timeout can interrupt a runaway match.
const SCAN = `
function __scan(re, text, max) {
  const hits = [];
  const lines = text.split('\\n');
  for (let i = 0; i < lines.length && hits.length < max; i++) {
    if (re.test(lines[i])) hits.push([i + 1, lines[i]]);
  }
  return hits;
}`;
const CALL = new vm.Script('__out = __scan(__re, __text, __max)');

export function compilePattern(pattern: string, literal = false, ignoreCase = false): RegExp {
  const source = literal ? pattern.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&') : pattern;
  try {
    return new RegExp(source, ignoreCase ? 'i' : '');
  } catch (e) {
    throw new InvalidInputError(
      `"${pattern}" is not a valid regular expression (${(e as Error).message.replace(/^Invalid regular expression: /, '')}). Escape special characters with \\ or pass literal: true.`,
    );
  }
}

export async function searchCode(workDir: string, opts: SearchOptions): Promise<SearchOutcome> {
  if (opts.pattern === '') throw new InvalidInputError('search_code needs a non-empty pattern.');
  const re = compilePattern(opts.pattern, opts.literal, opts.ignoreCase);
  if (opts.glob && (opts.glob.startsWith('/') || opts.glob.split('/').includes('..'))) {
    throw new InvalidInputError(`The glob "${opts.glob}" must be relative to the project root, such as "src/**/*.ts".`);
  }
  const pathFilter = opts.glob ? globToRegExp(opts.glob) : null;
  const max = opts.maxMatches ?? MAX_MATCHES;
  const deadline = performance.now() + (opts.budgetMs ?? SEARCH_BUDGET_MS);
  const ctx = vm.createContext({ __re: re, __text: '', __max: 0, __out: null });
  vm.runInContext(SCAN, ctx);
  const matches: SearchMatch[] = [];
  let filesSearched = 0;
  let truncated = false;
  // Forge/ is skipped: contracts are read through the forge tools, and their text must not leak into the code.
  for await (const file of walkFiles(realRoot(workDir), { skipForge: true })) {
    if (pathFilter && !pathFilter.test(file.rel)) continue;
    const text = await readSearchable(file.abs);
    if (text === null) continue;
    filesSearched++;
    ctx.__text = text;
    ctx.__max = max - matches.length + 1;
    const left = Math.max(1, Math.floor(deadline - performance.now()));
    try {
      CALL.runInContext(ctx, { timeout: left });
    } catch (e) {
      if ((e as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw e;
      throw new AppError(
        'unavailable',
        `The pattern took too long to run (stopped in ${file.rel}). Simplify it — nested repeats such as (a+)+ backtrack without end — narrow the glob, or pass literal: true.`,
      );
    }
    for (const [line, content] of ctx.__out as [number, string][]) {
      if (matches.length >= max) {
        truncated = true;
        break;
      }
      matches.push({ path: file.rel, line, text: clipLine(content) });
    }
    if (truncated) break;
  }
  return { matches, filesSearched, truncated };
}

async function readSearchable(abs: string): Promise<string | null> {
  try {
    const stat = await fsp.stat(abs);
    if (stat.size > MAX_TEXT_FILE_BYTES) return null;
    const bytes = await fsp.readFile(abs);
    return looksBinary(bytes) ? null : bytes.toString('utf8');
  } catch {
    return null;
  }
}

function clipLine(line: string): string {
  const t = line.replace(/\r$/, '').trim();
  return t.length > MAX_LINE_CHARS ? `${t.slice(0, MAX_LINE_CHARS)}…` : t;
}

/** The text the model reads: one `path:line: text` per match, and a note when capped or empty. */
export function formatSearch(outcome: SearchOutcome, opts: Pick<SearchOptions, 'pattern' | 'glob'>): string {
  const where = opts.glob ? ` in files matching ${opts.glob}` : '';
  if (outcome.matches.length === 0) return `No matches for ${JSON.stringify(opts.pattern)}${where} (${outcome.filesSearched} files searched).`;
  const lines = outcome.matches.map((m) => `${m.path}:${m.line}: ${m.text}`);
  if (outcome.truncated) lines.push(`[stopped at ${outcome.matches.length} matches; narrow the pattern or the glob]`);
  return lines.join('\n');
}
