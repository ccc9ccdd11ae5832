import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidInputError, NotFoundError } from '../common/errors';
import type { SpecPackage } from '../specs/types';
import { PackageCache } from './folder-cache';
import { slugify } from './projects';

/**
 * Project folders an IDE works on: the repository it has open, declared as an MCP root or named
 * by path with forge_set_session(project_dir). The folder is the user's, in whatever format they
 * keep specs (spec-kit, Kiro, OpenSpec, plain, Forge) and is only ever read — through the spec
 * reader, kept between calls only while a stat pass finds the folder unchanged (folder-cache.ts), so
 * an edit in the IDE is seen on the next call. Nothing here writes to it.
 */

export type SpecReader = (dir: string, opts?: { feature?: string }) => Promise<SpecPackage> | SpecPackage;

/** How a connection came to be on a folder. */
export type FolderVia = 'roots' | 'path';

export interface FolderProject {
  /** The project id tools take (a slug of the folder name; made unique if two folders share a name). */
  id: string;
  dir: string;
  name: string;
  /** The format found at the last read (for the MCP screen); absent until first read. */
  format?: string;
}

/** A folder as one connection reads it: how it came to it, and the feature (spec-kit, Kiro) or change (OpenSpec) it chose. */
export interface FolderHandle {
  project: FolderProject;
  via: FolderVia;
  feature?: string;
}

/** What the MCP screen shows for one client: the project it is on and, if its roots could not be used, why. */
export interface ClientProject {
  /** `via: 'forge'` is a project kept in Forge's own database (set with forge_set_session(project_id)). */
  project: { id: string; name: string; folder: string | null; via: FolderVia | 'forge'; format: string | null } | null;
  roots: string[];
  rootsError: string | null;
}

/**
 * A client-declared root is untrusted input: only a file:// URL naming an existing directory on this
 * machine is taken. Anything else is a clear sentence the client (and the MCP screen) can show.
 */
export function dirOfRoot(uri: string): string {
  const shown = uri.slice(0, 200);
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new InvalidInputError(`The root "${shown}" is not a URL; Forge takes file:// roots that name a folder on this machine.`);
  }
  if (url.protocol !== 'file:')
    throw new InvalidInputError(`The root ${shown} is not a file:// URL; Forge serves project tools only from folders on this machine.`);
  let dir: string;
  try {
    dir = fileURLToPath(url);
  } catch {
    throw new InvalidInputError(`The root ${shown} names another machine; Forge serves project tools only from folders on this machine.`);
  }
  return checkDir(dir, `The root ${shown}`);
}

function checkDir(dir: string, what: string): string {
  if (!isAbsolute(dir)) throw new InvalidInputError(`${what} is not an absolute path; pass the full path of the project folder.`);
  const abs = resolve(dir);
  let isDir = false;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    throw new NotFoundError(
      `${what} does not exist on this machine (${abs}); open the project folder in your IDE, or pass its path to forge_set_session(project_dir).`,
    );
  }
  if (!isDir) throw new InvalidInputError(`${what} is a file, not a folder (${abs}); pass the project's folder.`);
  return abs;
}

/** The folders known to this server process, shared by its connections; ids stay stable while it runs. */
export class FolderProjects {
  private readonly byId = new Map<string, FolderProject>();
  private readonly packages: PackageCache;

  /**
   * @param isForgeProject whether Forge's database already has a project with this id: a folder
   * never takes a Forge project's id, or that project could no longer be named in the project tools.
   */
  constructor(
    read: SpecReader,
    private readonly isForgeProject: (id: string) => Promise<boolean> = async () => false,
  ) {
    this.packages = new PackageCache(read);
  }

  /** Registers a folder (idempotent per path) after checking it is a directory here. */
  async register(dir: string, what = `The folder "${dir.slice(0, 200)}"`): Promise<FolderProject> {
    const abs = checkDir(dir, what);
    const known = () => [...this.byId.values()].find((p) => p.dir === abs);
    const existing = known();
    if (existing) return existing;
    const base = slugify(basename(abs) || 'project');
    const taken = this.byId.has(base) || (await this.isForgeProject(base).catch(() => false));
    // Another call may have registered the same folder while the database was asked.
    const raced = known();
    if (raced) return raced;
    const id = taken ? `${base.slice(0, 55)}-${createHash('sha256').update(abs).digest('hex').slice(0, 8)}` : base;
    const project: FolderProject = { id, dir: abs, name: basename(abs) || abs };
    this.byId.set(id, project);
    return project;
  }

