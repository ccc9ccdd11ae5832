import { InvalidInputError, NotFoundError } from '../common/errors';
import type { MemoryIndexer, Store } from '../store';
import { parseRecord } from './codec';
import { sha256 } from './hash';
import { MemoryBackend, rowState, rowToInfo, toIndexable, withAssignedId } from './memory-backend';
import { routePath, type Route } from './paths';
import { SessionFS } from './session-fs';
import { SkillsBackend } from './skills-backend';
import { checkRecordAuthority } from './write-authority';
import {
  checkWriteContext,
  DEFAULT_LIST_LIMIT,
  MAX_LIST_LIMIT,
  type ArchivedVersion,
  type DirEntry,
  type Listing,
  type ListOptions,
  type RecordInfo,
  type WriteContext,
  type WriteResult,
} from './types';

export interface ForgeFSOptions {
  store: Store;
  /** The workspace copy of the skills folder (`<dataDir>/skills`). */
  skillsDir: string;
  indexer?: MemoryIndexer;
  /** ISO timestamp source (tests pin time). */
  now?: () => string;
}

/** A planned write announced before the transaction, so the indexer can prepare it (embeddings). */
export interface PlannedWrite {
  path: string;
  content: string;
}

/** Synchronous operations available inside `ForgeFS.transaction`; everything commits together. */
export interface ForgeTx {
  readFile(path: string): string;
  exists(path: string): boolean;
  writeFile(path: string, content: string, ctx: WriteContext): WriteResult;
  deleteFile(path: string, ctx: WriteContext): void;
  archive(path: string, ctx: WriteContext): string;
  /** Takes (consumes) the next id of a category, e.g. OUT-004; never handed out again. */
  takeId(category: string): string;
}

const dirEntry = (name: string, path: string, meta = ''): DirEntry => ({
  name,
  path,
  isDir: true,
  id: null,
  title: '',
  meta,
  status: null,
  updatedAt: null,
});

/**
 * ForgeFS: one path API over the analyst's world (seed §9.2). `/memory/` and `/portfolio/` and
 * `/session/` live in SQLite; `/skills/` is a folder on disk. Reads are synchronous; writes are
 * async because a search indexer may prepare (embed) content before the write transaction opens.
 */
export class ForgeFS {
  readonly store: Store;
  readonly skills: SkillsBackend;
  private readonly memory: MemoryBackend;
  private readonly indexer?: MemoryIndexer;
  private readonly now: () => string;
  private readonly commitListeners = new Set<(paths: string[]) => void>();

  constructor(options: ForgeFSOptions) {
    this.store = options.store;
    this.indexer = options.indexer;
    this.now = options.now ?? (() => new Date().toISOString());
    this.skills = new SkillsBackend(options.skillsDir);
    this.memory = new MemoryBackend(this.store, this.now);
  }

  // ---- reads ---------------------------------------------------------------------------------

  /** The normalised form of a path (typed error if it is not a valid ForgeFS path). */
  normalize(path: string): string {
    return routePath(path).path;
  }

  readFile(path: string): string {
    const { route } = routePath(path);
    switch (route.root) {
      case 'top':
        throw new InvalidInputError('"/" is a folder; list it, or read a file such as /portfolio/state.md.');
      case 'memory':
        if (route.kind === 'record') {
          if (route.id === null) throw new InvalidInputError('new.md is only for writing a new record; read an existing id such as V-001.md.');
          return this.memory.read(route.category, route.id).content;
        }
        if (route.kind === 'archive-file') return this.memory.readArchived(route.category, route.name);
        throw new InvalidInputError(`${path} is a folder; list it, or read one of its files.`);
      case 'skills':
        return this.skills.read(route.rel);
      case 'portfolio': {
        if (!route.name) throw new InvalidInputError('/portfolio/ is a folder; read /portfolio/state.md or /portfolio/constraints.md.');
        const doc = this.store.portfolio.get(route.name);
        if (!doc) throw new NotFoundError(`There is no /portfolio/${route.name}; list /portfolio/ to see what exists.`);
        return doc.content;
      }
      case 'session': {
        if (route.dir || !route.sessionId) throw new InvalidInputError(`${path} is a folder; list it, or read one of its files.`);
        const f = this.store.sessions.getFile(route.sessionId, route.rel);
        if (!f) throw new NotFoundError(`There is no ${path} yet; list /session/${route.sessionId}/ to see what exists.`);
        return f.content;
      }
    }
  }

