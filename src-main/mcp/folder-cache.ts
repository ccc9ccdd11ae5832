import { type Dirent, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { SpecPackage } from '../specs/types';

/**
 * The spec package last read from a project folder, per (folder, feature), kept while the folder is
 * unchanged. Reading a package parses every document and counts its tokens, and an IDE calls the
 * project tools many times a minute; a stat pass over what the reading depended on is far cheaper.
 *
 * "Unchanged" is a fingerprint of stats (inode, size, mtime): every document the package listed (an
 * edit, or an editor's save-by-rename), and the folders whose entries decide what is read (a file or
 * a feature added or removed there changes the folder's mtime): the folder itself, the formats' own
 * folders and those below them, for a plain package every folder its reader looks in for Markdown,
 * and each document's folders up to the root. The pass is over folders and listed documents only,
 * never the rest of a repository's files. A reading
 * whose files were touched while (or just before) it ran is not kept, since a stat taken afterwards
 * could not tell the edit from the text read — the next call reads again.
 */

export type PackageReader = (dir: string, opts?: { feature?: string }) => Promise<SpecPackage> | SpecPackage;

/** Where each format keeps its files: a file or feature added or removed anywhere below changes some folder's mtime. */
const LAYOUT_DIRS = ['.specify', 'specs', '.kiro', 'openspec', 'Forge'];
/** Subfolders a plain package skips (as its reader does), and that would only slow the stat pass in a real repository. */
const NOT_SPECS = new Set(['node_modules', 'dist', 'build', 'out', 'target', 'vendor', 'venv', '__pycache__', 'coverage']);
/** As deep as the readers look (a plain package reads Markdown four folders down). */
const DEPTH = 4;
/** A bound on the stat pass in a huge tree; past it, changes deeper down are seen once a document or a nearer folder changes. */
const MAX_DIRS = 2_000;
/** A reading whose files changed this close to it (or later) is not kept: coarse file systems stamp times to 1-2 s. */
const SETTLE_MS = 2_000;
const MAX_ENTRIES = 64;

function addDirs(out: Set<string>, dir: string, depth: number, skipHidden: boolean): void {
  if (depth < 0 || out.size >= MAX_DIRS) return;
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  out.add(dir);
  for (const e of entries) {
    if (!e.isDirectory() || NOT_SPECS.has(e.name) || (skipHidden && e.name.startsWith('.'))) continue;
    addDirs(out, join(dir, e.name), depth - 1, skipHidden);
  }
}

interface Fingerprint {
  text: string;
  /** The newest mtime seen, to tell whether the folder was being edited while it was read. */
  newest: number;
}

function fingerprint(root: string, pkg: SpecPackage): Fingerprint {
  const dirs = new Set<string>([root, ...LAYOUT_DIRS.map((d) => join(root, d))]);
  for (const d of LAYOUT_DIRS) addDirs(dirs, join(root, d), DEPTH, false);
  if (pkg.format === 'plain') addDirs(dirs, root, DEPTH, true);
  const files = pkg.documents.map((d) => join(root, d.id));
  for (const file of files) {
    for (let d = dirname(file); d.length > root.length && d.startsWith(root); d = dirname(d)) dirs.add(d);
  }
  let newest = 0;
  const parts: string[] = [];
  for (const path of [...[...dirs].sort(), ...files]) {
    try {
      const s = statSync(path);
      newest = Math.max(newest, s.mtimeMs);
      parts.push(`${path}\0${s.ino}\0${s.size}\0${s.mtimeMs}`);
    } catch {
      parts.push(`${path}\0-`);
    }
  }
  return { text: parts.join('\n'), newest };
}

export class PackageCache {
  private readonly entries = new Map<string, { fingerprint: string; pkg: SpecPackage }>();

  constructor(
    private readonly read: PackageReader,
    private readonly now: () => number = Date.now,
  ) {}

  /** The folder's package: the one read before if nothing it depended on changed, else read now. */
  async get(dir: string, feature: string | undefined): Promise<SpecPackage> {
    const root = resolve(dir);
    const key = `${root}\0${feature ?? ''}`;
    const kept = this.entries.get(key);
    if (kept && fingerprint(root, kept.pkg).text === kept.fingerprint) {
      // Most recently used last, so the oldest entry is the one dropped when the map is full.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept.pkg;
    }
    this.entries.delete(key);
    const started = this.now();
    const pkg = await this.read(root, feature ? { feature } : {});
    const fp = fingerprint(root, pkg);
    if (fp.newest < started - SETTLE_MS) {
      this.entries.set(key, { fingerprint: fp.text, pkg });
      if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    }
    return pkg;
  }
}
