import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError, InvalidInputError, NotFoundError } from '../../common/errors';
import { realRoot, relativeName, resolveInside } from './confine';
import { looksBinary, MAX_TEXT_FILE_BYTES, readDirSorted, SKIPPED_DIRS } from './walk';

/**
 * The builder's file tools over the working directory: read, list, write (atomic) and exact-text
 * edits (all or nothing). Each takes the root and a model-given path and confines it first.
 */

/** Lines one read_file call returns unless asked for fewer. */
export const DEFAULT_READ_LINES = 2000;
/** A page of read_file stops before this many characters, at a line boundary. */
export const MAX_READ_CHARS = 100_000;
/** The largest file write_file writes (2 MB): a generated file bigger than this is a mistake. */
export const MAX_WRITE_BYTES = 2 * 1024 * 1024;
/** Entries list_directory shows before it summarises the rest. */
export const MAX_LIST_ENTRIES = 300;

export interface ReadOptions {
  /** First line to return, 1-based. */
  offset?: number;
  /** How many lines. */
  limit?: number;
}

/** A text file's content (a page of it when long), with a closing note when more remains. */
export async function readProjectFile(workDir: string, given: string, opts: ReadOptions = {}): Promise<string> {
  const { name, text } = await readTextFile(workDir, given);
  if (text === '') return '[empty file]';
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const total = lines.length;
  const first = opts.offset ?? 1;
  if (first > total) throw new InvalidInputError(`"${name}" has ${total} lines; offset ${first} is past its end.`);
  const wanted = Math.min(opts.limit ?? DEFAULT_READ_LINES, total - first + 1);
  let shown = 0;
  let chars = 0;
  while (shown < wanted) {
    const next = lines[first - 1 + shown].length + 1;
    if (shown > 0 && chars + next > MAX_READ_CHARS) break;
    chars += next;
    shown++;
  }
  const page = lines.slice(first - 1, first - 1 + shown).join('\n');
  const last = first + shown - 1;
  if (first === 1 && last === total) return page;
  const more = last < total ? `; read_file with offset=${last + 1} continues` : '';
  return `${page}\n[lines ${first}-${last} of ${total}${more}]`;
}

/** A whole text file inside the project: confined, and refused when missing, a folder, over 1 MB or binary. */
export async function readTextFile(workDir: string, given: string): Promise<{ abs: string; name: string; text: string }> {
  const { abs, name } = await existingFile(workDir, given);
  const bytes = await fsp.readFile(abs);
  if (looksBinary(bytes)) throw new InvalidInputError(`"${name}" is a binary file; project tools read text files only.`);
  return { abs, name, text: bytes.toString('utf8') };
}

async function existingFile(workDir: string, given: string): Promise<{ abs: string; name: string; stat: Stats }> {
  const abs = resolveInside(workDir, given, { write: false });
  const name = relativeName(realRoot(workDir), abs);
  const stat = await statOrNull(abs);
  if (!stat) throw new NotFoundError(`There is no file "${given}". list_directory or search_code shows what exists.`);
  if (stat.isDirectory()) throw new InvalidInputError(`"${name}" is a folder; use list_directory to see inside it.`);
  if (stat.size > MAX_TEXT_FILE_BYTES) {
    throw new AppError('too_large', `"${name}" is ${mb(stat.size)}; project tools read files up to 1 MB. Use search_code to find the lines you need.`);
  }
  return { abs, name, stat };
}

async function statOrNull(abs: string): Promise<Stats | null> {
  try {
    return await fsp.stat(abs);
  } catch {
    return null;
  }
}

function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * A tree of the folder at `given` (the root when empty), folders first, down to `depth` levels.
 * Skipped folders show as one line; folders below the depth show how many entries they hold.
 */
export async function listProjectDirectory(workDir: string, given = '.', depth = 2, maxEntries = MAX_LIST_ENTRIES): Promise<string> {
  const abs = resolveInside(workDir, given || '.', { write: false });
  const stat = await statOrNull(abs);
  if (!stat) throw new NotFoundError(`There is no folder "${given}". List the root (no path) to see what exists.`);
  if (!stat.isDirectory()) throw new InvalidInputError(`"${given}" is a file; use read_file to read it.`);
  const tree = await renderTree(abs, { depth, maxEntries });
  const name = relativeName(realRoot(workDir), abs);
  const indented = tree ? tree.replace(/^/gm, '  ') : '  (empty)';
  return `${name === '.' ? '(project root)' : `${name}/`}\n${indented}`;
}

export interface TreeOptions {
  depth: number;
  maxEntries: number;
  /** Show Forge/ at the top level as one line instead of descending into it. */
  collapseForge?: boolean;
}

