import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import type { SpecDocument, SpecTask } from './types';
import { countSpecTokens } from './tokens';

/**
 * Markdown helpers every format adapter shares. They only read: a spec package is the user's own
 * files, so nothing here opens a file for writing.
 */

/** A file's text as the model will see it: BOM removed, line endings \n. */
export function readText(path: string): string {
  return readFileSync(path, 'utf8')
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n');
}

export function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Entries of a folder, sorted so every reading of the same package lists the same order; [] if absent. */
export function listDir(path: string): string[] {
  try {
    return readdirSync(path).sort((a, b) => a.localeCompare(b, 'en'));
  } catch {
    return [];
  }
}

/** A document id: the path relative to the package root with `/` separators, whatever the OS. */
export function docId(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}

/** The first `#` heading outside a code fence, or the file name when the document has none. */
export function titleOf(text: string, fallback: string): string {
  let inFence = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const m = /^#\s+(.+?)\s*#*\s*$/.exec(line);
    if (m) return m[1];
  }
  return fallback;
}

const BRIEF_MAX = 300;

/**
 * The first paragraph of prose (not a heading, a fence, a table, front matter or an HTML comment),
 * trimmed to ~300 characters: what a document says about itself, shown when the model chooses what to read.
 */
export function briefOf(text: string): string {
  const lines = text.split('\n');
  let i = 0;
  if (lines[0]?.trim() === '---') {
    // YAML front matter (Kiro steering, some templates) is metadata, not the document's prose.
    const end = lines.findIndex((l, j) => j > 0 && l.trim() === '---');
    if (end > 0) i = end + 1;
  }
  let inFence = false;
  let inComment = false;
  const para: string[] = [];
  for (; i < lines.length; i++) {
    const line = lines[i];
    const t = line.trim();
    if (/^(```|~~~)/.test(t)) {
      inFence = !inFence;
      if (para.length) break;
      continue;
    }
    if (inFence) continue;
    if (inComment || t.startsWith('<!--')) {
      inComment = !t.includes('-->');
      if (para.length) break;
      continue;
    }
    // `**Status**: Draft` lines are a template's metadata (spec-kit), not what the document is about.
    const meta = /^\*\*[^*]+\*\*:/.test(t) || /^\*\*[^*]+:\*\*/.test(t);
    const skip = t === '' || /^#{1,6}\s/.test(t) || t.startsWith('|') || /^[-*_]{3,}$/.test(t) || meta;
    if (skip) {
      if (para.length) break;
      continue;
    }
    para.push(t);
  }
  const brief = para.join(' ').replace(/\s+/g, ' ').trim();
  return brief.length > BRIEF_MAX ? `${brief.slice(0, BRIEF_MAX - 1).trimEnd()}…` : brief;
}

/** A document read from disk into the contract model. */
export function makeDocument(root: string, path: string, kind: string): SpecDocument {
  const text = readText(path);
  const id = docId(root, path);
  const name = id.split('/').pop() ?? id;
  if (!/\.(md|markdown|txt)$/i.test(name)) {
    // YAML and JSON (OpenAPI, JSON Schema, physics.yaml) describe themselves in fields, not headings.
    const self = describeStructured(text);
    return { id, kind, title: self.title || name, brief: self.brief, tokens: countSpecTokens(text), text };
  }
  return { id, kind, title: titleOf(text, name), brief: briefOf(text), tokens: countSpecTokens(text), text };
}

// Loaded on first use, not at start-up: `forge mcp` reaches this module, and an IDE times its spawn
// (the YAML parser is ~10% of the time to `initialize`). Same pattern as the tokenizer in tokens.ts.
let yaml: typeof import('yaml') | undefined;
function parseYaml(text: string): unknown {
  yaml ??= createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yaml.parse(text);
}

/**
 * What a YAML or JSON document says about itself: a leading comment, or `info.title`/`info.description`
 * (OpenAPI), `title`/`description`/`$comment` (JSON Schema, Forge's boundaries.json).
 */
export function describeStructured(text: string): { title: string; brief: string } {
  const comment = /^\s*((?:#[^\n]*\n?)+)/.exec(text);
  const commentText = comment
    ? comment[1]
        .split('\n')
        .map((l) => l.replace(/^#\s?/, '').trim())
        .filter(Boolean)
        .join(' ')
    : '';
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch {
    // Unparseable YAML/JSON is still listed (the model may read it); it just describes nothing.
  }
  const obj = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
  const info = (obj.info && typeof obj.info === 'object' ? obj.info : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const title = str(info.title) || str(obj.title);
  const brief = commentText || str(info.description) || str(obj.description) || str(obj.$comment) || title;
  return { title, brief: brief.length > BRIEF_MAX ? `${brief.slice(0, BRIEF_MAX - 1).trimEnd()}…` : brief };
}

/** Every file under a folder (recursively), sorted; hidden folders and node_modules skipped. */
export function walkFiles(dir: string, depth = 6): string[] {
  if (depth < 0) return [];
  const out: string[] = [];
  for (const name of listDir(dir)) {
    if (name.startsWith('.') || name === 'node_modules') continue;
    const p = join(dir, name);
    if (isDir(p)) out.push(...walkFiles(p, depth - 1));
    else if (isFile(p)) out.push(p);
  }
  return out;
}

/** One Markdown line split by fences: true for each line inside a ``` or ~~~ block (fence lines included). */
export function fenceMask(lines: string[]): boolean[] {
  let inFence = false;
  return lines.map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      return true;
    }
    return inFence;
  });
}

// Kiro marks optional tasks `- [ ]* 2.3 …`; they are tasks all the same.
const CHECK = /^(\s*)[-*+]\s+\[([ xX])\]\*?\s+(.*)$/;
const BULLET_NUM = /^(\s*)(?:[-*+]\s+)?(\d+(?:\.\d+)*)[.)]?\s+(.*)$/;