  get(id: string): FolderProject | undefined {
    return this.byId.get(id);
  }

  /** The folder's package: read again only when a stat pass finds something it was read from changed (the IDE may have just edited a spec). */
  async packageOf(h: FolderHandle): Promise<SpecPackage> {
    const pkg = await this.packages.get(h.project.dir, h.feature);
    h.project.format = pkg.format;
    return pkg;
  }

  async context(h: FolderHandle): Promise<Record<string, unknown>> {
    const { project: p, via } = h;
    const pkg = await this.packageOf(h);
    return {
      project_id: p.id,
      name: p.name,
      folder: p.dir,
      from: via === 'roots' ? "your IDE's open folder (MCP roots)" : 'the path given to forge_set_session',
      format: pkg.format,
      feature: pkg.feature,
      ...(pkg.features && pkg.features.length > 1 ? { features: pkg.features } : {}),
      documents: pkg.documents.map((d) => ({ id: d.id, kind: d.kind, title: d.title, tokens: d.tokens })),
      phases: pkg.phases.map((ph) => ({ id: ph.id, name: ph.name, tasks: ph.tasks.length })),
      not_understood: pkg.notUnderstood,
    };
  }

  async contracts(h: FolderHandle): Promise<Record<string, unknown>> {
    const p = h.project;
    const pkg = await this.packageOf(h);
    return {
      project_id: p.id,
      format: pkg.format,
      contracts: pkg.documents.map((d) => ({ document: d.id, kind: d.kind, title: d.title, brief: d.brief, tokens: d.tokens })),
    };
  }

  /** One listed document; only ids the reader listed are served, so no path outside the package can be asked for. */
  async document(h: FolderHandle, id: string | undefined): Promise<Record<string, unknown>> {
    const p = h.project;
    const pkg = await this.packageOf(h);
    const ids = pkg.documents.map((d) => d.id);
    // By id; else by kind when one document has it ("blueprint" in a Forge folder, "tasks" in spec-kit).
    const ofKind = id ? pkg.documents.filter((d) => d.kind === id) : [];
    const doc = id ? (pkg.documents.find((d) => d.id === id) ?? (ofKind.length === 1 ? ofKind[0] : undefined)) : undefined;
    if (!doc) {
      const listed = ids.slice(0, 12).join(', ') + (ids.length > 12 ? ', …' : '');
      throw new NotFoundError(
        `${id ? `Project "${p.id}" has no document "${id.slice(0, 200)}"` : `Project "${p.id}" is a ${pkg.format} folder: pass document`}. Its documents: ${listed || 'none'} (forge_list_project_contracts lists them).`,
      );
    }
    return { project_id: p.id, document: doc.id, kind: doc.kind, title: doc.title, tokens: doc.tokens, content: doc.text };
  }

  /** A phase by the plan's own number, the next one for context, and the preamble every phase needs. */
  async phaseWindow(h: FolderHandle, phase: string): Promise<Record<string, unknown>> {
    const p = h.project;
    const pkg = await this.packageOf(h);
    if (pkg.phases.length === 0) {
      throw new NotFoundError(`Project "${p.id}" (${pkg.format}) has no phased plan Forge could read, so no phase window can be served.`);
    }
    const idx = pkg.phases.findIndex((ph) => ph.id === phase);
    if (idx < 0) {
      const ids = pkg.phases.map((ph) => ph.id);
      throw new NotFoundError(`There is no phase ${phase.slice(0, 20)} in project "${p.id}". Its phases: ${ids.join(', ')}.`);
    }
    const window = pkg.phases.slice(idx, idx + 2);
    const isLast = idx === pkg.phases.length - 1;
    const footer = isLast ? '\n\n(This is the last phase.)' : '\n\n(The second phase above is shown for context only: build the first.)';
    return {
      project_id: p.id,
      phase: pkg.phases[idx].id,
      first_phase: pkg.phases[0].id,
      last_phase: pkg.phases[pkg.phases.length - 1].id,
      total_phases: pkg.phases.length,
      is_last: isLast,
      phases: window.map((ph) => ({ id: ph.id, name: ph.name, tasks: ph.tasks.length, source: ph.source })),
      content: [pkg.preamble.trim(), ...window.map((ph) => ph.text)].filter(Boolean).join('\n\n') + footer,
    };
  }
}

/**
 * One connection's view: the folder its client declared as a root, asked for with `roots/list` when
 * the roots are stale (never asked yet, or the client sent roots/list_changed). A folder that reads
 * as a spec package is preferred; otherwise the first root that is a folder here. Tool calls wait
 * for a pending answer, so the first call after connecting already sees the IDE's folder.
 */
