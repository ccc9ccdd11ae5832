import fs from 'node:fs';
import path from 'node:path';
import { AppError, InvalidInputError, NotFoundError } from '../common/errors';
import { resolveInside } from './confine';
import { listSkillFiles, type SkillResource } from './resources';
import { bodyHeadings, parseSkillFile, type SkillFrontmatter, type SkillProblem, type SkillValidationMode } from './frontmatter';
import type { NodeScriptLauncher } from './node-launcher';

/**
 * SkillLoader — the Agent Skills standard, loaded progressively:
 *   1. `catalog()`   name + description of every usable skill (what enters the analyst's prompt);
 *   2. `load(name)`  the SKILL.md body and the list of the skill's files (what a sub-agent gets);
 *   3. `readResource(name, relPath)`  one template/reference/script/asset, read only on use.
 * Invalid skills never break the catalogue: `list()` shows them with their problems.
 * Which file is a template, reference, script or asset: see resources.ts.
 */

/** A resource larger than this is refused: skill files are prompts and small scripts, not data sets. */
export const MAX_RESOURCE_BYTES = 1024 * 1024;
/**
 * How much reference text a sub-agent's prompt carries. Forge's own skills stay far below it; a
 * published skill with a shelf of reference docs gets the first ones and a note for the rest.
 */
export const MAX_INLINE_REFERENCE_BYTES = 192 * 1024;
const TEXT_REFERENCE = /\.(md|markdown|txt|rst|json|ya?ml|csv|tsv|xml|html?)$/i;
export interface SkillEntry {
  /** The folder name — the key the skill is found under, even when its frontmatter is broken. */
  name: string;
  description: string;
  dir: string;
  file: string;
  /** True when the skill has no error-level problems (warnings allowed). */
  valid: boolean;
  problems: SkillProblem[];
  allowedTools: string[];
  license?: string;
  compatibility?: string;
  metadata: Record<string, string>;
}

export interface SkillCatalogEntry {
  name: string;
  description: string;
}

export interface LoadedSkill extends SkillFrontmatter {
  dir: string;
  file: string;
  /** The markdown after the frontmatter: the sub-agent's instructions. */
  body: string;
  resources: SkillResource[];
  /** Programs under `scripts/`, relative to it (e.g. `kelly.mjs`, `pdf/fill_form.py`). */
  scripts: string[];
  problems: SkillProblem[];
}

export interface LoadedSkillWithFiles extends LoadedSkill {
  /** `templates/...` path → text. */
  templates: Record<string, string>;
  /** `references/...` path → text. */
  references: Record<string, string>;
}

export interface SkillsChange {
  /** Folder names with a changed file since the last scan ([] when only `reload()` was called). */
  changed: string[];
  entries: SkillEntry[];
}

export interface SkillLoaderOptions {
  /**
   * `strict` (default): every rule of the standard is an error. `lenient` (the app): a published
   * skill that only breaks a length or format nicety loads with warnings (see frontmatter.ts).
   */
  mode?: SkillValidationMode;
  /**
   * Whether the PM allowed a skill (by folder name) to run its Python and shell scripts
   * (Settings → Skills). Default: no skill is allowed.
   */
  scriptsAllowed?: (skill: string) => boolean;
  /** `## ` headings every SKILL.md must have (Forge's analyst skills: Output Format, Procedure, Eval Criteria). */
  requiredSections?: string[];
  /** Watch the root with fs.watch and rescan after `debounceMs` of quiet. Off by default. */
  watch?: boolean;
  debounceMs?: number;
  /** How `.mjs` scripts of these skills start Node (the desktop app's utility process); default: `process.execPath`. */
  nodeLauncher?: NodeScriptLauncher;
  /** The skills Forge ships (the folder the workspace copy came from), to recognise a script as shipped; null: none. */
  shippedSkillsDir?: string | null;
}