/**
 * The checklist of a block of Markdown as tasks, nesting by indentation: `- [ ] T001 [P] text`,
 * `- [x] 1.2 text`, and Kiro's detail lines under an item (`_Requirements: 1.2, 3.1_`).
 * Plain bullets are not tasks: only checkbox items are, so prose lists stay prose.
 */
export function parseChecklist(block: string, firstOrdinal = 1): SpecTask[] {
  const lines = block.split('\n');
  const mask = fenceMask(lines);
  const roots: SpecTask[] = [];
  const stack: { indent: number; task: SpecTask }[] = [];
  let ordinal = firstOrdinal - 1;
  for (let i = 0; i < lines.length; i++) {
    if (mask[i]) continue;
    const line = lines[i].replace(/\t/g, '    ');
    const m = CHECK.exec(line);
    if (m) {
      const indent = m[1].length;
      while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
      const task = taskFromText(m[3], m[2] !== ' ');
      const parent = stack[stack.length - 1]?.task;
      if (parent) {
        if (!task.id) task.id = `${parent.id}.${(parent.subtasks?.length ?? 0) + 1}`;
        parent.subtasks = [...(parent.subtasks ?? []), task];
      } else {
        ordinal += 1;
        if (!task.id) task.id = String(ordinal);
        roots.push(task);
      }
      stack.push({ indent, task });
      continue;
    }
    const refs = /_?Requirements?:\s*([^_]+)_?/i.exec(line);
    const owner = stack[stack.length - 1]?.task;
    if (refs && owner) {
      owner.refs = [
        ...(owner.refs ?? []),
        ...refs[1]
          .split(/[,;]\s*/)
          .map((r) => r.trim())
          .filter(Boolean),
      ];
    }
  }
  return roots;
}

/** `T001 [P] text` / `1.2 text` / `text` → a task with the format's own id, parallel mark and state. */
function taskFromText(raw: string, done: boolean): SpecTask {
  let text = raw.trim();
  let id = '';
  const tid = /^(T\d+)\b\s*(.*)$/.exec(text);
  const num = /^(\d+(?:\.\d+)*)\.?\s+(.*)$/.exec(text);
  if (tid) [, id, text] = tid;
  else if (num) [, id, text] = num;
  let parallel = false;
  const p = /^\[P\]\s*(.*)$/.exec(text);
  if (p) {
    parallel = true;
    text = p[1];
  }
  const task: SpecTask = { id, text: text.trim(), done };
  if (parallel) task.parallel = true;
  return task;
}

/** A numbered-list line (`1. Foundations — …`), used by plans that list their phases instead of heading them. */
export function numberedItem(line: string): { id: string; text: string; indent: number } | null {
  if (CHECK.test(line)) return null;
  const m = BULLET_NUM.exec(line);
  if (!m || !/^\d/.test(m[2]) || !/^\s*(?:[-*+]\s+)?\d+(?:\.\d+)*[.)]\s/.test(line)) return null;
  return { indent: m[1].length, id: m[2], text: m[3].trim() };
}

/**
 * Feature or change folders ordered so the one being worked on comes last: one whose tasks.md still
 * has an open item beats one whose tasks are all done (a fresh clone gives every file the same time),
 * then the most recently changed, then by name.
 */
export function inProgressLast(dir: string, names: string[]): string[] {
  const rank = (n: string) => {
    const tasks = join(dir, n, 'tasks.md');
    const open = isFile(tasks) && /^\s*[-*+]\s+\[ \]/m.test(readText(tasks)) ? 1 : 0;
    const time = Math.max(0, ...walkFiles(join(dir, n)).map((p) => statSync(p).mtimeMs));
    return { n, open, time };
  };
  return names
    .map(rank)
    .sort((a, b) => a.open - b.open || a.time - b.time || a.n.localeCompare(b.n, 'en'))
    .map((r) => r.n);
}
