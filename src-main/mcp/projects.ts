import { createHash, randomBytes } from 'node:crypto';
import { ConflictError, InvalidInputError, NotFoundError } from '../common/errors';
import type { Db } from '../store';
import { CONTRACT_NAMES, isContractName, type ContractName } from './config';
import type { BuildSnapshot, PinnedDocumentListing, ProjectContext, ProjectContract, ProjectSource } from './source';

/**
 * Projects and their contracts in the workspace database (migration 3). Every save is a new
 * numbered version; a build pins the latest version of each contract by copying it, so what a
 * build reads never changes after it starts. A build also pins every document of its spec package
 * (migration 15), whatever the format, keyed by the document's own path.
 */

/** A spec package document to pin: its path in the package, its role, its text and its size in tokens. */
export interface DocumentToPin {
  id: string;
  kind: string;
  text: string;
  tokens: number;
}

export type PinnedDocument = PinnedDocumentListing & { content: string };

const PROJECT_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export type ContractSourceKind = 'user' | 'planner' | 'import';

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function slugify(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return slug || `project-${randomBytes(3).toString('hex')}`;
}

export class ProjectStore implements ProjectSource {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private checkId(id: string): void {
    if (!PROJECT_ID.test(id))
      throw new InvalidInputError(`"${id.slice(0, 80)}" is not a project id: use lowercase letters, digits, "-" and "_" (e.g. "macro-dashboard").`);
  }

  createProject(input: { id?: string; name: string; description?: string }): ProjectContext {
    const id = input.id ?? slugify(input.name);
    this.checkId(id);
    const at = this.now().toISOString();
    const inserted = this.db
      .prepare('INSERT INTO projects (id, name, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING')
      .run(id, input.name, input.description ?? '', at, at);
    if (inserted.changes === 0) throw new ConflictError(`A project with the id "${id}" already exists; pick another id or open that project.`);
    return this.contextOf(id);
  }

  /** Creates the project if needed; used by the planner, which may plan a brand-new project. */
  ensureProject(input: { id: string; name: string; description?: string }): void {
    this.checkId(input.id);
    const at = this.now().toISOString();
    this.db
      .prepare('INSERT INTO projects (id, name, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING')
      .run(input.id, input.name, input.description ?? '', at, at);
  }

  listProjects(): { project_id: string; name: string; updated_at: string }[] {
    return this.db.prepare('SELECT id AS project_id, name, updated_at FROM projects ORDER BY updated_at DESC').all() as never;
  }