/** `view_validation`, ` View-Validation ` → `view-validation`: the seed spells names with underscores. */
export function normaliseSkillName(name: string): string {
  return name.trim().toLowerCase().replace(/_/g, '-');
}

export class SkillLoader {
  readonly root: string;
  readonly mode: SkillValidationMode;
  readonly nodeLauncher?: NodeScriptLauncher;
  private readonly shippedDir: string | null;
  private readonly requiredSections: string[];
  private readonly debounceMs: number;
  private readonly allowsScripts: (skill: string) => boolean;
  private entries = new Map<string, SkillEntry>();
  private listeners = new Set<(change: SkillsChange) => void>();
  private watcher: fs.FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private pendingChanged = new Set<string>();

  constructor(root: string, options: SkillLoaderOptions = {}) {
    this.root = path.resolve(root);
    this.mode = options.mode ?? 'strict';
    this.requiredSections = options.requiredSections ?? [];
    this.debounceMs = options.debounceMs ?? 150;
    this.allowsScripts = options.scriptsAllowed ?? (() => false);
    this.nodeLauncher = options.nodeLauncher;
    this.shippedDir = options.shippedSkillsDir ?? null;
    this.scan();
    if (options.watch) this.startWatching();
  }

  /** Every skill folder found, valid or not, sorted by name. */
  list(): SkillEntry[] {
    return [...this.entries.values()];
  }

  /** Name + description of the usable skills — the only part that enters the analyst's prompt. */
  catalog(): SkillCatalogEntry[] {
    return this.list()
      .filter((e) => e.valid)
      .map((e) => ({ name: e.name, description: e.description }));
  }