export class ConnectionFolder {
  private stale = true;
  private inflight: Promise<void> | null = null;
  private rootsProject: FolderProject | null = null;
  private roots: string[] = [];
  private rootsError: string | null = null;
  /** The feature or change this connection chose per folder (forge_set_session(feature)); default: the reader's choice. */
  private readonly features = new Map<string, string>();

  constructor(readonly folders: FolderProjects) {}

  /** The client said its roots changed: ask again before the next tool call. */
  markStale(): void {
    this.stale = true;
  }

  /** Asks for the roots if they are stale; resolves once the answer (or its failure) is taken. */
  ensure(list: () => Promise<{ roots: { uri: string; name?: string }[] }>): Promise<void> {
    if (this.stale && !this.inflight) {
      this.stale = false;
      this.inflight = this.take(list).finally(() => {
        this.inflight = null;
      });
    }
    return this.ready();
  }

  ready(): Promise<void> {
    return this.inflight ?? Promise.resolve();
  }

  private async take(list: () => Promise<{ roots: { uri: string; name?: string }[] }>): Promise<void> {
    let roots: { uri: string }[];
    try {
      roots = (await list()).roots;
    } catch (e) {
      // Not retried on every call (a client that never answers would stall each one); list_changed asks again.
      this.rootsError = `The client did not answer roots/list (${(e as Error).message.slice(0, 200)}); pass the project folder to forge_set_session(project_dir).`;
      return;
    }
    this.roots = roots.map((r) => r.uri.slice(0, 500));
    const problems: string[] = [];
    let firstDir: FolderProject | null = null;
    let readable: FolderProject | null = null;
    for (const r of roots.slice(0, 20)) {
      try {
        const project = await this.folders.register(dirOfRoot(r.uri), `The root ${r.uri.slice(0, 200)}`);
        firstDir ??= project;
        // Read once now: the MCP screen shows the format, and a folder holding specs beats one that holds none.
        await this.folders.packageOf({ project, via: 'roots', feature: this.features.get(project.id) });
        readable = project;
        break;
      } catch (e) {
        problems.push((e as Error).message);
      }
    }
    this.rootsProject = readable ?? firstDir;
    this.rootsError = this.rootsProject ? null : roots.length === 0 ? 'The client declared no roots.' : problems.join(' ');
  }

  /** The folder project for an id (given, or the session's), else the roots folder when no id was set. */
  resolve(id: string | undefined): FolderHandle | null {
    const named = id ? this.folders.get(id) : undefined;
    const project = id ? named : (this.rootsProject ?? undefined);
    if (!project) return null;
    return { project, via: id ? 'path' : 'roots', feature: this.features.get(project.id) };
  }

  /**
   * forge_set_session's folder part: opens `dir` (else the folder already in use) and, with
   * `feature`, reads that spec-kit feature, Kiro feature or OpenSpec change from now on. A feature the
   * folder does not hold is refused with the ones it has, and the previous choice is kept.
   */
  async choose(input: { dir?: string; feature?: string; projectId?: string }): Promise<{ id: string; context: Record<string, unknown> }> {
    await this.ready();
    const project = input.dir ? await this.folders.register(input.dir) : this.resolve(input.projectId)?.project;
    if (!project) {
      throw new NotFoundError(
        `There is no project folder to choose "${(input.feature ?? '').slice(0, 80)}" in: pass project_dir too${this.problem() ? ` (${this.problem()})` : ''}.`,
      );
    }
    const via: FolderVia = input.dir || input.projectId ? 'path' : 'roots';
    const feature = input.feature ?? this.features.get(project.id);
    const context = await this.folders.context({ project, via, feature });
    if (input.feature !== undefined) this.features.set(project.id, input.feature);
    return { id: project.id, context };
  }

  /** Why no folder is in use, for the "no project given" answer; null when nothing went wrong. */
  problem(): string | null {
    return this.rootsProject ? null : this.rootsError;
  }

  /** For the MCP screen: the project this client is on (the session's, or its roots folder). */
  describe(sessionProjectId: string | undefined): ClientProject {
    const found = this.resolve(sessionProjectId);
    const f = found?.project;
    const project = f
      ? { id: f.id, name: f.name, folder: f.dir, via: found.via, format: f.format ?? null }
      : sessionProjectId
        ? { id: sessionProjectId, name: sessionProjectId, folder: null, via: 'forge' as const, format: 'forge' }
        : null;
    return { project, roots: [...this.roots], rootsError: this.problem() };
  }
}