  /** Lines start..end (1-based, inclusive), as the seed's read_lines. */
  readLines(path: string, start: number, end: number): string {
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 1 || end < start) {
      throw new InvalidInputError(`Line range ${start}-${end} is not valid; use 1-based lines with start ≤ end, e.g. 1-8.`);
    }
    return this.readFile(path)
      .split('\n')
      .slice(start - 1, end)
      .join('\n');
  }

  /** The typed columns of a memory record, or null for anything that is not a live record. */
  recordInfo(path: string): RecordInfo | null {
    const { route } = routePath(path);
    if (route.root !== 'memory' || route.kind !== 'record' || route.id === null) return null;
    const row = this.memory.get(route.category, route.id);
    return row ? rowToInfo(row) : null;
  }

  exists(path: string): boolean {
    const { route } = routePath(path);
    switch (route.root) {
      case 'top':
        return true;
      case 'memory':
        if (route.kind === 'record') return route.id !== null && !!this.memory.get(route.category, route.id);
        if (route.kind === 'archive-file') return !!this.store.records.archived(route.category, route.name);
        return true;
      case 'skills':
        return this.skills.exists(route.rel);
      case 'portfolio':
        return route.name === null || !!this.store.portfolio.get(route.name);
      case 'session':
        if (!route.sessionId) return true;
        if (route.dir) return !!this.store.sessions.get(route.sessionId);
        return !!this.store.sessions.getFile(route.sessionId, route.rel);
    }
  }

  isDir(path: string): boolean {
    const { route } = routePath(path);
    switch (route.root) {
      case 'top':
        return true;
      case 'memory':
        return route.kind === 'root' || route.kind === 'category' || route.kind === 'archive-root' || route.kind === 'archive-category';
      case 'skills':
        return route.dir || this.skills.isDir(route.rel);
      case 'portfolio':
        return route.name === null;
      case 'session':
        return route.dir;
    }
  }

  /** A directory listing, with the seed's listing metadata; memory folders accept a query. */
  listDir(path: string, query?: string, options: ListOptions = {}): Listing {
    const limit = Math.min(Math.max(1, Math.floor(options.limit ?? DEFAULT_LIST_LIMIT)), MAX_LIST_LIMIT);
    const offset = Math.max(0, Math.floor(options.offset ?? 0));
    const { path: norm, route } = routePath(path);
    const page = (entries: DirEntry[]): Listing => ({ path: norm, entries: entries.slice(offset, offset + limit), total: entries.length, limit, offset });
    const noQuery = () => {
      if (query?.trim()) throw new InvalidInputError(`Queries filter memory folders such as /memory/views/; ${norm} cannot be filtered.`);
    };
    switch (route.root) {
      case 'top':
        noQuery();
        return page(['memory', 'skills', 'portfolio', 'session'].map((r) => dirEntry(`${r}/`, `/${r}/`)));
      case 'memory':
        if (route.kind === 'category') return this.memory.list(route.category, query, limit, offset);
        noQuery();
        if (route.kind === 'root') return this.memory.listRoot();
        if (route.kind === 'archive-root') return this.memory.listArchive(null, limit, offset);
        if (route.kind === 'archive-category') return this.memory.listArchive(route.category, limit, offset);
        throw new InvalidInputError(`${norm} is a file; read it instead of listing it.`);
      case 'skills':
        noQuery();
        return page(this.skills.list(route.rel));
      case 'portfolio':
        noQuery();
        if (route.name) throw new InvalidInputError(`${norm} is a file; read it instead of listing it.`);
        return page(this.store.portfolio.list().map((d) => ({ ...dirEntry(d.name, `/portfolio/${d.name}`), isDir: false, updatedAt: d.updated_at })));
      case 'session':
        noQuery();
        return this.listSession(route, norm, limit, offset, page);
    }
  }

  private listSession(route: Extract<Route, { root: 'session' }>, norm: string, limit: number, offset: number, page: (e: DirEntry[]) => Listing): Listing {
    if (!route.sessionId) {
      const { rows, total } = this.store.sessions.list(limit, offset);
      const entries = rows.map((s) => ({
        ...dirEntry(`${s.id}/`, `/session/${s.id}/`, `turn ${s.turn_number} | ${s.status}`),
        updatedAt: s.last_active,
      }));
      return { path: norm, entries, total, limit, offset };
    }
    if (!route.dir) throw new InvalidInputError(`${norm} is a file; read it instead of listing it.`);
    if (!this.store.sessions.get(route.sessionId)) throw new NotFoundError(`There is no session ${route.sessionId}; list /session/ to see them.`);
    const base = `/session/${route.sessionId}/`;
    const files = this.store.sessions.listFiles(route.sessionId, route.rel);
    const entries: DirEntry[] = [];
    const dirs = new Set<string>();
    for (const f of files) {
      const rest = f.path.slice(route.rel.length);
      const slash = rest.indexOf('/');
      if (slash >= 0) {
        const d = rest.slice(0, slash);
        if (!dirs.has(d)) entries.push(dirEntry(`${d}/`, `${base}${route.rel}${d}/`));
        dirs.add(d);
      } else {
        entries.push({ ...dirEntry(rest, base + f.path), isDir: false, updatedAt: f.updated_at });
      }
    }
    return page(entries);
  }

  /** Archived versions of one View or Expression (or any record), newest first — one call. */
  history(path: string): { path: string; current: RecordInfo | null; versions: ArchivedVersion[] } {
    const { path: norm, route } = routePath(path);
    if (route.root !== 'memory' || route.kind !== 'record' || route.id === null) {
      throw new InvalidInputError(`History is kept for memory records; use a path such as /memory/views/V-001.md (not ${norm}).`);
    }
    const { current, versions } = this.memory.history(route.category, route.id);
    if (!current && versions.length === 0) throw new NotFoundError(`There is no record ${norm} and no archived version of it.`);
    return { path: norm, current: current ? rowToInfo(current) : null, versions };
  }

  /** The id the next new.md in a category would get (a preview; the write assigns it atomically). */
  nextId(category: string): string {
    return this.memory.peekId(category);
  }

  // ---- writes --------------------------------------------------------------------------------

  // One record each: its full-text row is written as the write happens (see Store.writeTransaction).
  async writeFile(path: string, content: string, ctx: WriteContext): Promise<WriteResult> {
    return this.run((tx) => tx.writeFile(path, content, ctx), [{ path, content }], false);
  }

  async deleteFile(path: string, ctx: WriteContext): Promise<void> {
    return this.run((tx) => tx.deleteFile(path, ctx), [], false);
  }

  /** Snapshots the current version of a memory record into /memory/.archive/. */
  async archive(path: string, ctx: WriteContext): Promise<string> {
    return this.run((tx) => tx.archive(path, ctx), [], false);
  }

  /**
   * Runs several writes and their side effects as one atomic unit. Announced writes are prepared
   * by the indexer first (async); `run` then executes synchronously inside BEGIN IMMEDIATE.
   * If `run` throws, nothing is written.
   */
  async transaction<T>(run: (tx: ForgeTx) => T, options: { prepare?: PlannedWrite[] } = {}): Promise<T> {
    return this.run(run, options.prepare ?? [], true);
  }

  private async run<T>(run: (tx: ForgeTx) => T, prepare: PlannedWrite[], fullTextOnce: boolean): Promise<T> {
    const prepared = new Map<string, unknown>();
    if (this.indexer && prepare.length) {
      for (const w of prepare) {
        const { route } = routePath(w.path);
        if (route.root !== 'memory' || route.kind !== 'record') continue;
        const doc = parseRecord(route.id === null ? withAssignedId(w.content, 'X-000') : w.content);
        prepared.set(planKey(w.path, w.content), await this.indexer.prepare(toIndexable(route.category, doc, route.id)));
      }
    }
    const written: string[] = [];
    const result = this.store.writeTransaction(() => run(this.makeTx(prepared, written)), { fullTextOnce });
    if (written.length) this.notifyCommitted(written);
    return result;
  }

  /**
   * Calls `listener` with the paths each committed transaction wrote (the book follows
   * Expression and portfolio writes this way). Returns a function that removes it.
   */
  onCommit(listener: (paths: string[]) => void): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  private notifyCommitted(paths: string[]): void {
    for (const listener of this.commitListeners) {
      try {
        listener(paths);
      } catch {
        // A listener's fault must not turn a committed write into a reported failure.
      }
    }
  }

  private makeTx(prepared: Map<string, unknown>, written: string[]): ForgeTx {
    const tx: ForgeTx = {
      readFile: (p) => this.readFile(p),
      exists: (p) => this.exists(p),
      takeId: (category) => this.memory.takeId(category),
      writeFile: (p, content, ctx) => {
        checkWriteContext(ctx);
        if (typeof content !== 'string') throw new InvalidInputError('The content to write must be text.');
        const { path: norm, route } = routePath(p);
        const at = this.now();
        const hash = () => sha256(content);
        switch (route.root) {
          case 'memory':
            if (route.kind !== 'record')
              throw new InvalidInputError(`${norm} cannot be written; write a record such as /memory/views/V-001.md or /memory/views/new.md.`);
            return this.memory.write(route.category, route.id, content, ctx, this.indexer, prepared.size ? prepared.get(planKey(p, content)) : undefined);
          case 'portfolio': {
            if (!route.name) throw new InvalidInputError('Write a file such as /portfolio/state.md, not the folder.');
            const h = hash();
            const { created } = this.store.portfolio.put(route.name, content, at, h);
            this.memory.audit(ctx, ctx.operation ?? (created ? 'create' : 'update'), norm, h, at);
            return { path: norm, id: null, created, archivedTo: null, contentHash: h };
          }
          case 'session': {
            if (route.dir || !route.sessionId) throw new InvalidInputError(`${norm} is a folder; write a file such as /session/<id>/tasks.md.`);
            this.store.sessions.ensure(route.sessionId, at);
            const h = hash();
            const { created } = this.store.sessions.putFile(route.sessionId, route.rel, content, at, h);
            this.store.sessions.touch(route.sessionId, at);
            this.memory.audit({ ...ctx, sessionId: ctx.sessionId ?? route.sessionId }, ctx.operation ?? (created ? 'create' : 'update'), norm, h, at);
            return { path: norm, id: null, created, archivedTo: null, contentHash: h };
          }
          case 'skills': {
            const h = hash();
            // The file write is not part of the SQLite transaction; it is atomic on its own (rename).
            const { created } = this.skills.write(route.rel, content);
            this.memory.audit(ctx, ctx.operation ?? (created ? 'create' : 'update'), norm, h, at);
            return { path: norm, id: null, created, archivedTo: null, contentHash: h };
          }
          case 'top':
            throw new InvalidInputError('"/" cannot be written; write inside /memory/, /portfolio/, /session/ or /skills/.');
        }
      },
      deleteFile: (p, ctx) => {
        checkWriteContext(ctx);
        const { path: norm, route } = routePath(p);
        if (route.root !== 'memory' || route.kind !== 'record' || route.id === null) {
          throw new InvalidInputError(`Only memory records can be deleted here (not ${norm}).`);
        }
        this.memory.delete(route.category, route.id, ctx, this.indexer);
      },
      archive: (p, ctx) => {
        checkWriteContext(ctx);
        const { path: norm, route } = routePath(p);
        if (route.root !== 'memory' || route.kind !== 'record' || route.id === null) {
          throw new InvalidInputError(`Only memory records can be archived (not ${norm}).`);
        }
        const row = this.memory.get(route.category, route.id);
        if (!row) throw new NotFoundError(`There is no record ${norm} to archive.`);
        checkRecordAuthority({ category: route.category, path: norm, kind: 'archive', ctx }, rowState(row), null);
        return this.memory.archive(row, ctx, this.now());
      },
    };
    // Every path a committed transaction wrote is announced after the commit (onCommit).
    const write = tx.writeFile;
    const remove = tx.deleteFile;
    tx.writeFile = (p, content, ctx) => {
      const r = write(p, content, ctx);
      written.push(r.path);
      return r;
    };
    tx.deleteFile = (p, ctx) => {
      remove(p, ctx);
      written.push(routePath(p).path);
    };
    return tx;
  }

  /** A view of this ForgeFS in which `/session/...` means this session's folder (seed §9.1). */
  forSession(sessionId: string): SessionFS {
    return new SessionFS(this, sessionId);
  }
}

function planKey(path: string, content: string): string {
  return `${path}\0${sha256(content)}`;
}