  /**
   * The catalogue as prompt text: one `- name: description` line per skill (whitespace folded).
   * `maxDescription` shortens long descriptions at a word boundary for tight prompts.
   */
  formatCatalog(options: { maxDescription?: number } = {}): string {
    const shorten = (d: string) => {
      const max = options.maxDescription;
      if (!max || d.length <= max) return d;
      const cut = d.slice(0, max - 1);
      return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 1))}…`;
    };
    const lines = this.catalog().map((c) => `- ${c.name}: ${shorten(c.description.replace(/\s+/g, ' '))}`);
    return lines.length ? lines.join('\n') : '(no skills installed)';
  }

  /** All problems of all skills, in folder order. */
  problems(): SkillProblem[] {
    return this.list().flatMap((e) => e.problems);
  }

  /** The entry a name refers to (either spelling), or null. */
  find(name: string): SkillEntry | null {
    const direct = this.entries.get(normaliseSkillName(name)) ?? this.entries.get(name.trim());
    if (direct) return direct;
    // A folder in the seed's underscore spelling (invalid, but listed) is still found by either spelling.
    const want = normaliseSkillName(name);
    for (const e of this.entries.values()) if (normaliseSkillName(e.name) === want) return e;
    return null;
  }

  /** Full SKILL.md body + resource list. Reads the file afresh, so an edit is seen even without watching. */
  load(name: string): LoadedSkill {
    const entry = this.require(name);
    const fresh = this.readEntry(path.basename(entry.dir));
    this.entries.set(fresh.entry.name, fresh.entry); // keep list() in step with what load() saw
    if (!fresh.entry.valid) {
      const errs = fresh.entry.problems.filter((p) => p.severity === 'error');
      throw new InvalidInputError(
        `Skill "${entry.name}" cannot be used until its SKILL.md is fixed: ` + errs.map((p) => `${p.field} ${p.message}`).join('; '),
        errs.map((p) => ({ path: [p.field], message: p.message })),
      );
    }
    const resources = listSkillFiles(entry.dir);
    return {
      name: fresh.entry.name,
      description: fresh.entry.description,
      license: fresh.entry.license,
      compatibility: fresh.entry.compatibility,
      metadata: fresh.entry.metadata,
      allowedTools: fresh.entry.allowedTools,
      dir: entry.dir,
      file: entry.file,
      body: fresh.body,
      resources,
      scripts: resources.filter((r) => r.kind === 'script').map((r) => r.path.slice('scripts/'.length)),
      problems: fresh.entry.problems,
    };
  }

  /**
   * `load` plus the text of its templates and references — what a sub-agent's system prompt carries.
   * References are text files only, up to MAX_INLINE_REFERENCE_BYTES in all; one left out is
   * named with a note instead of its text, so the prompt never swells with a published skill's shelf.
   */
  loadWithFiles(name: string): LoadedSkillWithFiles {
    const skill = this.load(name);
    const templates: Record<string, string> = {};
    const references: Record<string, string> = {};
    let budget = MAX_INLINE_REFERENCE_BYTES;
    for (const r of skill.resources) {
      if (r.kind === 'template') templates[r.path] = this.readResource(skill.name, r.path);
      if (r.kind !== 'reference') continue;
      if (!TEXT_REFERENCE.test(r.path)) references[r.path] = `(not text: ${r.bytes} bytes; not included)`;
      else if (r.bytes > budget)
        references[r.path] = `(${r.bytes} bytes; left out: the skill's references exceed the ${MAX_INLINE_REFERENCE_BYTES}-byte prompt budget)`;
      else {
        references[r.path] = this.readResource(skill.name, r.path);
        budget -= r.bytes;
      }
    }
    return { ...skill, templates, references };
  }

  /** One file of a skill, by path relative to its folder. Confined to the folder (no `..`, no symlink escape). */
  readResource(name: string, relPath: string): string {
    const entry = this.require(name);
    const abs = resolveInside(entry.dir, relPath);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(abs);
    } catch {
      throw new NotFoundError(
        `Skill "${entry.name}" has no file "${relPath}". Its files: ${
          listSkillFiles(entry.dir)
            .map((r) => r.path)
            .join(', ') || 'none'
        }.`,
      );
    }
    if (!stat.isFile()) throw new InvalidInputError(`"${relPath}" in skill "${entry.name}" is a folder, not a file.`);
    if (stat.size > MAX_RESOURCE_BYTES) {
      throw new AppError('too_large', `"${relPath}" in skill "${entry.name}" is ${stat.size} bytes; skill files are limited to ${MAX_RESOURCE_BYTES} bytes.`);
    }
    return fs.readFileSync(abs, 'utf8');
  }

  /** Absolute path of a script under `scripts/`, checked to exist and stay inside the skill. */
  scriptPath(name: string, script: string): string {
    const entry = this.require(name);
    const rel = script.startsWith('scripts/') ? script : `scripts/${script}`;
    const abs = resolveInside(entry.dir, rel);
    if (!fs.existsSync(abs)) {
      const have = listSkillFiles(entry.dir)
        .filter((r) => r.kind === 'script')
        .map((r) => r.path);
      throw new NotFoundError(`Skill "${entry.name}" has no script "${script}". Its scripts: ${have.join(', ') || 'none'}.`);
    }
    return abs;
  }

  /** True when this script of the skill is byte for byte the copy Forge ships (so it is a reviewed file). */
  shippedWithForge(name: string, script: string): boolean {
    if (!this.shippedDir) return false;
    const entry = this.find(name);
    if (!entry) return false;
    const rel = script.startsWith('scripts/') ? script : `scripts/${script}`;
    try {
      const shipped = fs.readFileSync(resolveInside(path.join(this.shippedDir, path.basename(entry.dir)), rel));
      return shipped.equals(fs.readFileSync(resolveInside(entry.dir, rel)));
    } catch {
      return false; // not shipped, or unreadable: treated as the PM's own
    }
  }

  /** True when the PM allowed this skill (either spelling) to run Python and shell scripts. */
  scriptsAllowed(name: string): boolean {
    const entry = this.find(name);
    return entry !== null && this.allowsScripts(entry.name);
  }

  /** Rescan the root now; listeners hear about it. */
  reload(): SkillEntry[] {
    this.scan();
    const change: SkillsChange = { changed: [...this.pendingChanged].sort(), entries: this.list() };
    this.pendingChanged.clear();
    for (const l of this.listeners) l(change);
    return change.entries;
  }

  /** Called after each rescan (file change or `reload()`). Returns an unsubscribe function. */
  onChange(listener: (change: SkillsChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.watcher?.close();
    this.watcher = null;
    this.listeners.clear();
  }

  private require(name: string): SkillEntry {
    let entry = this.find(name);
    const folders = [name.trim(), normaliseSkillName(name)].filter((f) => /^[\w-]+$/.test(f));
    if (!entry && folders.some((f) => fs.existsSync(path.join(this.root, f, 'SKILL.md')))) {
      this.reload(); // a skill added since the last scan (watching off, or the debounce not yet fired)
      entry = this.find(name);
    }
    if (!entry) {
      const known = this.list().map((e) => e.name);
      throw new NotFoundError(`There is no skill named "${name}". Installed skills: ${known.join(', ') || 'none'}.`);
    }
    return entry;
  }

  private scan(): void {
    const next = new Map<string, SkillEntry>();
    let dirents: fs.Dirent[] = [];
    try {
      dirents = fs.readdirSync(this.root, { withFileTypes: true });
    } catch {
      dirents = []; // a missing root is an empty catalogue, not a crash
    }
    for (const d of dirents.sort((a, b) => a.name.localeCompare(b.name))) {
      if (!d.isDirectory() || d.name.startsWith('.')) continue;
      if (!fs.existsSync(path.join(this.root, d.name, 'SKILL.md'))) continue;
      next.set(d.name, this.readEntry(d.name).entry);
    }
    this.entries = next;
  }

  private readEntry(folder: string): { entry: SkillEntry; body: string } {
    const dir = path.join(this.root, folder);
    const file = path.join(dir, 'SKILL.md');
    let text = '';
    const base: SkillEntry = { name: folder, description: '', dir, file, valid: false, problems: [], allowedTools: [], metadata: {} };
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      base.problems.push({ severity: 'error', file, field: 'SKILL.md', message: `cannot be read (${(e as Error).message})` });
      return { entry: base, body: '' };
    }
    const parsed = parseSkillFile(text, file, folder, this.mode);
    const problems = [...parsed.problems];
    if (this.requiredSections.length) {
      const heads = bodyHeadings(parsed.body).map((h) => h.toLowerCase());
      for (const s of this.requiredSections) {
        if (!heads.some((h) => h.startsWith(s.toLowerCase()))) {
          problems.push({ severity: 'error', file, field: 'body', message: `is missing the "## ${s}" section` });
        }
      }
    }
    const fm = parsed.frontmatter;
    const entry: SkillEntry = {
      name: folder,
      description: fm.description,
      dir,
      file,
      valid: !problems.some((p) => p.severity === 'error'),
      problems,
      allowedTools: fm.allowedTools,
      metadata: fm.metadata,
    };
    if (fm.license !== undefined) entry.license = fm.license;
    if (fm.compatibility !== undefined) entry.compatibility = fm.compatibility;
    return { entry, body: parsed.body };
  }

  private startWatching(): void {
    try {
      this.watcher = fs.watch(this.root, { recursive: true }, (_event, filename) => {
        const first = filename ? String(filename).split(/[\\/]/)[0] : '';
        if (first) this.pendingChanged.add(first);
        if (this.timer) clearTimeout(this.timer);
        this.timer = setTimeout(() => {
          this.timer = null;
          this.reload();
        }, this.debounceMs);
      });
      this.watcher.on('error', () => {
        // The root vanished or the watch limit was hit: keep serving the last scan; reload() still works.
        this.watcher?.close();
        this.watcher = null;
      });
    } catch {
      this.watcher = null;
    }
  }
}