/** Tree lines under `dir` (its entries unindented); entries past the cap are counted (up to a bound) and summarised. */
export async function renderTree(dir: string, opts: TreeOptions): Promise<string> {
  const lines: string[] = [];
  let hidden = 0;
  const COUNT_BOUND = 10_000;
  const visit = async (d: string, level: number): Promise<void> => {
    for (const e of await readDirSorted(d)) {
      if (lines.length >= opts.maxEntries) {
        hidden++;
        if (hidden >= COUNT_BOUND) return;
        if (e.isDirectory() && !SKIPPED_DIRS.has(e.name) && level < opts.depth) await visit(path.join(d, e.name), level + 1);
        continue;
      }
      const indent = '  '.repeat(level - 1);
      if (e.isSymbolicLink()) lines.push(`${indent}${e.name} (link)`);
      else if (!e.isDirectory()) lines.push(`${indent}${e.name}`);
      else if (SKIPPED_DIRS.has(e.name)) lines.push(`${indent}${e.name}/ (not listed)`);
      else if (opts.collapseForge && level === 1 && e.name.toLowerCase() === 'forge') lines.push(`${indent}Forge/ (governance, read-only)`);
      else if (level >= opts.depth) lines.push(`${indent}${e.name}/ (${await countEntries(path.join(d, e.name))} entries)`);
      else {
        lines.push(`${indent}${e.name}/`);
        await visit(path.join(d, e.name), level + 1);
      }
    }
  };
  await visit(dir, 1);
  if (hidden) lines.push(`… ${hidden >= COUNT_BOUND ? `${COUNT_BOUND}+` : hidden} more entries (list a subfolder to see them)`);
  return lines.join('\n');
}

async function countEntries(dir: string): Promise<number> {
  try {
    return (await fsp.readdir(dir)).length;
  } catch {
    return 0;
  }
}

export interface WriteOutcome {
  path: string;
  created: boolean;
  lines: number;
  bytes: number;
}

/**
 * Writes the whole file atomically: a temporary file beside it, then a rename, so a crash or a
 * reader never sees half a file. Parent folders are created; an existing file keeps its mode.
 */
export async function writeProjectFile(workDir: string, given: string, content: string): Promise<WriteOutcome> {
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > MAX_WRITE_BYTES) {
    throw new AppError('too_large', `That content is ${mb(bytes)}; write_file writes files up to 2 MB. Split it into smaller files.`);
  }
  const abs = resolveInside(workDir, given, { write: true });
  const name = relativeName(realRoot(workDir), abs);
  const before = await statOrNull(abs);
  if (before?.isDirectory()) throw new InvalidInputError(`"${name}" is a folder; give a file path inside it.`);
  try {
    await fsp.mkdir(path.dirname(abs), { recursive: true });
  } catch (e) {
    throw new InvalidInputError(`Could not create the folders for "${name}": ${(e as Error).message}. A file may stand where a folder is needed.`);
  }
  await atomicWrite(abs, content, before?.mode);
  return { path: name, created: !before, lines: countLines(content), bytes };
}

async function atomicWrite(abs: string, content: string, mode: number | undefined): Promise<void> {
  const tmp = path.join(path.dirname(abs), `.${path.basename(abs)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await fsp.writeFile(tmp, content, { encoding: 'utf8', mode: mode === undefined ? 0o666 : mode & 0o7777, flag: 'wx' });
    await fsp.rename(tmp, abs);
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    throw e;
  }
}

export function countLines(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

export interface TextEdit {
  old_text: string;
  new_text: string;
}

export interface EditOutcome {
  path: string;
  applied: number;
  /** Lines in the file after the edits. */
  lines: number;
}

/**
 * Applies exact-text replacements in order. Each old_text must occur exactly once in the file as
 * it stands after the edits before it; otherwise nothing is written and the error names the edit.
 */
export async function editProjectFile(workDir: string, given: string, edits: readonly TextEdit[]): Promise<EditOutcome> {
  if (edits.length === 0) throw new InvalidInputError('edit_file needs at least one edit.');
  const abs = resolveInside(workDir, given, { write: true });
  const { name, stat } = await existingFile(workDir, given);
  const bytes = await fsp.readFile(abs);
  if (looksBinary(bytes)) throw new InvalidInputError(`"${name}" is a binary file; edit_file edits text files only.`);
  let text = bytes.toString('utf8');
  for (const [i, edit] of edits.entries()) {
    const label = `Edit ${i + 1} of ${edits.length}`;
    if (edit.old_text === '') throw new InvalidInputError(`${label}: old_text is empty. Nothing was written.`);
    let { old_text: oldText, new_text: newText } = edit;
    let count = occurrences(text, oldText);
    // A file with Windows line endings: the model writes \n; match it as the file spells it.
    if (count === 0 && text.includes('\r\n') && oldText.includes('\n') && !oldText.includes('\r\n')) {
      oldText = oldText.replace(/\n/g, '\r\n');
      newText = newText.replace(/\r?\n/g, '\r\n');
      count = occurrences(text, oldText);
    }
    const after = i > 0 ? ` as it stands after edit${i > 1 ? 's' : ''} 1${i > 1 ? `-${i}` : ''}` : '';
    if (count === 0) {
      throw new InvalidInputError(
        `${label}: old_text was not found in "${name}"${after}. Nothing was written. Read the file again and copy the exact text, whitespace included.`,
      );
    }
    if (count > 1) {
      throw new InvalidInputError(
        `${label}: old_text occurs ${count} times in "${name}"${after}. Nothing was written. Include more surrounding lines so it matches exactly once.`,
      );
    }
    const at = text.indexOf(oldText);
    // Slices, not String.replace: "$&" and "$1" in new_text stay literal.
    text = text.slice(0, at) + newText + text.slice(at + oldText.length);
  }
  await atomicWrite(abs, text, stat.mode);
  return { path: name, applied: edits.length, lines: countLines(text) };
}

/** How many times `needle` occurs, overlaps included (an overlapping match is still ambiguous). */
function occurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) n++;
  return n;
}
