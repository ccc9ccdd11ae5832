import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import { realRoot } from './confine';
import { renderTree } from './files';
import { looksBinary, MAX_TEXT_FILE_BYTES, walkFiles } from './walk';

/**
 * What the builder is shown of its workspace between turns: the compact tree in the first message
 * and the phase-advance message, and a summary of what changed during a phase (a snapshot when
 * the phase starts, another when it is signed off).
 */

/** The compact tree of the working directory: skipped folders as one line, Forge/ collapsed. */
export async function workspaceListing(workDir: string, opts: { maxEntries?: number; depth?: number } = {}): Promise<string> {
  const tree = await renderTree(realRoot(workDir), { depth: opts.depth ?? 6, maxEntries: opts.maxEntries ?? 150, collapseForge: true });
  return tree || '(empty folder)';
}

export interface FileState {
  /** sha256 of the content, hex, first 16 characters. */
  hash: string;
  lines: number;
  /** Sorted 32-bit hashes of the file's lines; absent for binary or oversized files. */
  lineHashes?: number[];
}

/** Path → state, for the files the builder works on. Plain data: it can be stored as JSON with the build. */
export interface WorkspaceSnapshot {
  files: Record<string, FileState>;
  /** The project held more files than a snapshot records; the rest are not compared. */
  truncated?: boolean;
}

export const MAX_SNAPSHOT_FILES = 5000;

/** The project's files (not Forge/, not dependencies or build output) with content hashes. */
export async function snapshotWorkspace(workDir: string): Promise<WorkspaceSnapshot> {
  const files: Record<string, FileState> = {};
  let count = 0;
  for await (const f of walkFiles(realRoot(workDir), { skipForge: true })) {
    if (++count > MAX_SNAPSHOT_FILES) return { files, truncated: true };
    const state = await fileState(f.abs);
    if (state) files[f.rel] = state;
  }
  return { files };
}

async function fileState(abs: string): Promise<FileState | null> {
  let bytes: Buffer;
  try {
    const stat = await fsp.stat(abs);
    // Oversized files are hashed by size and time only: reading them whole is not worth it here.
    if (stat.size > MAX_TEXT_FILE_BYTES) return { hash: `size:${stat.size}:${stat.mtimeMs}`, lines: 0 };
    bytes = await fsp.readFile(abs);
  } catch {
    return null; // vanished between the walk and the read
  }
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  if (looksBinary(bytes)) return { hash, lines: 0 };
  const text = bytes.toString('utf8');
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
  return { hash, lines: lines.length, lineHashes: lines.map(fnv1a).sort((a, b) => a - b) };
}

/** FNV-1a, 32 bits: cheap, and collisions only blur an already approximate count. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export interface WorkspaceDiff {
  added: { path: string; lines: number | null }[];
  modified: { path: string; added: number | null; removed: number | null }[];
  deleted: string[];
}

export function diffWorkspace(before: WorkspaceSnapshot, after: WorkspaceSnapshot): WorkspaceDiff {
  const diff: WorkspaceDiff = { added: [], modified: [], deleted: [] };
  for (const p of Object.keys(after.files).sort()) {
    const a = after.files[p];
    const b = before.files[p];
    if (!b) diff.added.push({ path: p, lines: a.lineHashes ? a.lines : null });
    else if (b.hash !== a.hash) {
      const counts = b.lineHashes && a.lineHashes ? lineDelta(b.lineHashes, a.lineHashes) : null;
      diff.modified.push({ path: p, added: counts?.added ?? null, removed: counts?.removed ?? null });
    }
  }
  for (const p of Object.keys(before.files).sort()) if (!after.files[p]) diff.deleted.push(p);
  return diff;
}

/**
 * Added and removed lines as a multiset difference of line hashes. Approximate on purpose: a
 * moved line counts as unchanged and a duplicated line only by how often it occurs — close to
 * `git diff --stat` for ordinary edits, at a fraction of the cost of a real diff.
 */
function lineDelta(before: number[], after: number[]): { added: number; removed: number } {
  let i = 0;
  let j = 0;
  let added = 0;
  let removed = 0;
  while (i < before.length || j < after.length) {
    if (j >= after.length || (i < before.length && before[i] < after[j])) {
      removed++;
      i++;
    } else if (i >= before.length || after[j] < before[i]) {
      added++;
      j++;
    } else {
      i++;
      j++;
    }
  }
  return { added, removed };
}

/** How many files of each kind a summary names before it counts the rest. */
const NAMED_PER_KIND = 40;

/** `added: src/a.ts (+40 lines); modified: README.md (+3/-1 lines); deleted: x` — or "no file changes". */
export function diffSummary(before: WorkspaceSnapshot, after: WorkspaceSnapshot): string {
  const d = diffWorkspace(before, after);
  const parts: string[] = [];
  const plural = (n: number) => (n === 1 ? 'line' : 'lines');
  if (d.added.length)
    parts.push(`added: ${named(d.added.map((f) => (f.lines === null ? `${f.path} (binary)` : `${f.path} (+${f.lines} ${plural(f.lines)})`)))}`);
  if (d.modified.length) {
    parts.push(
      `modified: ${named(d.modified.map((f) => (f.added === null || f.removed === null ? `${f.path} (changed)` : `${f.path} (+${f.added}/-${f.removed} ${plural(f.added + f.removed)})`)))}`,
    );
  }
  if (d.deleted.length) parts.push(`deleted: ${named(d.deleted)}`);
  return parts.length ? parts.join('; ') : 'no file changes';
}

function named(items: string[]): string {
  if (items.length <= NAMED_PER_KIND) return items.join(', ');
  return `${items.slice(0, NAMED_PER_KIND).join(', ')} and ${items.length - NAMED_PER_KIND} more`;
}