  /** Saves a new version; saving the same text as the latest version returns that version unchanged. */
  saveContract(projectId: string, type: ContractName, content: string, source: ContractSourceKind = 'user'): { version: number; created: boolean } {
    this.requireProject(projectId);
    return this.db
      .transaction(() => {
        const latest = this.db
          .prepare('SELECT version, content_hash FROM project_contracts WHERE project_id = ? AND contract_type = ? ORDER BY version DESC LIMIT 1')
          .get(projectId, type) as { version: number; content_hash: string } | undefined;
        const h = hash(content);
        if (latest && latest.content_hash === h) return { version: latest.version, created: false };
        const version = (latest?.version ?? 0) + 1;
        const at = this.now().toISOString();
        this.db
          .prepare('INSERT INTO project_contracts (project_id, contract_type, version, content, content_hash, source, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
          .run(projectId, type, version, content, h, source, at);
        this.db.prepare('UPDATE projects SET updated_at = ? WHERE id = ?').run(at, projectId);
        return { version, created: true };
      })
      .immediate();
  }

  private requireProject(projectId: string): { id: string; name: string; description: string; created_at: string; updated_at: string } {
    this.checkId(projectId);
    const row = this.db.prepare('SELECT id, name, description, created_at, updated_at FROM projects WHERE id = ?').get(projectId) as never;
    if (!row) throw new NotFoundError(`There is no project "${projectId}". Create it in Forge (or run forge_run_planner), then try again.`);
    return row;
  }

  private contextOf(projectId: string): ProjectContext {
    const p = this.requireProject(projectId);
    const contracts = this.db
      .prepare(
        `SELECT contract_type, version, created_at AS updated_at, length(content) AS size FROM project_contracts c
         WHERE project_id = ? AND version = (SELECT max(version) FROM project_contracts WHERE project_id = c.project_id AND contract_type = c.contract_type)
         ORDER BY contract_type`,
      )
      .all(projectId) as ProjectContext['contracts'];
    const builds = this.db
      .prepare(
        `SELECT b.id AS build_id, b.status, b.created_at, (SELECT count(*) FROM build_contracts WHERE build_id = b.id) AS contract_count
         FROM builds b WHERE project_id = ? ORDER BY b.created_at DESC LIMIT 20`,
      )
      .all(projectId) as ProjectContext['builds'];
    return { project_id: p.id, name: p.name, description: p.description, created_at: p.created_at, updated_at: p.updated_at, contracts, builds };
  }

  async getProjectContext(projectId: string): Promise<ProjectContext> {
    return this.contextOf(projectId);
  }

  async getProjectContract(projectId: string, type: ContractName, version?: number): Promise<ProjectContract> {
    this.requireProject(projectId);
    const row = (
      version === undefined
        ? this.db
            .prepare('SELECT version, created_at, content FROM project_contracts WHERE project_id = ? AND contract_type = ? ORDER BY version DESC LIMIT 1')
            .get(projectId, type)
        : this.db
            .prepare('SELECT version, created_at, content FROM project_contracts WHERE project_id = ? AND contract_type = ? AND version = ?')
            .get(projectId, type, version)
    ) as { version: number; created_at: string; content: string } | undefined;
    if (!row) {
      throw new NotFoundError(
        `Project "${projectId}" has no ${type} contract${version ? ` version ${version}` : ''}. Call forge_list_project_contracts to see what it has.`,
      );
    }
    return { project_id: projectId, contract_type: type, version: row.version, updated_at: row.created_at, content: row.content };
  }

  /**
   * Pins the latest version of every contract the project has, and the documents of the build's
   * spec package; the build and its audit read only these from now on.
   */
  pinBuild(projectId: string, buildId?: string, documents: readonly DocumentToPin[] = []): BuildSnapshot {
    this.requireProject(projectId);
    const id = buildId ?? `build-${randomBytes(6).toString('hex')}`;
    this.checkId(id);
    const at = this.now().toISOString();
    this.db
      .transaction(() => {
        if (this.db.prepare('SELECT 1 FROM builds WHERE id = ?').get(id))
          throw new ConflictError(`A build "${id}" already exists; its snapshot cannot be replaced.`);
        this.db.prepare('INSERT INTO builds (id, project_id, status, created_at) VALUES (?, ?, ?, ?)').run(id, projectId, 'pinned', at);
        this.db
          .prepare(
            `INSERT INTO build_contracts (build_id, contract_type, version, content)
           SELECT ?, contract_type, version, content FROM project_contracts c
           WHERE project_id = ? AND version = (SELECT max(version) FROM project_contracts WHERE project_id = c.project_id AND contract_type = c.contract_type)`,
          )
          .run(id, projectId);
        const pin = this.db.prepare('INSERT INTO build_documents (build_id, doc_id, kind, content, content_hash, tokens) VALUES (?, ?, ?, ?, ?, ?)');
        const seen = new Set<string>();
        for (const d of documents) {
          // A package lists each path once; a repeat would only fail the whole pin on the primary key.
          if (seen.has(d.id)) continue;
          seen.add(d.id);
          pin.run(id, d.id, d.kind, d.text, hash(d.text), Math.max(0, Math.round(d.tokens)));
        }
      })
      .immediate();
    return this.snapshotOf(id);
  }

  private snapshotOf(buildId: string): BuildSnapshot {
    const b = this.db.prepare('SELECT id, project_id, created_at FROM builds WHERE id = ?').get(buildId) as
      | { id: string; project_id: string; created_at: string }
      | undefined;
    if (!b) throw new NotFoundError(`There is no build "${buildId}". Builds are pinned when they start; check the build id in Forge's Builds screen.`);
    const contracts = this.db
      .prepare('SELECT contract_type, version, content FROM build_contracts WHERE build_id = ? ORDER BY contract_type')
      .all(buildId) as BuildSnapshot['contracts'];
    const documents = this.db
      .prepare('SELECT doc_id, kind, content_hash, tokens FROM build_documents WHERE build_id = ? ORDER BY doc_id')
      .all(buildId) as PinnedDocumentListing[];
    return { build_id: b.id, project_id: b.project_id, pinned_at: b.created_at, contracts, documents };
  }

  /** The spec package documents a build pinned when it started, with their text (none for a build older than migration 15). */
  buildDocuments(buildId: string): PinnedDocument[] {
    return this.db
      .prepare('SELECT doc_id, kind, content_hash, tokens, content FROM build_documents WHERE build_id = ? ORDER BY doc_id')
      .all(buildId) as PinnedDocument[];
  }

  async getBuildContracts(buildId: string): Promise<BuildSnapshot> {
    if (!buildId || buildId.length > 100) throw new InvalidInputError('Pass the build id (as shown in Forge) or set it with forge_set_session.');
    return this.snapshotOf(buildId);
  }
}

export function contractTypeOf(name: string): ContractName {
  if (!isContractName(name)) throw new InvalidInputError(`"${name}" is not a contract type. Use one of: ${CONTRACT_NAMES.join(', ')}.`);
  return name;
}
